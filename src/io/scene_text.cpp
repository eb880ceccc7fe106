#include "io/scene_text.h"

#include <algorithm>
#include <string>
#include <vector>

namespace samara::io::detail {
namespace {

constexpr std::size_t kWidth = 100;  // columns of the written file

/// Keys in the README's order; others follow alphabetically.
int keyRank(const std::string& key) {
  static const char* const kOrder[] = {
      "name",         "type",         "primitive",      "gravity",      "fluid",
      "floor",        "sim",          "bodies",         "mesh",         "mass",
      "point_masses", "position",     "orientation",    "velocity",     "angular_velocity",
      "delta",        "added_mass",   "model",          "animation",    "density",
      "viscosity",    "wind",         "gusts",          "water",        "level",
      "height",       "frequency_hz", "damping_ratio",  "friction",     "dt",
      "duration",     "tolerance",    "max_iterations", "max_halvings", "axis",
      "angle_deg"};
  for (std::size_t i = 0; i < std::size(kOrder); ++i) {
    if (key == kOrder[i]) return static_cast<int>(i);
  }
  return static_cast<int>(std::size(kOrder));
}

std::vector<std::string> orderedKeys(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
    return keyRank(a) < keyRank(b);  // nlohmann keeps the rest sorted by name
  });
  return keys;
}

/// One line: {"a": 1, "b": [1, 2]}. Numbers in nlohmann's shortest round-trip form.
std::string inlineText(const Json& j) {
  if (j.is_object()) {
    if (j.empty()) return "{}";
    std::string s = "{";
    for (const std::string& k : orderedKeys(j)) {
      if (s.size() > 1) s += ", ";
      s += Json(k).dump() + ": " + inlineText(j.at(k));
    }
    return s + "}";
  }
  if (j.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < j.size(); ++i) s += (i ? ", " : "") + inlineText(j[i]);
    return s + "]";
  }
  return j.dump();
}

/// Pretty JSON: a value on one line when it fits in kWidth columns, else an object or array
/// of scalars wrapped, one member per line otherwise.
void writeValue(const Json& j, std::size_t indent, std::size_t column, std::string* out) {
  const std::string flat = inlineText(j);
  if (column + flat.size() + 1 <= kWidth || !(j.is_object() || j.is_array()) || j.empty()) {
    *out += flat;
    return;
  }
  const std::string pad(indent + 2, ' ');
  if (j.is_object()) {
    *out += "{";
    bool first = true;
    for (const std::string& k : orderedKeys(j)) {
      *out += (first ? "\n" : ",\n") + pad;
      first = false;
      const std::string key = Json(k).dump() + ": ";
      *out += key;
      writeValue(j.at(k), indent + 2, indent + 2 + key.size(), out);
    }
    *out += "\n" + std::string(indent, ' ') + "}";
    return;
  }
  const bool scalars =
      std::none_of(j.begin(), j.end(), [](const Json& e) { return e.is_structured(); });
  *out += "[";
  if (scalars) {  // wrapped rows of numbers or strings
    std::size_t col = kWidth;
    for (std::size_t i = 0; i < j.size(); ++i) {
      const std::string e = inlineText(j[i]) + (i + 1 < j.size() ? "," : "");
      if (col + e.size() + 1 > kWidth) {
        *out += "\n" + pad;
        col = pad.size();
      } else {
        *out += " ";
        ++col;
      }
      *out += e;
      col += e.size();
    }
  } else {
    for (std::size_t i = 0; i < j.size(); ++i) {
      *out += (i ? ",\n" : "\n") + pad;
      writeValue(j[i], indent + 2, indent + 2, out);
    }
  }
  *out += "\n" + std::string(indent, ' ') + "]";
}

}  // namespace

std::string sceneText(const Json& scene, const std::string& source) {
  std::string text = "// saved by samara from ";
  for (const char c : source) text += (c == '\n' || c == '\r') ? ' ' : c;  // one comment line
  text += "\n";
  writeValue(scene, 0, 0, &text);
  return text + "\n";
}

}  // namespace samara::io::detail
