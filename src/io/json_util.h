#pragma once
// JSON helpers of io/ (internal: nlohmann stays out of the public headers): parsing with
// comments, typed getters that name the JSON pointer of a bad value, unknown-key checks,
// and `--set PATH=VALUE` edits.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "geometry/types.h"
#include "io/error.h"

namespace samara::io {

using Json = nlohmann::json;

/// Parses JSON text that may contain // and /* */ comments. Throws Error naming `path`,
/// line and column for a syntax error, and the field for a duplicate key or nesting
/// deeper than 64 levels.
Json parseJson(const std::string& text, const std::string& path);

/// Reads a whole file. Throws Error if it does not exist, is not a regular file, cannot
/// be read, or is larger than `maxBytes`.
std::string readFile(const std::string& path, std::uintmax_t maxBytes);
/// Checks that `path` is a regular file of at most maxBytes bytes and returns its size;
/// throws Error naming it ("file not found", "not a regular file", "file too large").
std::uintmax_t checkReadableFile(const std::string& path, std::uintmax_t maxBytes);

/// `ptr` + "/" + escaped `key` (RFC 6901: "~" → "~0", "/" → "~1").
std::string pointerAppend(const std::string& ptr, const std::string& key);
/// `ptr` + "/" + index.
std::string pointerAppend(const std::string& ptr, std::size_t index);

/// A JSON value together with where it is (file and JSON pointer), for typed reads whose
/// errors name the field. Holds references: keep the document alive.
class Node {
 public:
  Node(const Json& json, const std::string& file, std::string pointer = "")
      : json_(&json), file_(&file), pointer_(std::move(pointer)) {}

  const Json& json() const { return *json_; }
  const std::string& file() const { return *file_; }
  const std::string& pointer() const { return pointer_; }

  /// An Error at this field.
  Error error(const std::string& message) const;

  // --- objects ---------------------------------------------------------------------------
  /// Throws unless this is an object whose keys are all in `allowed` (the message names the
  /// unknown key, suggests a close match and lists the allowed keys).
  void expectObject(std::initializer_list<const char*> allowed) const;
  void expectObject(const std::vector<std::string>& allowed) const;
  bool has(const char* key) const;
  /// The member `key` (throws "missing required field" if absent).
  Node at(const char* key) const;

  // --- arrays ----------------------------------------------------------------------------
  /// Throws unless this is an array; with `size` ≥ 0, of exactly that many elements.
  void expectArray(int size = -1) const;
  std::size_t size() const { return json_->size(); }
  Node item(std::size_t index) const;

  // --- scalars ---------------------------------------------------------------------------
  /// A finite number.
  double number() const;
  /// A finite number with lo ≤ x (or lo < x when `openLo`).
  double numberAtLeast(double lo, bool openLo = false) const;
  /// A finite number in [lo, hi] (or (lo, hi] when `openLo`).
  double numberIn(double lo, double hi, bool openLo = false) const;
  /// A finite number > 0.
  double positive() const { return numberAtLeast(0.0, true); }
  /// A finite number ≥ 0.
  double nonNegative() const { return numberAtLeast(0.0, false); }
  /// An integer in [lo, hi] (3.0 is accepted as 3).
  int integer(int lo, int hi) const;
  bool boolean() const;
  std::string string() const;
  /// A string that must be one of `allowed` (else an error listing them).
  std::string choice(std::initializer_list<const char*> allowed) const;
  /// An array of three finite numbers.
  Vec3 vec3() const;

  /// The JSON type of this value in words ("a string", "an array", …) plus, for scalars,
  /// the value: used in "expected X, got Y" messages.
  std::string describe() const;

 private:
  const Json* json_;
  const std::string* file_;
  std::string pointer_;
};

/// Converts a `--set` path to a JSON pointer: "/fluid/density" stays, "fluid.density" and
/// "bodies.0.delta" become "/fluid/density" and "/bodies/0/delta". Throws Error (with an
/// empty path) for an empty path or a malformed pointer escape.
std::string setPathToPointer(const std::string& path);

/// Applies `--set PATH=VALUE` to `root`: VALUE is JSON text, or a bare string if it does not
/// parse as JSON ("auto"). The parent of PATH must exist (an object, whose key is created
/// or replaced; or an array, whose element must exist, or "-" to append). Returns the JSON
/// pointer of the edited value ("-" replaced by the new element's index). Throws Error
/// naming `file` and the option, also for text that is not valid UTF-8 and for a number
/// out of the range of a double (1e999).
std::string applySet(Json* root, const std::string& path, const std::string& value,
                     const std::string& file);

/// `s` with every byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string validUtf8(const std::string& s);

}  // namespace samara::io
