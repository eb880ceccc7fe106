#pragma once
// `samara sweep` (issue 7, parameter sweeps): expands the cartesian product of --vary value
// lists into one scene file per combination, writes a job list, and runs the jobs on all
// cores (in-process threads, each owning its World) or emits the list for GNU parallel or a
// Slurm array; `samara sweep-job JOB.json` runs one job; `samara sweep --collect DIR`
// gathers the results into DIR/summary.csv. Files of a sweep directory:
//
//   job_0001.json …        the scene of each combination (io::saveSceneAs: file paths
//                          rewritten to resolve from DIR)
//   jobs.txt               one shell command per job: `<samara> sweep-job DIR/job_0001.json`
//   sweep.json             the sweep: scene, --set edits, --vary paths and values per job
//   job_0001.result.json   a job's result, written atomically by the job
//   summary.csv            one row per job per body (see kSweepHelp)
//   run_parallel.sh        with --emit parallel;  sweep.slurm  with --emit slurm
#include <ostream>
#include <string>
#include <vector>

namespace samara::cli {

extern const char* const kSweepHelp;
extern const char* const kSweepJobHelp;

/// `samara sweep …`; throws UsageError or io::Error like the other commands. Returns
/// kExitSimFailed when a job failed (its result and summary row say why) and
/// kExitInterrupted on SIGINT/SIGTERM.
int sweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `samara sweep-job JOB.json`: runs one job scene and writes JOB.result.json atomically
/// (also when the step fails: exit 3, or the scene cannot be used: exit 1).
int sweepJobCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Splits a --vary value list at its top-level commas: commas inside [...], {...} and
/// "..." (with backslash escapes) do not split; items are trimmed of blanks.
/// `[0,0,0],[1,0,0]` → {`[0,0,0]`, `[1,0,0]`}. Throws UsageError (message without the
/// option) for an empty item, an unbalanced bracket or an unterminated string; "" gives
/// no items.
std::vector<std::string> splitValueList(const std::string& list);

}  // namespace samara::cli
