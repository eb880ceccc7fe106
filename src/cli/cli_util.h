#pragma once
// Internal helpers of the command line: usage errors, atomic output files, progress.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "io/error.h"
#include "io/export.h"
#include "io/text_format.h"

namespace samara::cli {

/// A command-line mistake: exit code 2.
struct UsageError {
  std::string message;
};

/// The options of one command: `--name VALUE`, `--name=VALUE`, flags, `-h`/`--help`, `--`
/// (the rest is positional), positional arguments collected. Usage mistakes throw
/// UsageError naming the command ("run: --dt needs a value").
class ArgScanner {
 public:
  ArgScanner(std::string command, const std::vector<std::string>& args)
      : command_(std::move(command)), args_(args) {}
  /// Moves to the next option (collecting positional arguments and -h on the way); false at
  /// the end.
  bool next() {
    while (++i_ < args_.size()) {
      const std::string& a = args_[i_];
      inline_.reset();
      if (done_ || a.size() < 2 || a[0] != '-') {
        positional_.push_back(a);
      } else if (a == "--") {
        done_ = true;
      } else if (a == "-h" || a == "--help") {
        help_ = true;
      } else {
        name_ = a;
        const std::size_t eq = a.find('=');
        if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
          name_ = a.substr(0, eq);
          inline_ = a.substr(eq + 1);
        }
        return true;
      }
    }
    return false;
  }
  const std::string& name() const { return name_; }
  /// The current option's value (inline or the next argument).
  std::string value() {
    if (inline_) return *inline_;
    if (i_ + 1 >= args_.size()) throw UsageError{command_ + ": " + name_ + " needs a value"};
    return args_[++i_];
  }
  /// The current option is a flag: an inline value is a mistake.
  void flag() const {
    if (inline_) throw UsageError{command_ + ": " + name_ + " takes no value"};
  }
  /// `--set PATH=VALUE` split at the first '='.
  std::pair<std::string, std::string> setValue() {
    const std::string s = value();
    const std::size_t at = s.find('=');
    if (at == std::string::npos || at == 0) {
      throw UsageError{command_ + ": --set needs PATH=VALUE (got \"" + s + "\")"};
    }
    return {s.substr(0, at), s.substr(at + 1)};
  }
  [[noreturn]] void unknown() const {
    throw UsageError{command_ + ": unknown option " + name_ + " (see samara help " + command_ +
                     ")"};
  }
  bool help() const { return help_; }
  /// The single positional argument (SCENE): missing or extra ones are usage errors.
  std::string onePositional(const char* what) const {
    if (positional_.empty()) {
      throw UsageError{command_ + ": missing " + what + " (see samara help " + command_ + ")"};
    }
    if (positional_.size() > 1) {
      throw UsageError{command_ + ": unexpected argument \"" + positional_[1] + "\""};
    }
    return positional_[0];
  }

 private:
  std::string command_;
  const std::vector<std::string>& args_;
  std::size_t i_ = static_cast<std::size_t>(-1);
  std::string name_;
  std::optional<std::string> inline_;
  std::vector<std::string> positional_;
  bool done_ = false;
  bool help_ = false;
};

/// Number of steps of length dt in duration, as `samara run` takes them (io::exportStepCount:
/// a multiple of dt up to round-off gives exactly that multiple, otherwise one more).
inline long long stepCount(double duration, double dt) { return io::exportStepCount(duration, dt); }

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
    std::fprintf(stderr, "\rsamara: t = %.3f / %g s  %3.0f%%  %.0f steps/s  ETA %s ", t, duration_,
                 100.0 * fraction, static_cast<double>(steps) / wall, io::clockText(eta).c_str());
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
  bool enabled_;
  double duration_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool shown_ = false;
};

}  // namespace samara::cli
