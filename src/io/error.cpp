#include "io/error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace samara::io {

Error::Error(std::string path, std::string message)
    : Error(std::move(path), std::string(), 0, 0, std::move(message)) {}

Error::Error(std::string path, std::string field, int line, int column, std::string message)
    : std::runtime_error(format(path, field, line, column, message)),
      path_(std::move(path)),
      field_(std::move(field)),
      line_(line),
      column_(column),
      message_(std::move(message)) {}

Error Error::atField(std::string path, std::string field, std::string message) {
  if (field.empty()) field = "/";  // the root of the document
  return Error(std::move(path), std::move(field), 0, 0, std::move(message));
}

Error Error::atLine(std::string path, int line, std::string message, int column) {
  return Error(std::move(path), std::string(), line, column, std::move(message));
}

Error Error::withNote(const std::string& note) const {
  return Error(path_, field_, line_, column_, message_ + note);
}

std::string Error::format(const std::string& path, const std::string& field, int line, int column,
                          const std::string& message) {
  std::string s = path;
  if (line > 0) {
    s += ":" + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
  }
  if (!field.empty()) s += (s.empty() ? "" : ": ") + field;
  if (!s.empty()) s += ": ";
  return printable(s + message);
}

namespace {

/// The length of the valid UTF-8 sequence at s[i] (1-4) and its code point; 0 if invalid.
int utf8Sequence(const std::string& s, std::size_t i, char32_t* code) {
  const auto byte = [&s](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  int n = 0;
  char32_t c = 0;
  char32_t min = 0;
  if (b0 < 0x80) {
    *code = b0;
    return 1;
  }
  if ((b0 & 0xE0) == 0xC0) {
    n = 2, c = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3, c = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4, c = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + static_cast<std::size_t>(n) > s.size()) return 0;
  for (int k = 1; k < n; ++k) {
    const unsigned char b = byte(i + static_cast<std::size_t>(k));
    if ((b & 0xC0) != 0x80) return 0;
    c = (c << 6) | (b & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  *code = c;
  return n;
}

}  // namespace

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = 0;
    const int n = utf8Sequence(text, i, &c);
    if (n == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[i]));
      out += buf;
      ++i;
      continue;
    }
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    } else if ((c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
               (c >= 0x2066 && c <= 0x2069)) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out.append(text, i, static_cast<std::size_t>(n));
    }
    i += static_cast<std::size_t>(n);
  }
  return out;
}

bool isValidUtf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = 0;
    const int n = utf8Sequence(text, i, &c);
    if (n == 0) return false;
    i += static_cast<std::size_t>(n);
  }
  return true;
}

bool hasControlCharacter(const std::string& text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
  }
  return false;
}

std::string formatNumber(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[40];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

}  // namespace samara::io
