// The `samara` command line: the main help, `help COMMAND` and the dispatch to the commands
// (cli/commands/, cli/sweep/).
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/commands/command_list.h"
#include "cli/sweep/sweep.h"
#include "cli/terminal.h"
#include "io/error.h"

#ifndef SAMARA_VERSION
#define SAMARA_VERSION "unknown"
#endif

namespace samara::cli {
namespace {

const char* const kMainHelp =
    "samara " SAMARA_VERSION
    " - light bodies in air and water (Going with the Flow, Soliman et al. 2024)\n"
    "\n"
    "usage: samara <command> [options]\n"
    "\n"
    "commands:\n"
    "  run SCENE        simulate a scene headless; CSV on stdout, --out FILE or --summary\n"
    "  inspect SCENE    mass, volume, area, delta and the 6x6 inertia, added-mass and\n"
    "                   Kirchhoff tensors of every body\n"
    "  view [SCENE]     the interactive viewer (the default with no command)\n"
    "  bench [SCENE...] headless throughput per scene (default: assets/scenes/*.json)\n"
    "  forces SCENE --states FILE\n"
    "                   the fluid force and torque of each body's model at given states\n"
    "  export SCENE --format glb|obj|csv|chan|pc2 --out PATH\n"
    "                   the baked motion for Blender, Houdini, Maya (glTF, OBJ sequence,\n"
    "                   CSV, Houdini .chan and .pc2) sampled at --fps F\n"
    "  sweep SCENE --vary PATH=V1,V2,... --out DIR\n"
    "                   one run per combination of values, on all cores or emitted for\n"
    "                   GNU parallel or Slurm; DIR/summary.csv of fall speed, spin, pattern\n"
    "  sweep-job JOB    one job of a sweep (each line of DIR/jobs.txt runs one)\n"
    "  cfd SCENE --out DIR\n"
    "                   the 2D Navier-Stokes reference: a body in a simulated flow;\n"
    "                   trajectory, forces and vorticity snapshots in DIR\n"
    "  help COMMAND     the options of a command\n"
    "\n"
    "options:\n"
    "  -h, --help       this help\n"
    "  -V, --version    print the version: samara VERSION\n"
    "\n"
    "Every command that writes files takes -o PATH (= --out PATH) and makes missing\n"
    "folders (removed again, if still empty, when the command fails); --out - writes a\n"
    "text output (run, forces, export csv or single-body chan) to stdout.\n"
    "\n"
    "exit codes: 0 success, 1 bad input (scene, mesh or output file), 2 usage error,\n"
    "            3 simulation failure, 130 interrupted\n";

const char* helpFor(const std::string& command) {
  if (command == "bench") return kBenchHelp;
  if (command == "run") return kRunHelp;
  if (command == "inspect") return kInspectHelp;
  if (command == "forces") return kForcesHelp;
  if (command == "export") return kExportHelp;
  if (command == "sweep") return kSweepHelp;
  if (command == "cfd") return kCfdHelp;
  if (command == "sweep-job") return kSweepJobHelp;
  if (command == "view") return kViewHelp;
  if (command == "help") return kMainHelp;
  return nullptr;
}

}  // namespace

namespace {

/// The digits of `v` after an optional '+' (from_chars takes '-' but not '+').
std::string_view withoutPlus(const std::string& v) {
  std::string_view s(v);
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
  return s;
}

}  // namespace

std::optional<double> parseNumber(const std::string& v) {
  const std::string_view s = withoutPlus(v);
  double x = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return x;
}

std::optional<long long> parseInteger(const std::string& v) {
  const std::string_view s = withoutPlus(v);
  long long n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return n;
}

double parseSeconds(const std::string& command, const std::string& flag, const std::string& v,
                    bool allowZero) {
  const double x = parseNumber(v).value_or(std::nan(""));
  if (!std::isfinite(x) || (allowZero ? x < 0.0 : x <= 0.0)) {
    throw UsageError{command + ": " + flag + " needs a finite number " +
                     (allowZero ? ">= 0" : "> 0") + " of seconds (got \"" + v + "\")"};
  }
  return x;
}

long long parseCount(const std::string& command, const std::string& flag, const std::string& v) {
  const long long n = parseInteger(v).value_or(0);
  if (n < 1) {
    throw UsageError{command + ": " + flag + " needs an integer >= 1 (got \"" + v + "\")"};
  }
  return n;
}

int parseThreads(const std::string& command, const std::string& v) {
  const long long n = parseInteger(v).value_or(0);  // decimal, all of it ("0x4", " 2": no)
  if (n < 1 || n > kMaxSimThreads) {
    throw UsageError{command + ": --threads needs a whole number from 1 to " +
                     std::to_string(kMaxSimThreads) + " (got \"" + v + "\")"};
  }
  return static_cast<int>(n);
}

int runCli(int argc, char** argv, std::ostream& out, std::ostream& err, const ViewHandler& view) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  try {
    if (args.empty()) {
      if (view) return viewCommand({}, out, err, view);
      err << kMainHelp;
      return kExitUsage;
    }
    const std::string command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "-h" || command == "--help") {
      out << kMainHelp;
      return kExitOk;
    }
    if (command == "--version" || command == "-V") {
      out << "samara " << SAMARA_VERSION << "\n";
      return kExitOk;
    }
    if (command == "help") {
      if (rest.empty()) {
        out << kMainHelp;
        return kExitOk;
      }
      const char* text = helpFor(rest[0]);
      if (text == nullptr) throw UsageError{"help: unknown command \"" + rest[0] + "\""};
      out << text;
      if (rest[0] == "view" && !view) out << kNoViewerNote;
      return kExitOk;
    }
    if (command == "view") return viewCommand(rest, out, err, view);
    if (command == "bench") return benchCommand(rest, out, err);
    if (command == "forces") return forcesCommand(rest, out);
    if (command == "export") return exportCommand(rest, out, err);
    if (command == "sweep") return sweepCommand(rest, out, err);
    if (command == "sweep-job") return sweepJobCommand(rest, out, err);
    if (command == "run") return runCommand(rest, out, err);
    if (command == "cfd") return cfdCommand(rest, out, err);
    if (command == "inspect") return inspectCommand(rest, out);
    if (!command.empty() && command[0] == '-') {
      throw UsageError{"unknown option " + command + " (see samara --help)"};
    }
    throw UsageError{"unknown command \"" + command + "\" (see samara --help)"};
  } catch (const UsageError& e) {
    err << "samara: " << io::printable(e.message) << "\n";
    return kExitUsage;
  } catch (const io::Error& e) {
    err << "samara: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    err << "samara: out of memory\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << "samara: internal error: " << io::printable(e.what()) << "\n";
    return kExitBadInput;
  }
}

}  // namespace samara::cli
