#pragma once
// Internal helpers of the command line: usage errors and option scanning.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace samara::cli {

/// A command-line mistake: exit code 2.
struct UsageError {
  std::string message;
};

/// The options of one command: `--name VALUE`, `--name=VALUE`, flags, `-h`/`--help`, `-o`
/// (read as `--out`), `--` (the rest is positional), positional arguments collected. Usage mistakes
/// throw UsageError naming the command ("run: --dt needs a value").
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
      } else if (a == "-o") {
        name_ = "--out";
        spelled_ = a;
        return true;
      } else {
        name_ = a;
        const std::size_t eq = a.find('=');
        if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
          name_ = a.substr(0, eq);
          inline_ = a.substr(eq + 1);
        }
        spelled_ = name_;
        return true;
      }
    }
    return false;
  }
  /// The current option's long name (`--out` also for `-o`).
  const std::string& name() const { return name_; }
  /// The current option's value (inline or the next argument).
  std::string value() {
    if (inline_) return *inline_;
    if (i_ + 1 >= args_.size()) throw UsageError{command_ + ": " + spelled_ + " needs a value"};
    return args_[++i_];
  }
  /// The current option is a flag: an inline value is a mistake.
  void flag() const {
    if (inline_) throw UsageError{command_ + ": " + spelled_ + " takes no value"};
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
    throw UsageError{command_ + ": unknown option " + spelled_ + " (see samara help " + command_ +
                     ")"};
  }
  bool help() const { return help_; }
  /// The positional arguments so far.
  const std::vector<std::string>& positional() const { return positional_; }
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
  std::string spelled_;  ///< the option as given (`-o` for name_ `--out`), for messages
  std::optional<std::string> inline_;
  std::vector<std::string> positional_;
  bool done_ = false;
  bool help_ = false;
};

/// `v` as a decimal number, all of it: an optional sign, digits with an optional fraction
/// and exponent (no spaces, no hexadecimal: numbers as the scene files write them; "inf"
/// and "nan" read as such, for the callers to refuse). nullopt if it is not one, or out of
/// the range of a double.
std::optional<double> parseNumber(const std::string& v);
/// `v` as a decimal integer, all of it (an optional sign, digits); nullopt if it is not
/// one or out of the range of long long.
std::optional<long long> parseInteger(const std::string& v);

/// A finite number of seconds > 0 (≥ 0 with allowZero) for `flag` of `command`; throws
/// "COMMAND: FLAG needs a finite number > 0 of seconds (got "V")".
double parseSeconds(const std::string& command, const std::string& flag, const std::string& v,
                    bool allowZero);
/// An integer ≥ 1; throws "COMMAND: FLAG needs an integer >= 1 (got "V")".
long long parseCount(const std::string& command, const std::string& flag, const std::string& v);

/// The most simulation threads --threads takes.
constexpr int kMaxSimThreads = 1024;
/// `--threads N`: a whole decimal number in [1, kMaxSimThreads]; throws "COMMAND: --threads
/// needs a whole number from 1 to 1024 (got "V")". Without it run, export and bench step on
/// one thread (scripts and sweeps run several processes at once, and a small scene steps
/// slower on two threads than on one); the results are the same bits for any N.
int parseThreads(const std::string& command, const std::string& v);

}  // namespace samara::cli
