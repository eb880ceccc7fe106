#include "io/obj.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "geometry/topology.h"
#include "io/error.h"
#include "io/json_util.h"

namespace samara::io {
namespace {

bool isBlank(char c) { return isObjBlank(c); }

/// Parses a whole token as a double (correctly rounded, locale independent). Returns false
/// if the token is not a number; sets *finite = false for nan, inf or overflow.
bool parseDouble(std::string_view token, double* value, bool* finite) {
  const char* first = token.data();
  const char* last = token.data() + token.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, *value);
  if (ec == std::errc::result_out_of_range) {
    *finite = false;
    return ptr == last;
  }
  if (ec != std::errc() || ptr != last) return false;
  *finite = std::isfinite(*value);
  return true;
}

std::string shown(std::string_view token) {
  std::string s(token.substr(0, 32));
  if (token.size() > 32) s += "...";
  return s;
}

constexpr const char* kMalformedFace =
    "malformed face: vertex indices must be non-zero integers "
    "(f 1 2 3, f 1/1 2/2 3/3, f 1//1 2//2 3//3 or f 1/1/1 2/2/2 3/3/3)";

/// The lines of an OBJ as objLines splits them, from memory or from a file read in blocks
/// (so a large file is never held whole). Views stay valid until the next call of next().
class LineReader {
 public:
  /// Lines of `text` (not owned; must outlive the reader).
  explicit LineReader(const std::string* text) : text_(text) {}
  /// Lines of the file at `path` (at most `maxBytes` bytes are read).
  LineReader(std::string path, std::uintmax_t maxBytes)
      : path_(std::move(path)), maxBytes_(maxBytes) {
    open();
  }

  /// The next line, without its end; false after the last one.
  bool next(std::string_view* line) {
    if (text_ != nullptr) return nextIn(*text_, &textPos_, true, line);
    for (;;) {
      if (nextIn(buf_, &start_, eof_, line)) return true;
      if (eof_) return false;
      refill();
    }
  }

  /// Starts again at the first line.
  void rewind() {
    if (text_ != nullptr) {
      textPos_ = 0;
      return;
    }
    open();
  }

 private:
  /// A line of `s` from *pos when a whole one is there (or the last one, at the end of the
  /// input); advances *pos past its end ("\n", "\r\n" or "\r").
  static bool nextIn(const std::string& s, std::size_t* pos, bool atEnd, std::string_view* line) {
    const std::size_t n = s.size();
    const std::size_t start = *pos;
    if (start >= n) return false;
    std::size_t end = start;
    while (end < n && s[end] != '\n' && s[end] != '\r') ++end;
    if (end == n && !atEnd) return false;
    if (end + 1 == n && s[end] == '\r' && !atEnd) return false;  // "\r\n" may be split
    *line = std::string_view(s.data() + start, end - start);
    if (end < n && s[end] == '\r' && end + 1 < n && s[end + 1] == '\n') ++end;
    *pos = end + 1;
    return true;
  }

  void open() {
    in_ = std::ifstream(path_, std::ios::binary);
    if (!in_) throw Error(path_, "cannot open the file for reading");
    buf_.clear();
    start_ = 0;
    read_ = 0;
    eof_ = false;
  }

  /// Keeps the unread part of the buffer and appends the next block of the file.
  void refill() {
    constexpr std::size_t kBlock = std::size_t{1} << 20;
    buf_.erase(0, start_);
    start_ = 0;
    const std::size_t kept = buf_.size();
    const std::size_t want = std::max(kBlock, kept);  // a long line: read as much again
    buf_.resize(kept + want);
    in_.read(buf_.data() + kept, static_cast<std::streamsize>(want));
    const auto got = static_cast<std::size_t>(in_.gcount());
    buf_.resize(kept + got);
    read_ += got;
    if (read_ > maxBytes_) {
      throw Error(path_, "file too large (more than " + std::to_string(maxBytes_) +
                             " bytes; the limit is " + std::to_string(maxBytes_) + ")");
    }
    if (got < want) {
      if (in_.bad()) throw Error(path_, "read error");
      eof_ = true;
    }
  }

