#pragma once
// Internal pieces of `samara sweep` shared by its files: the options, the job names, the
// results, the sweep file, the summary and the emitted scripts.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/sweep/run_stats.h"
#include "io/scene.h"

namespace samara::cli::sweep {

namespace fs = std::filesystem;

constexpr long long kMaxJobs = 100'000;
constexpr long long kMaxThreads = 4096;

struct Vary {
  std::string path;
  std::vector<std::string> values;
};

enum class Emit { kNone, kParallel, kSlurm };

struct SweepOptions {
  std::string scene;
  std::vector<Vary> vary;
  std::string out;
  long long jobs = 0;  ///< 0: the number of cores
  Emit emit = Emit::kNone;
  std::optional<double> duration;
  io::SetList sets;
  std::string exe;
  std::string collect;  ///< the DIR of --collect
  bool help = false;
};

/// The options of `samara sweep` (checked: see kSweepHelp).
SweepOptions parseSweepOptions(const std::vector<std::string>& args);

/// "job_0001" (at least `width` digits).
std::string jobName(long long job, int width);
/// "fluid.density=1, fluid.wind=[1,0,0]".
std::string valuesText(const std::vector<std::string>& paths,
                       const std::vector<std::string>& values);

/// The exit code of a job's result (sweep-job's).
int exitCodeOf(const SceneRunStats& r);
/// JOB.json → JOB.result.json.
fs::path resultPathFor(const fs::path& scene);
/// Writes a job's result JSON atomically.
void writeResult(const fs::path& path, const std::string& sceneName, const SceneRunStats& r);

struct CollectCounts {
  long long ok = 0;
  long long failed = 0;
  long long missing = 0;
  std::vector<std::string> failures;  ///< "job_0003 (values): message", in job order
};

/// Reads every job's result and writes DIR/summary.csv.
CollectCounts collect(const fs::path& dir);
/// "samara: sweep: job_0003 (…): …" for the first few failures.
void reportFailures(const CollectCounts& c, std::ostream& err);

/// DIR/run_parallel.sh: GNU parallel over jobs.txt, then --collect.
std::string parallelScript(const fs::path& dir, const std::string& scene, long long n,
                           const std::string& exe);
/// DIR/sweep.slurm: an array job whose task i runs line i of jobs.txt.
std::string slurmScript(const fs::path& dir, const std::string& scene, long long n,
                        const std::string& exe);

}  // namespace samara::cli::sweep
