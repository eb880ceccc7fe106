#include "io/obj_groups.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <string_view>

#include "io/error.h"
#include "io/json_util.h"
#include "io/obj.h"

namespace samara::io {
namespace {

bool isBlank(char c) { return isObjBlank(c); }

/// The record keyword of a line (leading blanks skipped), or "".
std::string_view keyword(std::string_view line, std::string_view* rest) {
  std::size_t i = 0;
  while (i < line.size() && isBlank(line[i])) ++i;
  const std::size_t start = i;
  while (i < line.size() && !isBlank(line[i])) ++i;
  *rest = line.substr(i);
  return line.substr(start, i - start);
}

}  // namespace

MeshGroups scanObjGroups(const std::string& text, const std::string& path) {
  std::map<std::string, std::set<int>> groups;
  std::vector<std::string> current;  // names the following faces belong to
  long long numVertices = 0;
  const std::vector<std::string_view> lines = objLines(text);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const int lineNo = static_cast<int>(k) + 1;
    std::string_view line = lines[k];
    // Records are told apart as loadObj does (io/obj.cpp): the line ends at a NUL byte and
    // the keyword is the first blank-separated word, so "v#n 0 1 0" is not a vertex. Only
    // then is a trailing comment dropped. Vertex numbers must agree with loadObj's mesh.
    line = line.substr(0, line.find('\0'));
    std::string_view rest;
    const std::string_view key = keyword(line, &rest);
    rest = rest.substr(0, rest.find('#'));
    if (key == "v") {
      ++numVertices;
    } else if (key == "g") {
      current.clear();
      for (const std::string_view name : objTokens(rest)) current.emplace_back(name);
      if (current.empty()) current.emplace_back("default");
      for (const std::string& name : current) groups[name];  // known even without faces
    } else if (key == "o") {
      current.clear();
      // An object name may contain blanks: the rest of the line, trimmed.
      const std::vector<std::string_view> t = objTokens(rest);
      if (!t.empty()) {
        const char* first = t.front().data();
        const char* last = t.back().data() + t.back().size();
        current.emplace_back(first, static_cast<std::size_t>(last - first));
        groups[current.back()];
      }
    } else if (key == "f") {
      if (current.empty()) continue;
      std::vector<int> face;
      for (const std::string_view token : objTokens(rest)) {
        const std::string_view index = token.substr(0, token.find('/'));
        long long v = 0;
        const auto [ptr, ec] = std::from_chars(index.data(), index.data() + index.size(), v);
        if (ec != std::errc() || ptr != index.data() + index.size() || v == 0) {
          throw Error::atLine(path, lineNo,
                              "malformed face vertex \"" + std::string(token.substr(0, 32)) +
                                  "\" (expected a non-zero integer index)");
        }
        const long long i = v > 0 ? v - 1 : numVertices + v;
        if (i < 0 || i >= numVertices) {
          throw Error::atLine(path, lineNo,
                              "face vertex " + std::to_string(v) +
                                  " refers to a vertex that does not exist (" +
                                  std::to_string(numVertices) + " vertices so far)");
        }
        face.push_back(static_cast<int>(i));
      }
      for (const std::string& name : current) groups[name].insert(face.begin(), face.end());
    }
  }
  MeshGroups out;
  for (auto& [name, set] : groups) out.emplace(name, std::vector<int>(set.begin(), set.end()));
  return out;
}

MeshGroups loadObjGroups(const std::string& path, std::uintmax_t maxBytes) {
  return scanObjGroups(readFile(path, maxBytes), path);
}

}  // namespace samara::io