  const std::string* text_ = nullptr;
  std::size_t textPos_ = 0;
  std::string path_;
  std::uintmax_t maxBytes_ = 0;
  std::ifstream in_;
  std::string buf_;
  std::size_t start_ = 0;
  std::uintmax_t read_ = 0;
  bool eof_ = false;
};

enum class Record { kOther, kVertex, kFace };

/// The record of a line and its text after the keyword. A line ends early at a NUL byte,
/// as tinyobjloader reads it as a C string.
Record classify(std::string_view line, std::string_view* rest) {
  const std::size_t nul = line.find('\0');
  if (nul != std::string_view::npos) line = line.substr(0, nul);
  std::size_t i = 0;
  while (i < line.size() && isBlank(line[i])) ++i;
  line.remove_prefix(i);
  if (line.size() < 2 || !isBlank(line[1])) return Record::kOther;
  *rest = line.substr(2);
  if (line[0] == 'v') return Record::kVertex;
  if (line[0] == 'f') return Record::kFace;
  return Record::kOther;
}

/// The number of blank-separated tokens of `s` (as objTokens(s).size()).
std::size_t countTokens(std::string_view s) {
  std::size_t n = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isBlank(s[i])) ++i;
    if (i == s.size()) break;
    ++n;
    while (i < s.size() && !isBlank(s[i])) ++i;
  }
  return n;
}

/// The next blank-separated token of `s` from *i (empty at the end).
std::string_view nextToken(std::string_view s, std::size_t* i) {
  while (*i < s.size() && isBlank(s[*i])) ++*i;
  const std::size_t start = *i;
  while (*i < s.size() && !isBlank(s[*i])) ++*i;
  return s.substr(start, *i - start);
}

/// Pass 1 counts: `v` records and the triangles of the `f` records (a face with fewer than
/// three vertices counts none; pass 2 reports it).
struct Counts {
  std::int64_t vertices = 0;
  std::int64_t triangles = 0;
};

Counts countRecords(LineReader* in) {
  Counts c;
  std::string_view line;
  std::string_view rest;
  while (in->next(&line)) {
    const Record kind = classify(line, &rest);
    if (kind == Record::kVertex) {
      ++c.vertices;
    } else if (kind == Record::kFace) {
      const std::size_t n = countTokens(rest);
      if (n >= 3) c.triangles += static_cast<std::int64_t>(n) - 2;
    }
  }
  return c;
}

/// One face corner as tinyobjloader's parseTriple reads it (i, i/j, i//k, i/j/k): every
/// index given must be non-zero. Sets *vertex (1-based or negative, as written) and
/// advances *i past the corner; false if it is malformed.
bool parseCorner(std::string_view s, std::size_t* i, int* vertex) {
  // One index: an optional sign and digits, ended by '/', a blank or the line's end ("3x"
  // and "1.5" are malformed, not 3 and 1); beyond the int range it is clamped, so it names
  // a vertex that does not exist instead of wrapping onto one that does.
  const auto index = [&](int* out) {
    bool negative = false;
    if (*i < s.size() && (s[*i] == '+' || s[*i] == '-')) negative = s[(*i)++] == '-';
    const std::size_t digits = *i;
    long long v = 0;
    for (; *i < s.size() && s[*i] >= '0' && s[*i] <= '9'; ++*i) {
      v = std::min<long long>(v * 10 + (s[*i] - '0'), 1LL << 40);
    }
    if (*i == digits) return false;
    if (*i < s.size() && s[*i] != '/' && !isBlank(s[*i]) && s[*i] != '\r') return false;
    const long long limit = std::numeric_limits<int>::max();
    *out = static_cast<int>(std::min(v, limit) * (negative ? -1 : 1));
    return *out != 0;
  };
  int unused = 0;
  if (!index(vertex)) return false;
  if (*i >= s.size() || s[*i] != '/') return true;
  ++*i;
  if (*i < s.size() && s[*i] == '/') {  // i//k
    ++*i;
    return index(&unused);
  }
  if (!index(&unused)) return false;  // i/j or i/j/k
  if (*i >= s.size() || s[*i] != '/') return true;
  ++*i;
  return index(&unused);
}

