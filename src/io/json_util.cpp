#include "io/json_util.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace samara::io {
namespace {

constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxShownChars = 40;

/// Line and column (1-based) of byte offset `pos` (0-based) in `text`.
std::pair<int, int> lineColumn(const std::string& text, std::size_t pos) {
  pos = std::min(pos, text.size());
  int line = 1;
  std::size_t lineStart = 0;
  for (std::size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return {line, static_cast<int>(pos - lineStart) + 1};
}

/// nlohmann's parse_error text without its "[json.exception...] parse error at line L,
/// column C: " prefix.
std::string parseErrorMessage(const std::string& what) {
  const std::size_t col = what.find("column ");
  if (col != std::string::npos) {
    const std::size_t colon = what.find(": ", col);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  const std::size_t bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

std::string shorten(const std::string& s) {
  if (s.size() <= kMaxShownChars) return s;
  return s.substr(0, kMaxShownChars) + "...";
}

/// Levenshtein distance, for "did you mean" hints.
std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string unescapeToken(const std::string& token, bool* ok) {
  std::string out;
  *ok = true;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '~') {
      out += token[i];
    } else if (i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      *ok = false;
      return out;
    }
  }
  return out;
}

/// Array index token: digits without a leading zero (RFC 6901), or -1.
long long arrayIndex(const std::string& token) {
  if (token.empty() || token.size() > 9) return -1;
  if (token.size() > 1 && token[0] == '0') return -1;
  long long v = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

/// Length of the valid UTF-8 sequence at s[i] (1 to 4), or 0 if it is not valid (overlong
/// forms, surrogates and code points above U+10FFFF are not).
std::size_t utf8Length(const std::string& s, std::size_t i) {
  const auto byte = [&s](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  }
  return n;
}

}  // namespace

std::string validUtf8(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8Length(s, i);
    out += n == 0 ? std::string("\xEF\xBF\xBD") : s.substr(i, n);
    i += n == 0 ? 1 : n;
  }
  return out;
}

Json parseJson(const std::string& text, const std::string& path) {
  // Duplicate keys (which nlohmann would silently resolve to the last one) and absurd
  // nesting are caught by a parser callback that tracks where it is.
  struct Frame {
    bool isArray = false;
    std::string pointer;
    std::size_t nextIndex = 0;
    std::string key;
    std::set<std::string> keys;
  };
  std::vector<Frame> stack;
  auto childPointer = [&stack]() -> std::string {
    if (stack.empty()) return "";
    Frame& f = stack.back();
    return f.isArray ? pointerAppend(f.pointer, f.nextIndex++) : pointerAppend(f.pointer, f.key);
  };
  Json::parser_callback_t callback = [&](int depth, Json::parse_event_t event,
                                         Json& parsed) -> bool {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start: {
        Frame f;
        f.isArray = event == Json::parse_event_t::array_start;
        f.pointer = childPointer();
        if (depth >= kMaxDepth) {
          throw Error::atField(path, f.pointer,
                               "nested deeper than " + std::to_string(kMaxDepth) + " levels");
        }
        stack.push_back(std::move(f));
        break;
      }
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case Json::parse_event_t::key: {
        Frame& f = stack.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) {
          throw Error::atField(path, f.pointer, "duplicate key \"" + shorten(f.key) + "\"");
        }
        break;
      }
      case Json::parse_event_t::value:
        if (!stack.empty() && stack.back().isArray) ++stack.back().nextIndex;
        break;
    }
    return true;
  };
  try {
    return Json::parse(text, callback, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const Json::parse_error& e) {
    // e.byte is the 1-based index of the last byte read.
    const auto [line, column] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
    throw Error::atLine(path, line, parseErrorMessage(e.what()), column);
  } catch (const Json::out_of_range& e) {
    // "number overflow parsing '1e999'": no position; find the literal in the text.
    const std::string message = parseErrorMessage(e.what());
    const std::size_t q0 = message.find('\'');
    const std::size_t q1 = q0 == std::string::npos ? q0 : message.find('\'', q0 + 1);
    if (q1 != std::string::npos && q1 > q0 + 1) {
      const std::size_t at = text.find(message.substr(q0 + 1, q1 - q0 - 1));
      if (at != std::string::npos) {
        const auto [line, column] = lineColumn(text, at);
        throw Error::atLine(path, line, message, column);
      }
    }
    throw Error(path, message);
  } catch (const Json::exception& e) {
    throw Error(path, parseErrorMessage(e.what()));
  }
}

std::uintmax_t checkReadableFile(const std::string& path, std::uintmax_t maxBytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw Error(path, "file not found");
  if (!fs::is_regular_file(st)) throw Error(path, "not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw Error(path, "cannot read the file size: " + ec.message());
  if (size > maxBytes) {
    throw Error(path, "file too large (" + std::to_string(size) + " bytes; the limit is " +
                          std::to_string(maxBytes) + ")");
  }
  return size;
}

std::string readFile(const std::string& path, std::uintmax_t maxBytes) {
  const std::uintmax_t size = checkReadableFile(path, maxBytes);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, "cannot open the file for reading");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(in.gcount()) != size) throw Error(path, "read error");
  return text;
}

