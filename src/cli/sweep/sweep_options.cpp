// `samara sweep` options and help texts, and the --vary value lists.
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_util.h"
#include "cli/sweep/sweep.h"
#include "cli/sweep/sweep_internal.h"
#include "io/atomic_file.h"

namespace samara::cli {

const char* const kSweepHelp =
    "usage: samara sweep SCENE --vary PATH=V1,V2,... [--vary ...] --out DIR\n"
    "                    [--jobs N | --emit parallel | --emit slurm] [--duration S]\n"
    "                    [--set PATH=VALUE]... [--exe SAMARA]\n"
    "       samara sweep --collect DIR\n"
    "\n"
    "Runs SCENE once per combination of the --vary values (the cartesian product; the first\n"
    "--vary changes slowest) and summarises each run like `samara run --summary --classify`:\n"
    "per body the mean fall speed and spin rate over the last second and the falling pattern.\n"
    "\n"
    "It writes into DIR (created if needed; job numbers have at least 4 digits):\n"
    "  job_0001.json ...     each job's scene: SCENE with the --set edits, --duration and the\n"
    "                        job's values applied, saved as the viewer's \"Save scene as\"\n"
    "                        does (mesh and animation paths rewritten to resolve from DIR,\n"
    "                        seeds explicit): `samara run DIR/job_0001.json` repeats the job\n"
    "  jobs.txt              one shell command per job: SAMARA sweep-job DIR/job_0001.json\n"
    "  sweep.json            the scene, the edits, the --vary paths and each job's values\n"
    "  job_0001.result.json  each job's result (written by the job, atomically)\n"
    "  summary.csv           one row per job per body, with the header\n"
    "                          job,<one column per --vary PATH>,body,fall_speed,spin_rate,\n"
    "                          pattern,status\n"
    "                        fall_speed (m/s) and spin_rate (rad/s) as %.17g; status is ok,\n"
    "                        \"failed: <why>\" or missing (no result yet)\n"
    "\n"
    "options:\n"
    "  --vary PATH=V1,V2,... PATH as for --set; the values are JSON texts (or bare strings)\n"
    "                        separated by the commas outside brackets, braces and quotes:\n"
    "                        fluid.wind=[0,0,0],[1,0,0] is two values. Repeatable; at most\n"
    "                        100000 combinations\n"
    "  -o, --out DIR         the sweep directory (required; made with its missing parents)\n"
    "  --jobs N              jobs at once on this machine (default: the number of cores)\n"
    "  --emit parallel       write the files and DIR/run_parallel.sh instead of running:\n"
    "                        it runs jobs.txt with GNU parallel (Debian: parallel), then\n"
    "                        collects; its arguments go to parallel, e.g. --sshloginfile\n"
    "                        FILE for other machines (with DIR and SAMARA at the same paths)\n"
    "  --emit slurm          write the files and DIR/sweep.slurm instead of running: an\n"
    "                        array job (#SBATCH --array=1-N) whose task i runs line i of\n"
    "                        jobs.txt; `sbatch DIR/sweep.slurm`, then\n"
    "                        `samara sweep --collect DIR`\n"
    "  --duration S          simulated seconds of every job (sets sim.duration)\n"
    "  --set PATH=VALUE      as for run, applied before the --vary values. Repeatable.\n"
    "  --exe SAMARA          the samara command written into jobs.txt and the scripts, as\n"
    "                        shell text (default: the absolute path of this samara, or\n"
    "                        `samara` when not run from a samara executable)\n"
    "  --collect DIR         only (re)write DIR/summary.csv from the results there\n"
    "  -h, --help            this help\n"
    "\n"
    "Progress and an ETA are shown on stderr when it is a terminal.\n"
    "\n"
    "exit codes: 0 every job ok, 1 bad input (a job's scene, named with its values; a DIR\n"
    "that cannot be written), 2 usage error, 3 a job failed (or, with --collect, has no\n"
    "result yet), 130 interrupted (finished results are kept: `samara sweep --collect DIR`)\n";

const char* const kSweepJobHelp =
    "usage: samara sweep-job JOB.json\n"
    "\n"
    "Runs one job of a sweep (a line of DIR/jobs.txt runs this) exactly as `samara run` runs\n"
    "the scene and writes JOB.result.json atomically (JOB.json minus .json):\n"
    "  {\"scene\", \"status\": \"ok\" or \"failed\", \"message\", \"exit_code\", \"duration\",\n"
    "   \"steps\", \"wall_seconds\", \"bodies\": [{\"name\", \"fall_speed\", \"spin_rate\",\n"
    "   \"final_com\", \"pattern\", \"pattern_reason\"}]}\n"
    "fall_speed and spin_rate are the means over the last second (m/s, rad/s; the fall speed\n"
    "equals `samara run --summary`'s), final_com the world centre of mass at the end (m),\n"
    "pattern the classification of `samara run --classify`. A failed job also writes its\n"
    "result, with the reason.\n"
    "\n"
    "exit codes: 0 ok, 1 the scene cannot be used, 2 usage error, 3 a step failed,\n"
    "130 interrupted (no result written)\n";

std::vector<std::string> splitValueList(const std::string& list) {
  std::vector<std::string> items;
  std::vector<char> open;  // the brackets to close, innermost last
  bool inString = false;
  bool escaped = false;
  std::size_t start = 0;
  auto take = [&](std::size_t end) {
    std::size_t a = start;
    std::size_t b = end;
    while (a < b && (list[a] == ' ' || list[a] == '\t')) ++a;
    while (b > a && (list[b - 1] == ' ' || list[b - 1] == '\t')) --b;
    if (a == b) {
      throw UsageError{"empty value at character " + std::to_string(start + 1) + " of \"" + list +
                       "\""};
    }
    items.push_back(list.substr(a, b - a));
  };
  for (std::size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      open.push_back(c == '[' ? ']' : '}');
    } else if (c == ']' || c == '}') {
      if (open.empty() || open.back() != c) {
        throw UsageError{std::string("unbalanced '") + c + "' at character " +
                         std::to_string(i + 1) + " of \"" + list + "\""};
      }
      open.pop_back();
    } else if (c == ',' && open.empty()) {
      take(i);
      start = i + 1;
    }
  }
  if (inString) throw UsageError{"unterminated string in \"" + list + "\""};
  if (!open.empty()) {
    throw UsageError{std::string("missing '") + open.back() + "' in \"" + list + "\""};
  }
  if (list.find_first_not_of(" \t") == std::string::npos) return items;  // no values at all
  take(list.size());
  return items;
}

