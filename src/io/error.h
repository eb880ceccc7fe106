#pragma once
// The one exception type of io/: a message that names the file and the field (a JSON
// pointer such as "/bodies/0/mass/density") or the line it is about.
#include <stdexcept>
#include <string>

namespace samara::io {

/// Bad input: a scene, mesh or output file that cannot be used. `what()` is the full
/// message (made printable(): raw bytes and escape sequences of the input are escaped), e.g.
/// `scenes/x.json: /bodies/0/mass/density: must be > 0 (got -3)` or `meshes/x.obj:123: face 45 is
/// degenerate (zero area)`.
class Error : public std::runtime_error {
 public:
  /// A message about a whole file (or none, when `path` is empty).
  Error(std::string path, std::string message);
  /// A message about one field of a JSON file; `field` is a JSON pointer ("" = the root).
  static Error atField(std::string path, std::string field, std::string message);
  /// A message about a line (1-based; 0 = unknown) and optionally a column (1-based).
  static Error atLine(std::string path, int line, std::string message, int column = 0);

  const std::string& path() const { return path_; }
  const std::string& field() const { return field_; }  ///< JSON pointer, "" if none
  int line() const { return line_; }                   ///< 1-based, 0 if none
  int column() const { return column_; }               ///< 1-based, 0 if none
  /// The message without the location prefix.
  const std::string& message() const { return message_; }

  /// Same location, message with `note` appended (e.g. " (from --set a=b)").
  Error withNote(const std::string& note) const;

 private:
  Error(std::string path, std::string field, int line, int column, std::string message);
  static std::string format(const std::string& path, const std::string& field, int line, int column,
                            const std::string& message);

  std::string path_;
  std::string field_;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

/// `text` safe to print on a terminal, on one line: every control character (C0, DEL, C1),
/// byte that is not part of valid UTF-8, and bidirectional override (U+202A-U+202E,
/// U+2066-U+2069) is written as an escape ("\x1b", "\n", "\xff", "\u202e"); anything
/// else, including valid UTF-8 such as "ü", stays. A backslash stays as it is, so applying
/// it twice gives the same text. io::Error's what() and the CLI's messages go through it.
std::string printable(const std::string& text);

/// True when `text` is valid UTF-8 (no overlong forms, surrogates or code points past
/// U+10FFFF).
bool isValidUtf8(const std::string& text);

/// True when `text` holds a control character (bytes 0x00-0x1f and 0x7f).
bool hasControlCharacter(const std::string& text);

/// Shortest decimal text of x that reads back as the same double ("-3", "0.1", "inf").
std::string formatNumber(double x);

}  // namespace samara::io
