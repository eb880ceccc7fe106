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
  return s + message;
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
