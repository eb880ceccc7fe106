#pragma once
// `samara forces SCENE --states STATES.csv [--out FILE]` (issue 6): the fluid wrench of
// each body's model at given states, for polar plots and cross-checks with other
// simulators.
#include <ostream>
#include <string>
#include <vector>

namespace samara::cli {

extern const char* const kForcesHelp;

/// Runs the command; throws UsageError or io::Error like the other commands.
int forcesCommand(const std::vector<std::string>& args, std::ostream& out);

}  // namespace samara::cli
