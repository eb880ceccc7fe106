#include "io/states_csv.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "io/error.h"
#include "io/json_util.h"

namespace samara::io {
namespace {

std::vector<std::string> splitFields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (const char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  for (std::string& s : out) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  }
  return out;
}

/// `text` with CRLF and lone CR (old Mac) line ends turned into LF.
std::string unixLines(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else if (i + 1 >= text.size() || text[i + 1] != '\n') {
      out += '\n';
    }
  }
  return out;
}

bool skippable(const std::string& line) {
  const auto p = line.find_first_not_of(" \t\r");
  return p == std::string::npos || line[p] == '#';
}

}  // namespace

std::vector<StateRow> parseStatesCsv(const std::string& text, const std::string& path) {
  std::istringstream in(unixLines(text));
  std::string line;
  int lineNo = 0;
  std::map<std::string, int> col;
  int headerLine = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (lineNo == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // UTF-8 BOM
    if (skippable(line)) continue;
    const std::vector<std::string> names = splitFields(line);
    for (size_t i = 0; i < names.size(); ++i) {
      if (!col.emplace(names[i], static_cast<int>(i)).second) {
        throw Error::atLine(path, lineNo, "column \"" + names[i] + "\" appears twice");
      }
    }
    headerLine = lineNo;
    break;
  }
  if (headerLine == 0) throw Error(path, "empty: expected a header line (body,qw,qx,...)");
  for (const char* need : {"body", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"}) {
    if (col.count(need) == 0) {
      throw Error::atLine(path, headerLine,
                          std::string("missing column \"") + need +
                              "\" (required: body,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz)");
    }
  }
  auto optionalTriple = [&](const char* a, const char* b, const char* c) {
    const int n = static_cast<int>(col.count(a) + col.count(b) + col.count(c));
    if (n != 0 && n != 3) {
      throw Error::atLine(path, headerLine,
                          std::string("give all of ") + a + "," + b + "," + c + " or none");
    }
    return n == 3;
  };
  const bool hasCom = optionalTriple("x", "y", "z");
  const bool hasWind = optionalTriple("windx", "windy", "windz");
  const bool hasT = col.count("t") != 0;

  std::vector<StateRow> rows;
  while (std::getline(in, line)) {
    ++lineNo;
    if (skippable(line)) continue;
    const std::vector<std::string> f = splitFields(line);
    if (f.size() != col.size()) {
      throw Error::atLine(
          path, lineNo,
          "expected " + std::to_string(col.size()) + " fields, got " + std::to_string(f.size()));
    }
    auto num = [&](const char* name) {
      const int c = col.at(name);
      const std::string& s = f[static_cast<size_t>(c)];
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) {  // no NUL inside
        throw Error::atLine(path, lineNo,
                            std::string("column \"") + name +
                                "\": expected a finite number, got \"" + printable(s) + "\"",
                            c + 1);
      }
      return v;
    };
    StateRow r;
    r.line = lineNo;
    r.body = f[static_cast<size_t>(col.at("body"))];
    if (r.body.empty())
      throw Error::atLine(path, lineNo, "column \"body\" is empty", col.at("body") + 1);
    Eigen::Vector4d q(num("qw"), num("qx"), num("qy"), num("qz"));
    // Scaled by its largest component first: |q|² of (1e200, 0, 0, 1e200) overflows and
    // of (1e-300, ...) underflows, and either would turn a valid rotation into zeros.
    const double scale = q.cwiseAbs().maxCoeff();
    if (!(scale > 0.0)) {
      throw Error::atLine(path, lineNo, "the quaternion (qw,qx,qy,qz) is zero", col.at("qw") + 1);
    }
    q /= scale;
    r.q = Quat(q[0], q[1], q[2], q[3]).normalized();
    r.velocity = Vec3(num("vx"), num("vy"), num("vz"));
    r.omega = Vec3(num("wx"), num("wy"), num("wz"));
    if (hasCom) r.com = Vec3(num("x"), num("y"), num("z"));
    if (hasWind) r.wind = Vec3(num("windx"), num("windy"), num("windz"));
    if (hasT) r.t = num("t");
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<StateRow> readStatesCsv(const std::string& path) {
  return parseStatesCsv(readFile(path, std::uintmax_t{1} << 30), path);
}

}  // namespace samara::io
