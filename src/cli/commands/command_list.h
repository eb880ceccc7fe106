#pragma once
// The commands of `samara` (one file each under cli/commands/ and cli/sweep/) and their
// help texts; cli.cpp dispatches to them. Each throws UsageError (exit 2) or io::Error
// (exit 1) and returns its exit code.
#include <ostream>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace samara::cli {

extern const char* const kRunHelp;
extern const char* const kInspectHelp;
extern const char* const kViewHelp;
/// Appended to kViewHelp when there is no viewer.
extern const char* const kNoViewerNote;
extern const char* const kBenchHelp;
extern const char* const kForcesHelp;
extern const char* const kExportHelp;
extern const char* const kCfdHelp;

/// `samara run SCENE [options]`: the CSV (stdout, -o FILE, or -o - for stdout), --summary,
/// --classify.
int runCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `samara inspect SCENE [--json] [--set PATH=VALUE]...`.
int inspectCommand(const std::vector<std::string>& args, std::ostream& out);
/// `samara bench [--json] [--duration S] [SCENE...]`.
int benchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `samara view [SCENE] [options]`: parses the options and calls `view`, or says that this
/// build has no viewer when `view` is empty.
int viewCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                const ViewHandler& view);
/// `samara forces SCENE --states STATES.csv [-o FILE|-]` (issue 6): the fluid wrench of
/// each body's model at given states.
int forcesCommand(const std::vector<std::string>& args, std::ostream& out);
/// `samara export SCENE --format glb|obj|csv|chan|pc2 --out PATH` (issue 7): the run's
/// motion at --fps frames per second; on any failure no output file is written (nor a
/// folder made for it left). `--out -`: csv, or chan of one body, on `out`.
int exportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `samara cfd SCENE --out DIR` (issue 19): the 2D Navier–Stokes reference run; its
/// trajectory, forces and vorticity snapshots in DIR, nothing written on failure.
int cfdCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace samara::cli
