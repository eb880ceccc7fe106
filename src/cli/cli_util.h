#pragma once
// Internal helpers of the command line: usage errors and atomic output files.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "io/error.h"

namespace samara::cli {

/// A command-line mistake: exit code 2.
struct UsageError {
  std::string message;
};

/// Writes to a temporary file beside `target` and renames it on commit(); removes the
/// temporary file if not committed, so a failed run leaves nothing half-written.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& target) : target_(target) {
    const std::filesystem::path t(target);
    if (t.filename().empty()) throw io::Error(target, "not a file name");
    std::error_code ec;
    if (std::filesystem::is_directory(t, ec)) throw io::Error(target, "is a directory");
    temp_ = (t.parent_path() / ("." + t.filename().string() + ".tmp." +
                                std::to_string(static_cast<long>(::getpid()))))
                .string();
    stream_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!stream_) {
      throw io::Error(target, "cannot write here (does the directory exist?)");
    }
  }
  ~AtomicFile() {
    if (committed_) return;
    stream_.close();
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return stream_; }

  void commit() {
    stream_.close();
    if (!stream_) throw io::Error(target_, "write error (disk full?)");
    std::error_code ec;
    std::filesystem::rename(temp_, target_, ec);
    if (ec) throw io::Error(target_, "cannot rename the temporary file: " + ec.message());
    committed_ = true;
  }

 private:
  std::string target_;
  std::string temp_;
  std::ofstream stream_;
  bool committed_ = false;
};

}  // namespace samara::cli