std::string pointerAppend(const std::string& ptr, const std::string& key) {
  std::string out = ptr + "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string pointerAppend(const std::string& ptr, std::size_t index) {
  return ptr + "/" + std::to_string(index);
}

// --- Node ----------------------------------------------------------------------------------

Error Node::error(const std::string& message) const {
  return Error::atField(*file_, pointer_, message);
}

std::string Node::describe() const {
  const Json& j = *json_;
  switch (j.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    case Json::value_t::string:
      return "the string \"" + shorten(j.get_ref<const std::string&>()) + "\"";
    case Json::value_t::number_integer:
      return std::to_string(j.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return std::to_string(j.get<std::uint64_t>());
    case Json::value_t::number_float:
      return formatNumber(j.get<double>());
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array of " + std::to_string(j.size());
    default:
      return "an invalid value";
  }
}

void Node::expectObject(std::initializer_list<const char*> allowed) const {
  expectObject(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void Node::expectObject(const std::vector<std::string>& allowed) const {
  if (!json_->is_object()) throw error("expected an object, got " + describe());
  for (const auto& item : json_->items()) {
    const std::string& key = item.key();
    const bool known = std::any_of(allowed.begin(), allowed.end(),
                                   [&key](const std::string& a) { return key == a; });
    if (known) continue;
    std::string message = "unknown key \"" + shorten(key) + "\"";
    std::size_t best = 3;
    std::string suggestion;
    for (const std::string& a : allowed) {
      const std::size_t d = editDistance(key.substr(0, 64), a);
      if (d < best) {
        best = d;
        suggestion = a;
      }
    }
    if (!suggestion.empty()) message += " (did you mean \"" + suggestion + "\"?)";
    message += "; allowed keys: ";
    bool first = true;
    for (const std::string& a : allowed) {
      message += (first ? "" : ", ") + a;
      first = false;
    }
    throw error(message);
  }
}

bool Node::has(const char* key) const { return json_->contains(key); }

Node Node::at(const char* key) const {
  const auto it = json_->find(key);
  if (it == json_->end()) {
    throw Error::atField(*file_, pointerAppend(pointer_, std::string(key)),
                         "missing required field");
  }
  return Node(*it, *file_, pointerAppend(pointer_, std::string(key)));
}

void Node::expectArray(int size) const {
  if (!json_->is_array()) {
    if (size >= 0) {
      throw error("expected an array of " + std::to_string(size) + " numbers, got " + describe());
    }
    throw error("expected an array, got " + describe());
  }
  if (size >= 0 && json_->size() != static_cast<std::size_t>(size)) {
    throw error("expected an array of " + std::to_string(size) + " elements, got " +
                std::to_string(json_->size()));
  }
}

Node Node::item(std::size_t index) const {
  return Node((*json_)[index], *file_, pointerAppend(pointer_, index));
}

double Node::number() const {
  if (!json_->is_number()) throw error("expected a number, got " + describe());
  const double x = json_->get<double>();
  if (!std::isfinite(x)) throw error("must be a finite number (got " + formatNumber(x) + ")");
  return x;
}

double Node::numberAtLeast(double lo, bool openLo) const {
  const double x = number();
  if (openLo ? !(x > lo) : !(x >= lo)) {
    throw error(std::string("must be ") + (openLo ? "> " : ">= ") + formatNumber(lo) + " (got " +
                formatNumber(x) + ")");
  }
  return x;
}

double Node::numberIn(double lo, double hi, bool openLo) const {
  const double x = number();
  if (!(openLo ? x > lo : x >= lo) || !(x <= hi)) {
    throw error(std::string("must be in ") + (openLo ? "(" : "[") + formatNumber(lo) + ", " +
                formatNumber(hi) + "] (got " + formatNumber(x) + ")");
  }
  return x;
}

int Node::integer(int lo, int hi) const {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (json_->is_number_integer()) {  // signed or unsigned
    const bool isUnsigned = json_->is_number_unsigned();
    const std::uint64_t u = isUnsigned ? json_->get<std::uint64_t>() : 0;
    const std::int64_t i = isUnsigned ? 0 : json_->get<std::int64_t>();
    if (isUnsigned ? (u > static_cast<std::uint64_t>(hi) || static_cast<std::int64_t>(u) < lo)
                   : (i < lo || i > hi)) {
      throw error("must be an integer in " + range + " (got " + describe() + ")");
    }
    return isUnsigned ? static_cast<int>(u) : static_cast<int>(i);
  }
  if (json_->is_number_float()) {
    const double x = json_->get<double>();
    if (std::isfinite(x) && x == std::floor(x) && x >= lo && x <= hi) return static_cast<int>(x);
    throw error("must be an integer in " + range + " (got " + describe() + ")");
  }
  throw error("expected an integer, got " + describe());
}

bool Node::boolean() const {
  if (!json_->is_boolean()) throw error("expected true or false, got " + describe());
  return json_->get<bool>();
}

std::string Node::string() const {
  if (!json_->is_string()) throw error("expected a string, got " + describe());
  return json_->get<std::string>();
}

std::string Node::choice(std::initializer_list<const char*> allowed) const {
  const std::string s = string();
  std::string list;
  for (const char* a : allowed) {
    if (s == a) return s;
    list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
  }
  throw error("unknown value \"" + s + "\"; expected one of " + list);
}

Vec3 Node::vec3() const {
  expectArray(3);
  Vec3 v;
  for (std::size_t k = 0; k < 3; ++k) v[static_cast<int>(k)] = item(k).number();
  return v;
}

// --- --set ---------------------------------------------------------------------------------

std::string setPathToPointer(const std::string& path) {
  if (path.empty()) throw Error("", "empty path");
  if (path[0] == '/') {
    bool ok = true;
    std::size_t start = 1;
    while (ok && start <= path.size()) {
      const std::size_t end = std::min(path.find('/', start), path.size());
      unescapeToken(path.substr(start, end - start), &ok);
      start = end + 1;
    }
    if (!ok) throw Error("", "bad JSON pointer \"" + path + "\" (\"~\" must be \"~0\" or \"~1\")");
    return path;
  }
  std::string pointer;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(path.find('.', start), path.size());
    const std::string token = path.substr(start, end - start);
    if (token.empty()) throw Error("", "empty component in path \"" + path + "\"");
    pointer = pointerAppend(pointer, token);
    if (end == path.size()) break;
    start = end + 1;
  }
  return pointer;
}

std::string applySet(Json* root, const std::string& path, const std::string& value,
                     const std::string& file) {
  // Raw bytes: messages escape what is not printable UTF-8 (\xff), see io::Error.
  const std::string option = "--set " + path + "=" + shorten(value);
  auto fail = [&](const std::string& message) { return Error(file, option + ": " + message); };
  // A JSON string holds UTF-8 only (the scene, its copies and the exports are JSON).
  if (!isValidUtf8(path)) throw fail("PATH is not valid UTF-8");
  if (!isValidUtf8(value)) throw fail("VALUE is not valid UTF-8");
  std::string pointer;
  try {
    pointer = setPathToPointer(path);
  } catch (const Error& e) {
    throw fail(e.message());
  }
  if (pointer.empty() || pointer == "/") throw fail("cannot replace the whole scene");

  // Split into unescaped tokens.
  std::vector<std::string> tokens;
  std::size_t start = 1;
  while (start <= pointer.size()) {
    const std::size_t end = std::min(pointer.find('/', start), pointer.size());
    bool ok = true;
    tokens.push_back(unescapeToken(pointer.substr(start, end - start), &ok));
    start = end + 1;
  }

  Json* node = root;
  std::string where;
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    const std::string& t = tokens[k];
    const std::string next = pointerAppend(where, t);
    if (node->is_object()) {
      auto it = node->find(t);
      if (it == node->end()) throw fail(next + " does not exist in the scene");
      node = &*it;
    } else if (node->is_array()) {
      const long long i = arrayIndex(t);
      if (i < 0 || static_cast<std::size_t>(i) >= node->size()) {
        throw fail(next + " does not exist in the scene (" + (where.empty() ? "/" : where) +
                   " has " + std::to_string(node->size()) + " elements)");
      }
      node = &(*node)[static_cast<std::size_t>(i)];
    } else {
      throw fail((where.empty() ? "/" : where) + " is not an object or an array");
    }
    where = next;
  }

  Json parsed;
  try {
    parsed = Json::parse(value, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const Json::out_of_range&) {  // 1e999: not a string, a number no double holds
    throw fail("the number " + shorten(value) + " is out of the range of a double");
  } catch (const Json::exception&) {
    parsed = value;  // a bare string such as auto
  }

  const std::string& last = tokens.back();
  if (node->is_object()) {
    (*node)[last] = std::move(parsed);
  } else if (node->is_array()) {
    if (last == "-") {
      node->push_back(std::move(parsed));
      return pointerAppend(where, node->size() - 1);
    }
    const long long i = arrayIndex(last);
    if (i < 0 || static_cast<std::size_t>(i) >= node->size()) {
      throw fail(pointer + " does not exist in the scene (" + (where.empty() ? "/" : where) +
                 " has " + std::to_string(node->size()) + " elements)");
    }
    (*node)[static_cast<std::size_t>(i)] = std::move(parsed);
  } else {
    throw fail((where.empty() ? "/" : where) + " is not an object or an array");
  }
  return pointer;
}

}  // namespace samara::io
