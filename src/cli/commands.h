#pragma once
// The `samara` command line: run, inspect, view, bench, help, --help, --version.
#include <ostream>

namespace samara::cli {

/// Exit codes of `samara`.
enum ExitCode : int {
  kExitOk = 0,
  kExitBadInput = 1,       ///< a scene, mesh or output file that cannot be used
  kExitUsage = 2,          ///< unknown command or option, bad option value
  kExitSimFailed = 3,      ///< a step failed (Newton did not converge even with sub-steps)
  kExitInterrupted = 130,  ///< SIGINT / SIGTERM during a run
};

/// Runs the command line `argv[0..argc)` and returns the exit code. Results go to `out`,
/// messages ("samara: ...") to `err`. Progress is shown on stderr only when `err` is
/// std::cerr and stderr is a terminal. Never exits the process.
int runCli(int argc, char** argv, std::ostream& out, std::ostream& err);

/// Makes SIGINT and SIGTERM stop a running `run` cleanly (no half-written --out file).
/// Called by main(), not by tests.
void installInterruptHandler();

}  // namespace samara::cli
