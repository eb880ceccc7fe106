#pragma once
// CSV output of `samara run`: one row per body per sample, numbers as %.17g so that a
// value reads back as the same double and two runs compare byte for byte.
#include <ostream>
#include <string>

#include "core/world.h"

namespace samara::io {

/// The exact header line (without the newline).
extern const char* const kCsvHeader;

/// Writes rows to a stream; buffers and writes in blocks.
class CsvWriter {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}
  ~CsvWriter() { flush(); }
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void writeHeader();
  /// One row: time t (s), the body's name, and its diagnostics (world frame, SI).
  void writeRow(double t, const std::string& body, const core::BodyDiagnostics& d);
  /// Every body of `world` at its current time.
  void writeSample(const core::World& world);
  /// Passes buffered text to the stream.
  void flush();

 private:
  void number(double x);

  std::ostream& out_;
  std::string buffer_;
};

/// A CSV field: as is, or quoted (RFC 4180) if it contains a comma, quote or line break. A
/// text a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
/// return, and not a number such as "-3") is neutralised as OWASP recommends: prefixed with
/// a single quote and quoted ("=1+2" → "'=1+2" in quotes).
std::string csvField(const std::string& s);

/// True when csvField neutralises `s` (see above).
bool isFormulaLike(const std::string& s);

}  // namespace samara::io
