// The files of a sweep directory: job results, sweep.json, summary.csv and the scripts
// for GNU parallel and Slurm.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/sweep/sweep_internal.h"
#include "io/atomic_file.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/text_format.h"

namespace samara::cli::sweep {

namespace {

using Json = io::Json;
using OJson = nlohmann::ordered_json;

constexpr std::uintmax_t kMaxSweepFileBytes = 1ull << 30;
constexpr std::uintmax_t kMaxResultBytes = 64ull << 20;

void writeFile(const fs::path& path, const std::string& text) {
  io::writeFileAtomically(path.string(), text);
}

}  // namespace

std::string jobName(long long job, int width) { return io::strf("job_%0*lld", width, job); }

std::string valuesText(const std::vector<std::string>& paths,
                       const std::vector<std::string>& values) {
  std::string s;
  for (std::size_t k = 0; k < paths.size() && k < values.size(); ++k) {
    if (k > 0) s += ", ";
    s += paths[k] + "=" + values[k];
  }
  return s;
}

// --- results -------------------------------------------------------------------------------

int exitCodeOf(const SceneRunStats& r) {
  switch (r.status) {
    case SceneRunStats::Status::kOk:
      return kExitOk;
    case SceneRunStats::Status::kFailed:
      return kExitSimFailed;
    case SceneRunStats::Status::kBadInput:
      return kExitBadInput;
    case SceneRunStats::Status::kInterrupted:
      return kExitInterrupted;
  }
  return kExitBadInput;
}

/// JOB.json → JOB.result.json.
fs::path resultPathFor(const fs::path& scene) {
  fs::path p = scene;
  if (p.extension() == ".json") p.replace_extension();
  p += ".result.json";
  return p;
}

void writeResult(const fs::path& path, const std::string& sceneName, const SceneRunStats& r) {
  OJson doc;
  doc["scene"] = io::printable(sceneName);  // JSON text is UTF-8; a file name need not be
  doc["status"] = r.status == SceneRunStats::Status::kOk ? "ok" : "failed";
  doc["message"] = io::printable(r.message);
  doc["exit_code"] = exitCodeOf(r);
  doc["duration"] = r.duration;
  doc["steps"] = r.steps;
  doc["wall_seconds"] = r.wallSeconds;
  OJson bodies = OJson::array();
  for (const BodyRunStats& b : r.bodies) {
    OJson j;
    j["name"] = b.name;
    if (r.status == SceneRunStats::Status::kOk) {
      j["fall_speed"] = b.fallSpeed;
      j["spin_rate"] = b.spinRate;
      j["final_com"] = {b.finalCom.x(), b.finalCom.y(), b.finalCom.z()};
      j["pattern"] = b.pattern;
      j["pattern_reason"] = b.patternReason;
    }
    bodies.push_back(std::move(j));
  }
  doc["bodies"] = std::move(bodies);
  writeFile(path, doc.dump(2) + "\n");
}

// --- the sweep file and the summary --------------------------------------------------------

struct JobEntry {
  long long job = 0;
  std::string name;  ///< job_0001
  std::vector<std::string> values;
  std::vector<std::string> bodies;
};

struct SweepFile {
  std::vector<std::string> paths;  ///< the --vary paths
  std::vector<JobEntry> jobs;
};

SweepFile readSweepFile(const fs::path& dir) {
  const std::string path = (dir / "sweep.json").string();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw io::Error(dir.string(), "not a directory");
  if (!fs::exists(path, ec)) {
    throw io::Error(path, "not found (is " + dir.string() + " a samara sweep directory?)");
  }
  const Json doc = io::parseJson(io::readFile(path, kMaxSweepFileBytes), path);
  SweepFile s;
  try {
    for (const Json& v : doc.at("vary")) s.paths.push_back(v.at("path").get<std::string>());
    for (const Json& j : doc.at("jobs")) {
      JobEntry e;
      e.job = j.at("job").get<long long>();
      e.name = j.at("name").get<std::string>();
      e.values = j.at("values").get<std::vector<std::string>>();
      e.bodies = j.at("bodies").get<std::vector<std::string>>();
      if (e.name.empty() || e.name.find('/') != std::string::npos ||
          e.values.size() != s.paths.size()) {
        throw io::Error(path, "job " + std::to_string(e.job) + " is malformed");
      }
      s.jobs.push_back(std::move(e));
    }
  } catch (const nlohmann::json::exception& e) {
    throw io::Error(path, std::string("not a samara sweep file: ") + e.what());
  }
  return s;
}

/// Reads every job's result and writes DIR/summary.csv.
CollectCounts collect(const fs::path& dir) {
  const SweepFile sweep = readSweepFile(dir);
  CollectCounts counts;
  std::string csv = "job";
  for (const std::string& p : sweep.paths) csv += "," + io::csvField(p);
  csv += ",body,fall_speed,spin_rate,pattern,status\n";
  for (const JobEntry& job : sweep.jobs) {
    std::string prefix = std::to_string(job.job);
    for (const std::string& v : job.values) prefix += "," + io::csvField(v);
    auto row = [&](const std::string& body, const std::string& numbers, const std::string& status) {
      csv += prefix + "," + io::csvField(body) + "," + numbers + "," + io::csvField(status) + "\n";
    };
    const fs::path resultPath = dir / (job.name + ".result.json");
    std::error_code ec;
    if (!fs::exists(resultPath, ec)) {
      ++counts.missing;
      for (const std::string& b : job.bodies) row(b, ",,", "missing");
      continue;
    }
    std::string status;
    std::vector<std::pair<std::string, std::string>> bodies;  // name, numbers
    try {
      const Json r =
          io::parseJson(io::readFile(resultPath.string(), kMaxResultBytes), resultPath.string());
      if (r.at("status").get<std::string>() == "ok") {
        status = "ok";
        for (const Json& b : r.at("bodies")) {
          bodies.emplace_back(b.at("name").get<std::string>(),
                              io::roundTripText(b.at("fall_speed").get<double>()) + "," +
                                  io::roundTripText(b.at("spin_rate").get<double>()) + "," +
                                  io::csvField(b.at("pattern").get<std::string>()));
        }
      } else {
        status = "failed: " + r.at("message").get<std::string>();
        for (const Json& b : r.at("bodies")) {
          bodies.emplace_back(b.at("name").get<std::string>(), ",,");
        }
      }
    } catch (const io::Error& e) {
      status = std::string("failed: unreadable result: ") + e.what();
      bodies.clear();
    } catch (const nlohmann::json::exception& e) {
      status = "failed: unreadable result: " + resultPath.string() + ": " + e.what();
      bodies.clear();
    }
    if (bodies.empty()) {
      for (const std::string& b : job.bodies) bodies.emplace_back(b, ",,");
    }
    if (status == "ok") {
      ++counts.ok;
    } else {
      ++counts.failed;
      counts.failures.push_back(job.name + " (" + valuesText(sweep.paths, job.values) +
                                "): " + status.substr(std::string("failed: ").size()));
    }
    for (const auto& [name, numbers] : bodies) row(name, numbers, status);
  }
  writeFile(dir / "summary.csv", csv);
  return counts;
}

/// "samara: sweep: job_0003 (…): …" for the first few failures.
void reportFailures(const CollectCounts& c, std::ostream& err) {
  constexpr std::size_t kShown = 10;
  for (std::size_t k = 0; k < c.failures.size() && k < kShown; ++k) {
    err << "samara: sweep: " << io::printable(c.failures[k]) << "\n";
  }
  if (c.failures.size() > kShown) {
    err << "samara: sweep: (and " << c.failures.size() - kShown << " more failed jobs)\n";
  }
}

// --- emitted scripts -----------------------------------------------------------------------

std::string parallelScript(const fs::path& dir, const std::string& scene, long long n,
                           const std::string& exe) {
  const std::string d = io::shellQuote(dir.string());
  std::string s = "#!/bin/sh\n";
  s += "# samara sweep: " + std::to_string(n) + " jobs of " + io::shellQuote(scene) + "\n";
  s += "# Runs every line of jobs.txt with GNU parallel (Debian: apt install parallel), one job\n"
       "# per core, then writes summary.csv. Arguments go to parallel, e.g.\n"
       "#   run_parallel.sh --jobs 8\n"
       "#   run_parallel.sh --sshloginfile nodes.txt   # also on other machines over ssh; they\n"
       "#                                              # need this directory and samara at the\n"
       "#                                              # same paths (a shared file system)\n"
       "#   run_parallel.sh --resume                   # skip the jobs parallel.log lists as run\n";
  s += "if ! command -v parallel >/dev/null 2>&1; then\n"
       "  echo \"run_parallel.sh: GNU parallel is not installed (Debian: apt install parallel)\" "
       ">&2\n"
       "  exit 127\n"
       "fi\n";
  s += "parallel --joblog " + io::shellQuote((dir / "parallel.log").string()) + " \"$@\" < " +
       io::shellQuote((dir / "jobs.txt").string()) + "\n";
  s += exe + " sweep --collect " + d + "\n";
  return s;
}

std::string slurmScript(const fs::path& dir, const std::string& scene, long long n,
                        const std::string& exe) {
  const std::string d = dir.string();
  std::string s = "#!/bin/bash\n";
  s += "#SBATCH --job-name=samara-sweep\n";
  s += "#SBATCH --array=1-" + std::to_string(n) + "\n";
  s += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  if (d.find_first_of(" \t\n%") == std::string::npos) {
    s += "#SBATCH --output=" + d + "/slurm-%A_%a.out\n";
  }
  s += "# samara sweep: " + std::to_string(n) + " jobs of " + io::shellQuote(scene) + "\n";
  s += "# Submit with `sbatch " + io::shellQuote((dir / "sweep.slurm").string()) +
       "`; task i runs line i of jobs.txt.\n"
       "# Add --array=1-" +
       std::to_string(n) +
       "%50 to the sbatch command to run at most 50 tasks at once; a site's\n"
       "# MaxArraySize (default 1001) may need the range split over several submissions.\n"
       "# When every task has finished:\n"
       "#   " +
       exe + " sweep --collect " + io::shellQuote(d) +
       "\n"
       "# or queue it: sbatch --dependency=afterany:JOBID --wrap \"" +
       exe + " sweep --collect " + io::shellQuote(d) + "\"\n";
  s += "set -eu\n";
  s += "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" " + io::shellQuote((dir / "jobs.txt").string()) +
       ")\n";
  s += "eval \"$line\"\n";
  return s;
}

}  // namespace samara::cli::sweep