namespace sweep {

// --- options -------------------------------------------------------------------------------

SweepOptions parseSweepOptions(const std::vector<std::string>& args) {
  SweepOptions o;
  bool jobsGiven = false;
  bool collect = false;
  ArgScanner scan("sweep", args);
  while (scan.next()) {
    const std::string& name = scan.name();
    if (name == "--vary") {
      const std::string s = scan.value();
      const std::size_t at = s.find('=');
      if (at == std::string::npos || at == 0) {
        throw UsageError{"sweep: --vary needs PATH=V1,V2,... (got \"" + s + "\")"};
      }
      Vary v{s.substr(0, at), {}};
      try {
        v.values = splitValueList(s.substr(at + 1));
      } catch (const UsageError& e) {
        throw UsageError{"sweep: --vary " + v.path + ": " + e.message};
      }
      if (v.values.empty()) throw UsageError{"sweep: --vary " + v.path + " has no values"};
      for (const Vary& w : o.vary) {
        if (w.path == v.path) throw UsageError{"sweep: --vary " + v.path + " is given twice"};
      }
      o.vary.push_back(std::move(v));
    } else if (name == "--out") {
      o.out = scan.value();
      if (o.out.empty()) throw UsageError{"sweep: --out needs a directory"};
      if (io::isStandardOutput(o.out)) {
        throw UsageError{"sweep: --out - (stdout) does not apply: a sweep writes a directory"};
      }
    } else if (name == "--jobs") {
      const std::string v = scan.value();
      const std::optional<long long> n = parseInteger(v);  // decimal, all of it ("0x4": no)
      if (!n || *n < 1 || *n > kMaxThreads) {
        throw UsageError{"sweep: --jobs needs an integer in [1, " + std::to_string(kMaxThreads) +
                         "] (got \"" + v + "\")"};
      }
      o.jobs = *n;
      jobsGiven = true;
    } else if (name == "--emit") {
      const std::string v = scan.value();
      if (v == "parallel") {
        o.emit = Emit::kParallel;
      } else if (v == "slurm") {
        o.emit = Emit::kSlurm;
      } else {
        throw UsageError{"sweep: --emit takes parallel or slurm (got \"" + v + "\")"};
      }
    } else if (name == "--duration") {
      const std::string v = scan.value();
      const std::optional<double> x = parseNumber(v);
      if (!x || !std::isfinite(*x) || *x < 0.0) {
        throw UsageError{"sweep: --duration needs a finite number >= 0 of seconds (got \"" + v +
                         "\")"};
      }
      o.duration = *x;
    } else if (name == "--set") {
      o.sets.push_back(scan.setValue());
    } else if (name == "--exe") {
      o.exe = scan.value();
      if (o.exe.empty()) throw UsageError{"sweep: --exe needs a command"};
    } else if (name == "--collect") {
      scan.flag();
      collect = true;
    } else {
      scan.unknown();
    }
  }
  o.help = scan.help();
  if (o.help) return o;
  if (collect) {
    if (!o.vary.empty() || !o.out.empty() || jobsGiven || o.emit != Emit::kNone || o.duration ||
        !o.sets.empty() || !o.exe.empty()) {
      throw UsageError{"sweep: --collect DIR takes no other options"};
    }
    o.collect = scan.onePositional("DIR");
    if (o.collect.empty()) throw UsageError{"sweep: --collect needs a directory"};
    return o;
  }
  o.scene = scan.onePositional("SCENE");
  if (o.vary.empty()) throw UsageError{"sweep: needs at least one --vary PATH=V1,V2,..."};
  if (o.out.empty()) throw UsageError{"sweep: missing --out DIR"};
  if (jobsGiven && o.emit != Emit::kNone) {
    throw UsageError{"sweep: --jobs runs here, --emit runs nothing: give one of them"};
  }
  return o;
}

}  // namespace sweep
}  // namespace samara::cli
