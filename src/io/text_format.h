#pragma once
// The one place for text made from numbers, shared by the command line, the exporters and
// the viewer:
//   roundTripText / appendNumber   %.17g: reads back as the same double (CSV, chan, sweep)
//   formatNumber (io/error.h)      the shortest text that reads back as the same double
//                                  (messages: "t = 0.35 s")
//   printfText / vecText / strf    printf-style, for tables and summaries ("%.4g")
//   clockText                      durations as m:ss or h:mm:ss (progress, ETA)
//   shellQuote                     one word for a POSIX shell
// gcc 12 has no std::format: everything is printf-style.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "io/error.h"  // formatNumber

namespace samara::io {

/// printf into a std::string.
__attribute__((format(printf, 1, 2))) inline std::string strf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string s(static_cast<std::size_t>(std::max(n, 0)) + 1, '\0');
  std::vsnprintf(s.data(), s.size(), format, args);
  va_end(args);
  s.resize(static_cast<std::size_t>(std::max(n, 0)));
  return s;
}

/// One number through a printf format with one double conversion ("%.6g", " %12.5g").
inline std::string printfText(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

/// "(x, y, z)" with each component through `format`.
template <class Vector>
std::string vecText(const Vector& v, const char* format = "%.6g") {
  return "(" + printfText(format, v[0]) + ", " + printfText(format, v[1]) + ", " +
         printfText(format, v[2]) + ")";
}

/// x as %.17g, as is (-0 stays "-0").
inline std::string roundTripText(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// Appends x through `format` (default %.17g) to *s, with -0 written as 0 (files compare
/// byte for byte whatever the sign of a zero).
inline void appendNumber(std::string* s, double x, const char* format = "%.17g") {
  if (x == 0.0) x = 0.0;
  char buf[40];
  const int n = std::snprintf(buf, sizeof buf, format, x);
  s->append(buf, static_cast<std::size_t>(n));
}

/// `s` as one word for a POSIX shell: unchanged when it holds only safe characters, else
/// single-quoted (a quote inside becomes '\'').
inline std::string shellQuote(const std::string& s) {
  const bool safe = !s.empty() && s.find_first_not_of(
                                      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                      "0123456789_-./=:,+@%") == std::string::npos;
  if (safe) return s;
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// A duration in seconds as "m:ss", or "h:mm:ss" from an hour on (negative → 0:00);
/// `withHours`: always "h:mm:ss".
inline std::string clockText(double seconds, bool withHours = false) {
  const long t = static_cast<long>(std::clamp(seconds, 0.0, 3.6e8) + 0.5);
  char buf[32];
  if (t >= 3600 || withHours) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  }
  return buf;
}

}  // namespace samara::io
