#pragma once
// Internal helpers of the command line: usage errors, atomic output files, progress.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

/// Shows progress with an ETA on stderr for runs that take more than a second (when
/// `enabled`: stderr is a terminal). Clears its line when destroyed.
class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  Progress(bool enabled, double duration)
      : enabled_(enabled), duration_(duration), start_(Clock::now()), last_(start_) {}
  /// `t`: simulated time reached (s), `steps`: steps taken.
  void update(double t, long long steps) {
    if (!enabled_) return;
    const Clock::time_point now = Clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(200)) {
      return;
    }
    last_ = now;
    shown_ = true;
    const double wall = std::chrono::duration<double>(now - start_).count();
    const double fraction = duration_ > 0.0 ? std::min(1.0, t / duration_) : 1.0;
    const double eta = fraction > 0.0 ? wall * (1.0 - fraction) / fraction : 0.0;
    std::fprintf(stderr, "\rsamara: t = %.3f / %g s  %3.0f%%  %.0f steps/s  ETA %s ", t,
                 duration_, 100.0 * fraction, static_cast<double>(steps) / wall,
                 clockText(eta).c_str());
    std::fflush(stderr);
  }
  ~Progress() {
    if (shown_) {
      std::fputs("\r\033[K", stderr);
      std::fflush(stderr);
    }
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  /// "m:ss" or "h:mm:ss".
  static std::string clockText(double seconds) {
    const long s = static_cast<long>(std::min(seconds, 3.6e8) + 0.5);
    char buf[32];
    if (s >= 3600) {
      std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    } else {
      std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    }
    return buf;
  }

  bool enabled_;
  double duration_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool shown_ = false;
};

}  // namespace samara::cli