/// The first malformed face and the first face with an index out of range (their lines,
/// 0 if none): reported after the record errors, in this order, as tinyobjloader did.
struct FaceFaults {
  int malformedLine = 0;
  int rangeLine = 0;
  int rangeTriangle = 0;  // the first triangle of that face (faces count from 0, as elsewhere)
};

/// Reads the n corners of a face record (`rest`, after "f") and appends its fan triangles
/// to mesh->F at *triangle; `vertices` were read before it (relative indices count back
/// from there). A bad face is noted in *faults (its triangles stay unset).
void readFace(std::string_view rest, std::size_t n, int lineNo, int vertices, std::size_t* polygon,
              int* triangle, FaceFaults* faults, geometry::TriMesh* mesh) {
  std::array<int, 255> idx{};
  bool ok = true;
  std::size_t at = 0;
  // Corners until the end of the line, as tinyobjloader reads them: a corner stops at a
  // blank or after its third index, so text left inside a token ("1/2/3/4") is read as
  // another corner, which is malformed.
  for (std::size_t c = 0;; ++c) {
    while (at < rest.size() && (isBlank(rest[at]) || rest[at] == '\r')) ++at;
    if (at >= rest.size()) break;
    int written = 0;
    if (c >= n || !parseCorner(rest, &at, &written)) {
      if (faults->malformedLine == 0) faults->malformedLine = lineNo;
      ok = false;
      break;  // the rest of the line is not read (as tinyobjloader)
    }
    const int vi = written > 0 ? written - 1 : vertices + written;
    if (vi < 0 || vi >= mesh->numVertices()) {
      if (faults->rangeLine == 0) {
        faults->rangeLine = lineNo;
        faults->rangeTriangle = *triangle;
      }
      ok = false;
    }
    if (ok) idx[c] = vi;
  }
  const int count = static_cast<int>(n) - 2;
  if (*triangle + count > mesh->numFaces()) {
    *triangle += count;  // the file changed since it was counted: reported by the caller
    ++*polygon;
    return;
  }
  for (std::size_t c = 1; c + 1 < n; ++c) {
    if (ok) mesh->F.row(*triangle) << idx[0], idx[c], idx[c + 1];
    ++*triangle;
  }
  ++*polygon;
}

/// Pass 2: reads every `v` record into mesh->V and fan-triangulates every `f` record into
/// mesh->F (sized by pass 1), checking each record in file order.
void readRecords(LineReader* in, const std::string& path, geometry::TriMesh* mesh) {
  const int numVertices = mesh->numVertices();
  const int numTriangles = mesh->numFaces();
  int vertex = 0;
  int triangle = 0;
  std::size_t polygon = 0;
  int lineNo = 0;
  FaceFaults faults;
  std::string_view line;
  std::string_view rest;
  while (in->next(&line)) {
    ++lineNo;
    const Record kind = classify(line, &rest);
    if (kind == Record::kVertex) {
      if (vertex >= numVertices) throw Error(path, "the file changed while it was read");
      std::size_t at = 0;
      std::string_view t[3];
      for (auto& token : t) token = nextToken(rest, &at);
      if (t[2].empty()) {
        throw Error::atLine(path, lineNo, "a vertex needs three coordinates (v x y z)");
      }
      for (int c = 0; c < 3; ++c) {
        double x = 0.0;
        bool finite = true;
        if (!parseDouble(t[c], &x, &finite)) {
          throw Error::atLine(path, lineNo,
                              "vertex coordinate \"" + shown(t[c]) + "\" is not a number");
        }
        if (!finite) {
          throw Error::atLine(path, lineNo,
                              "vertex coordinate \"" + shown(t[c]) + "\" is not a finite number");
        }
        mesh->V(vertex, c) = x;
      }
      ++vertex;
    } else if (kind == Record::kFace) {
      const std::size_t n = countTokens(rest);
      if (n < 3) {
        throw Error::atLine(path, lineNo,
                            "a face needs at least three vertices (got " + std::to_string(n) + ")");
      }
      if (n > 255) {  // tinyobjloader stores the corner count in a byte
        throw Error::atLine(path, lineNo,
                            "a face has more than 255 vertices (" + std::to_string(n) + ")");
      }
      readFace(rest, n, lineNo, vertex, &polygon, &triangle, &faults, mesh);
    }
  }
  if (vertex != numVertices || triangle != numTriangles) {
    throw Error(path, "the file changed while it was read");
  }
  if (numVertices == 0) throw Error(path, "no vertices (v records)");
  if (numTriangles == 0) throw Error(path, "no faces (f records)");
  if (faults.malformedLine > 0) throw Error::atLine(path, faults.malformedLine, kMalformedFace);
  if (faults.rangeLine > 0) {
    throw Error::atLine(path, faults.rangeLine,
                        "face " + std::to_string(faults.rangeTriangle) +
                            " refers to a vertex that does not exist (the file has " +
                            std::to_string(numVertices) + " vertices)");
  }
}

