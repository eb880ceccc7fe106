#include "io/scene_relocate.h"

#include <algorithm>
#include <filesystem>

#include "io/error.h"

namespace samara::io::detail {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> canonicalParts(const std::string& dir) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(dir.empty() ? "." : dir), ec);
  std::vector<std::string> parts;
  for (const fs::path& part : p) {
    if (!part.empty() && part != ".") parts.push_back(part.string());
  }
  return parts;
}

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (s[i] == '%' && i + 1 < s.size() && s[i + 1] == '%') ++i;
  }
  return out;
}

/// The unescaped tokens of a JSON pointer ("/a~1b/c" → {"a/b", "c"}).
std::vector<std::string> pointerTokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  std::size_t start = 1;
  while (start <= pointer.size() && !pointer.empty()) {
    const std::size_t end = std::min(pointer.find('/', start), pointer.size());
    std::string t;
    for (std::size_t i = start; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end) {
        t += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        t += pointer[i];
      }
    }
    tokens.push_back(t);
    start = end + 1;
  }
  return tokens;
}

void relocateString(Json* value, const Relocator& r, bool pattern) {
  if (value->is_string()) *value = r.apply(value->get<std::string>(), pattern);
}

}  // namespace

Relocator::Relocator(const std::string& sourceDir, const std::string& destDir)
    : source_(canonicalParts(sourceDir)), dest_(canonicalParts(destDir)) {}

std::string Relocator::apply(const std::string& path, bool pattern) const {
  if (source_ == dest_ || path.empty() || fs::path(path).is_absolute()) return path;
  return relocate(source_, path, pattern);
}

std::string Relocator::relative(const std::string& path) const {
  const std::vector<std::string> file = canonicalParts(path);
  if (file.empty()) return path;
  const std::vector<std::string> dir(file.begin(), file.end() - 1);
  return relocate(dir, file.back(), false);
}

std::string Relocator::relocate(const std::vector<std::string>& from, const std::string& path,
                                bool pattern) const {
  struct Part {
    std::string name;  // as in the file system
    std::string text;  // as written in the result
  };
  std::vector<Part> target;
  for (const std::string& s : from) target.push_back({s, pattern ? escape(s) : s});
  bool leading = true;
  for (const fs::path& part : fs::path(path)) {
    const std::string p = part.string();
    if (p == "." || p.empty()) continue;
    if (leading && p == ".." && target.size() > 1) {
      target.pop_back();
      continue;
    }
    leading = false;
    target.push_back({pattern ? unescape(p) : p, p});
  }
  std::size_t common = 0;
  while (common < target.size() && common < dest_.size() && target[common].name == dest_[common]) {
    ++common;
  }
  if (common == 0) return path;  // nothing shared (not even the root): keep it
  std::string out;
  for (std::size_t k = common; k < dest_.size(); ++k) out += "../";
  for (std::size_t k = common; k < target.size(); ++k) out += target[k].text + "/";
  if (out.empty()) return ".";
  out.pop_back();
  return out;
}

void createParents(Json* root, const std::string& path) {
  std::string pointer;
  try {
    pointer = setPathToPointer(path);
  } catch (const Error&) {
    return;  // applySet reports it
  }
  const std::vector<std::string> tokens = pointerTokens(pointer);
  Json* node = root;
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    if (!node->is_object()) return;
    auto it = node->find(tokens[k]);
    if (it == node->end()) it = node->emplace(tokens[k], Json::object()).first;
    node = &*it;
  }
}

void relocatePaths(Json* scene, const Relocator& r) {
  auto bodies = scene->find("bodies");
  if (bodies == scene->end() || !bodies->is_array()) return;
  for (Json& b : *bodies) {
    if (!b.is_object()) continue;
    if (auto m = b.find("mesh"); m != b.end()) relocateString(&*m, r, false);
    auto a = b.find("animation");
    if (a == b.end() || !a->is_object()) continue;
    if (auto f = a->find("files"); f != a->end()) {
      if (f->is_array()) {
        for (Json& e : *f) relocateString(&e, r, false);
      } else {
        relocateString(&*f, r, true);
      }
    }
    if (auto f = a->find("file"); f != a->end()) relocateString(&*f, r, false);
    if (auto f = a->find("bones_file"); f != a->end()) relocateString(&*f, r, false);
  }
}

}  // namespace samara::io::detail
