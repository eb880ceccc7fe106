#pragma once
// Small text helpers shared by the command line and the viewer: shell words for the
// command lines they print or write, and clock-style durations for progress displays.
#include <algorithm>
#include <cstdio>
#include <string>

namespace samara::io {

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

/// A duration in seconds as "m:ss", or "h:mm:ss" from an hour on (negative → 0:00).
inline std::string clockText(double seconds) {
  const long t = static_cast<long>(std::clamp(seconds, 0.0, 3.6e8) + 0.5);
  char buf[32];
  if (t >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  }
  return buf;
}

}  // namespace samara::io