/// The line of the `v` record of vertex `vertex` or of the `f` record that gave triangle
/// `face` (one of them ≥ 0), or 0.
int lineOfElement(LineReader* in, int face, int vertex) {
  in->rewind();
  std::int64_t vertices = 0;
  std::int64_t triangles = 0;
  int lineNo = 0;
  std::string_view line;
  std::string_view rest;
  while (in->next(&line)) {
    ++lineNo;
    const Record kind = classify(line, &rest);
    if (kind == Record::kVertex && vertex >= 0 && vertices++ == vertex) return lineNo;
    if (kind == Record::kFace && face >= 0) {
      triangles += static_cast<std::int64_t>(countTokens(rest)) - 2;
      if (triangles > face) return lineNo;
    }
  }
  return 0;
}

geometry::TriMesh readObj(LineReader* in, const std::string& path, std::int64_t maxFaces,
                          const ObjCountCheck& check) {
  const Counts counts = countRecords(in);
  if (check) check(counts.vertices, counts.triangles);
  if (counts.triangles > maxFaces) {
    throw Error(path, std::to_string(counts.triangles) +
                          " faces (after triangulation) exceed the limit of " +
                          std::to_string(maxFaces));
  }
  constexpr std::int64_t kMaxVertices = std::numeric_limits<int>::max();
  if (counts.vertices > kMaxVertices) {
    throw Error(path, std::to_string(counts.vertices) + " vertices exceed the limit of " +
                          std::to_string(kMaxVertices));
  }
  geometry::TriMesh mesh;
  mesh.V.resize(counts.vertices, 3);
  mesh.F.resize(counts.triangles, 3);
  in->rewind();
  readRecords(in, path, &mesh);
  try {
    geometry::checkAndOrient(&mesh);
  } catch (const geometry::MeshError& e) {
    const bool face = e.face() >= 0 && e.face() < mesh.numFaces();
    const bool vertex = e.vertex() >= 0 && e.vertex() < mesh.numVertices();
    const int line =
        face || vertex ? lineOfElement(in, face ? e.face() : -1, face ? -1 : e.vertex()) : 0;
    throw Error::atLine(path, line, e.what());
  }
  return mesh;
}

}  // namespace

geometry::TriMesh parseObj(const std::string& text, const std::string& path, std::int64_t maxFaces,
                           const ObjCountCheck& check) {
  LineReader in(&text);
  return readObj(&in, path, maxFaces, check);
}

geometry::TriMesh loadObj(const std::string& path, std::uintmax_t maxBytes, std::int64_t maxFaces,
                          const ObjCountCheck& check) {
  checkReadableFile(path, maxBytes);
  LineReader in(path, maxBytes);
  return readObj(&in, path, maxFaces, check);
}

std::vector<std::string_view> objLines(const std::string& text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  const std::size_t n = text.size();
  while (start < n) {
    std::size_t end = start;
    while (end < n && text[end] != '\n' && text[end] != '\r') ++end;
    lines.emplace_back(text.data() + start, end - start);
    if (end < n && text[end] == '\r' && end + 1 < n && text[end + 1] == '\n') ++end;
    start = end + 1;
  }
  return lines;
}

std::vector<std::string_view> objTokens(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isObjBlank(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !isObjBlank(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

}  // namespace samara::io
