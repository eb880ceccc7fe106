#pragma once
// `samara export SCENE --format glb|obj|csv|chan|pc2 --out PATH` (issue 7): simulates the
// scene exactly as `samara run` does and writes the baked motion at --fps frames per
// second for offline renderers (see io/export.h for the formats).
#include <ostream>
#include <string>
#include <vector>

namespace samara::cli {

extern const char* const kExportHelp;

/// Runs the command; throws UsageError or io::Error like the other commands. Returns
/// kExitSimFailed when a step fails and kExitInterrupted on SIGINT/SIGTERM; in every
/// failure no output file is written (nor left half-written).
int exportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace samara::cli
