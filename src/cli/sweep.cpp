#include "cli/sweep.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/run_util.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/scene.h"
#include "io/scene_writer.h"
#include "io/text_format.h"

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
    "  --out DIR             the sweep directory (required)\n"
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

namespace {

namespace fs = std::filesystem;
using Json = io::Json;
using OJson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr long long kMaxJobs = 100'000;
constexpr long long kMaxThreads = 4096;
constexpr std::uintmax_t kMaxSweepFileBytes = 1ull << 30;
constexpr std::uintmax_t kMaxResultBytes = 64ull << 20;

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
    } else if (name == "--jobs") {
      const std::string v = scan.value();
      char* end = nullptr;
      const long long n = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 1 || n > kMaxThreads) {
        throw UsageError{"sweep: --jobs needs an integer in [1, " + std::to_string(kMaxThreads) +
                         "] (got \"" + v + "\")"};
      }
      o.jobs = n;
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
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !std::isfinite(x) || x < 0.0) {
        throw UsageError{"sweep: --duration needs a finite number >= 0 of seconds (got \"" + v +
                         "\")"};
      }
      o.duration = x;
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

// --- small helpers -------------------------------------------------------------------------

std::string num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// The absolute path of this executable when it is a `samara`, else plain "samara" (from
/// the PATH; e.g. when a test program calls runCli).
std::string defaultExe() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && self.filename() == "samara") return self.string();
  return "samara";
}

std::string jobName(long long job, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "job_%0*lld", width, job);
  return buf;
}

/// "fluid.density=1, fluid.wind=[1,0,0]".
std::string valuesText(const std::vector<std::string>& paths,
                       const std::vector<std::string>& values) {
  std::string s;
  for (std::size_t k = 0; k < paths.size() && k < values.size(); ++k) {
    if (k > 0) s += ", ";
    s += paths[k] + "=" + values[k];
  }
  return s;
}

void writeFile(const fs::path& path, const std::string& text) {
  AtomicFile file(path.string());
  file.stream() << text;
  file.commit();
}

/// Calls fn(i) for i in [0, n) on `threads` threads; `tick` runs on the calling thread about
/// every 200 ms. An exception from fn stops handing out further indices; the one of the
/// lowest index is rethrown (every lower index has run, so it is the first in job order).
void parallelFor(long long n, long long threads, const std::function<void(long long)>& fn,
                 const std::function<void()>& tick = {}) {
  std::atomic<long long> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable done;
  long long running = 0;
  long long errorIndex = n;
  std::exception_ptr error;
  auto worker = [&]() {
    while (!stop.load()) {
      const long long i = next.fetch_add(1);
      if (i >= n) break;
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (i < errorIndex) {
          errorIndex = i;
          error = std::current_exception();
        }
        stop = true;
      }
    }
    const std::lock_guard<std::mutex> lock(mutex);
    --running;
    done.notify_all();
  };
  std::vector<std::thread> pool;
  const long long count = std::max(1LL, std::min(threads, n));
  try {
    for (long long t = 0; t < count; ++t) {
      {
        const std::lock_guard<std::mutex> lock(mutex);
        ++running;
      }
      pool.emplace_back(worker);
    }
  } catch (...) {  // no more threads: the ones started finish the work
    const std::lock_guard<std::mutex> lock(mutex);
    --running;
    if (pool.empty()) stop = true;
  }
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (running > 0) {
      done.wait_for(lock, std::chrono::milliseconds(200), [&] { return running == 0; });
      if (tick) {
        lock.unlock();
        tick();
        lock.lock();
      }
    }
  }
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  if (pool.empty() && n > 0) throw io::Error("", "sweep: cannot start a thread");
}

/// "\rsamara: sweep 3/8 jobs ..." on stderr with an ETA, for sweeps longer than a second.
class SweepProgress {
 public:
  SweepProgress(bool enabled, long long total)
      : enabled_(enabled), total_(total), start_(Clock::now()) {}
  void update(long long done, long long failed) {
    if (!enabled_ || Clock::now() - start_ < std::chrono::seconds(1)) return;
    shown_ = true;
    const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
    const double fraction = static_cast<double>(done) / static_cast<double>(total_);
    const long eta =
        fraction > 0.0 ? static_cast<long>(wall * (1.0 - fraction) / fraction + 0.5) : 0L;
    std::fprintf(stderr,
                 "\rsamara: sweep %lld/%lld jobs  %3.0f%%  %lld failed  ETA %ld:%02ld:%02ld ", done,
                 total_, 100.0 * fraction, failed, eta / 3600, eta / 60 % 60, eta % 60);
    std::fflush(stderr);
  }
  ~SweepProgress() {
    if (shown_) {
      std::fputs("\r\033[K", stderr);
      std::fflush(stderr);
    }
  }
  SweepProgress(const SweepProgress&) = delete;
  SweepProgress& operator=(const SweepProgress&) = delete;

 private:
  bool enabled_;
  long long total_;
  Clock::time_point start_;
  bool shown_ = false;
};

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
  doc["scene"] = sceneName;
  doc["status"] = r.status == SceneRunStats::Status::kOk ? "ok" : "failed";
  doc["message"] = r.message;
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

struct CollectCounts {
  long long ok = 0;
  long long failed = 0;
  long long missing = 0;
  std::vector<std::string> failures;  ///< "job_0003 (values): message", in job order
};

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
                              num(b.at("fall_speed").get<double>()) + "," +
                                  num(b.at("spin_rate").get<double>()) + "," +
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
    err << "samara: sweep: " << c.failures[k] << "\n";
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
  s += "# samara sweep: " + std::to_string(n) + " jobs of " + scene + "\n";
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
  s += "# samara sweep: " + std::to_string(n) + " jobs of " + scene + "\n";
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

// --- the command ---------------------------------------------------------------------------

int collectCommand(const std::string& dirArg, std::ostream& out, std::ostream& err) {
  const fs::path dir = fs::absolute(dirArg).lexically_normal();
  const CollectCounts c = collect(dir);
  reportFailures(c, err);
  out << "summary: " << (dir / "summary.csv").string() << ": " << c.ok + c.failed + c.missing
      << " jobs, " << c.ok << " ok, " << c.failed << " failed, " << c.missing << " missing\n";
  return c.failed > 0 || c.missing > 0 ? kExitSimFailed : kExitOk;
}

}  // namespace

int sweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const SweepOptions o = parseSweepOptions(args);
  if (o.help) {
    out << kSweepHelp;
    return kExitOk;
  }
  if (!o.collect.empty()) return collectCommand(o.collect, out, err);

  // The combinations: job j (0-based) takes value index[k] of --vary k, the last fastest.
  long long n = 1;
  std::string sizes;
  for (const Vary& v : o.vary) {
    sizes += (sizes.empty() ? "" : " x ") + std::to_string(v.values.size());
    n *= static_cast<long long>(v.values.size());
    if (n > kMaxJobs) {
      throw UsageError{"sweep: more than " + std::to_string(kMaxJobs) + " combinations (" + sizes +
                       (&v == &o.vary.back() ? "" : " x ...") + "); vary fewer values"};
    }
  }
  std::vector<std::string> paths;
  for (const Vary& v : o.vary) paths.push_back(v.path);
  auto valuesOf = [&](long long j) {
    std::vector<std::string> values(o.vary.size());
    for (std::size_t k = o.vary.size(); k-- > 0;) {
      const auto m = static_cast<long long>(o.vary[k].values.size());
      values[k] = o.vary[k].values[static_cast<std::size_t>(j % m)];
      j /= m;
    }
    return values;
  };

  // The source scene with the --set edits and --duration: every job's starting point.
  const std::string sourceText = io::readFile(o.scene, io::SceneLimits{}.maxSceneBytes);
  const std::string sourceDir = fs::path(o.scene).parent_path().string();
  io::SetList baseSets = o.sets;
  if (o.duration) {
    Json edited = io::parseJson(sourceText, o.scene);
    for (const auto& [path, value] : o.sets) io::applySet(&edited, path, value, o.scene);
    const auto sim = edited.is_object() ? edited.find("sim") : edited.end();
    if (sim != edited.end() && sim->is_object()) {
      baseSets.emplace_back("/sim/duration", io::formatNumber(*o.duration));
    } else {
      baseSets.emplace_back("/sim", "{\"duration\": " + io::formatNumber(*o.duration) + "}");
    }
  }
  auto setsOf = [&](long long j) {
    io::SetList s = baseSets;
    const std::vector<std::string> values = valuesOf(j);
    for (std::size_t k = 0; k < paths.size(); ++k) s.emplace_back(paths[k], values[k]);
    return s;
  };
  const int width = std::max(4, static_cast<int>(std::to_string(n).size()));
  auto jobLabel = [&](long long j) {
    return "job " + std::to_string(j + 1) + " of " + std::to_string(n) + " (" +
           valuesText(paths, valuesOf(j)) + ")";
  };
  const long long threads =
      o.jobs > 0 ? o.jobs
                 : std::max(1LL, static_cast<long long>(std::thread::hardware_concurrency()));

  // Every job's scene is checked (read and set up) before anything is written.
  std::vector<std::vector<std::string>> bodyNames(static_cast<std::size_t>(n));
  parallelFor(n, threads, [&](long long j) {
    try {
      core::WorldDef def = io::parseScene(sourceText, o.scene, sourceDir, setsOf(j));
      for (const core::BodyDef& b : def.bodies) {
        bodyNames[static_cast<std::size_t>(j)].push_back(b.name);
      }
      (void)io::makeWorld(std::move(def), o.scene);
    } catch (const io::Error& e) {
      throw io::Error("", "sweep: " + jobLabel(j) + ": " + e.what());
    }
  });

  // The directory and its files.
  fs::path dir = fs::absolute(o.out).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
  {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) {
      throw io::Error(
          o.out, "cannot create the sweep directory" + (ec ? ": " + ec.message() : std::string()));
    }
  }
  const std::string exe = o.exe.empty() ? io::shellQuote(defaultExe()) : o.exe;
  std::error_code ignored;
  fs::remove(dir / "summary.csv", ignored);  // results of an earlier sweep here are stale
  parallelFor(n, threads, [&](long long j) {
    const std::string name = jobName(j + 1, width);
    std::error_code ec;
    fs::remove(dir / (name + ".result.json"), ec);
    io::saveSceneAs(o.scene, setsOf(j), (dir / (name + ".json")).string());
  });
  std::string jobsTxt;
  OJson jobs = OJson::array();
  for (long long j = 0; j < n; ++j) {
    const std::string name = jobName(j + 1, width);
    jobsTxt += exe + " sweep-job " + io::shellQuote((dir / (name + ".json")).string()) + "\n";
    OJson e;
    e["job"] = j + 1;
    e["name"] = name;
    e["values"] = valuesOf(j);
    e["bodies"] = bodyNames[static_cast<std::size_t>(j)];
    jobs.push_back(std::move(e));
  }
  writeFile(dir / "jobs.txt", jobsTxt);
  OJson doc;
  doc["samara_sweep"] = 1;
  const std::string sceneAbs = fs::absolute(o.scene).lexically_normal().string();
  doc["scene"] = sceneAbs;
  OJson sets = OJson::array();
  for (const auto& [path, value] : o.sets) sets.push_back({path, value});
  doc["sets"] = std::move(sets);
  doc["duration"] = o.duration ? OJson(*o.duration) : OJson(nullptr);
  OJson vary = OJson::array();
  for (const Vary& v : o.vary) vary.push_back({{"path", v.path}, {"values", v.values}});
  doc["vary"] = std::move(vary);
  doc["command"] = exe + " sweep-job";
  doc["jobs"] = std::move(jobs);
  writeFile(dir / "sweep.json", doc.dump(2) + "\n");

  const std::string dirWord = io::shellQuote(dir.string());
  if (o.emit == Emit::kParallel) {
    const fs::path script = dir / "run_parallel.sh";
    writeFile(script, parallelScript(dir, sceneAbs, n, exe));
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ignored);
    out << "sweep: " << n << " jobs (" << sizes << ") in " << dir.string() << "; run them with "
        << io::shellQuote(script.string()) << " (GNU parallel), or run each line of "
        << io::shellQuote((dir / "jobs.txt").string()) << " and then " << exe << " sweep --collect "
        << dirWord << "\n";
    return kExitOk;
  }
  if (o.emit == Emit::kSlurm) {
    writeFile(dir / "sweep.slurm", slurmScript(dir, sceneAbs, n, exe));
    out << "sweep: " << n << " jobs (" << sizes << ") in " << dir.string()
        << "; submit with sbatch " << io::shellQuote((dir / "sweep.slurm").string()) << ", then "
        << exe << " sweep --collect " << dirWord << "\n";
    if (n > 1000) {
      out << "note: " << n << " array tasks; Slurm's default MaxArraySize is 1001\n";
    }
    return kExitOk;
  }

  // Run here: one World per thread, each job writes its result.
  const Clock::time_point wall0 = Clock::now();
  InterruptFlagScope interrupts;
  const std::atomic<bool>& interrupted = InterruptFlagScope::flag();
  std::atomic<long long> finished{0};
  std::atomic<long long> failed{0};
  {
    const bool showProgress = &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
    SweepProgress progress(showProgress, n);
    parallelFor(
        n, threads,
        [&](long long j) {
          if (interrupted.load()) return;
          const std::string name = jobName(j + 1, width);
          const SceneRunStats r = runForStats((dir / (name + ".json")).string(), &interrupted);
          if (r.status == SceneRunStats::Status::kInterrupted) return;
          writeResult(dir / (name + ".result.json"), name + ".json", r);
          if (r.status != SceneRunStats::Status::kOk) ++failed;
          ++finished;
        },
        [&]() { progress.update(finished.load(), failed.load()); });
  }
  if (interrupted.load()) {
    err << "samara: sweep: interrupted; " << finished.load() << " of " << n
        << " jobs finished (their results are kept; `samara sweep --collect " << dirWord
        << "` summarises them)\n";
    return kExitInterrupted;
  }
  const double wall = std::chrono::duration<double>(Clock::now() - wall0).count();
  const CollectCounts c = collect(dir);
  reportFailures(c, err);
  char line[200];
  std::snprintf(line, sizeof line,
                "sweep: %lld jobs (%s) in %.3g s on %lld threads: %lld ok, %lld failed\n", n,
                sizes.c_str(), wall, std::min(threads, n), c.ok, c.failed + c.missing);
  out << line << "summary: " << (dir / "summary.csv").string() << "\n";
  return c.failed > 0 || c.missing > 0 ? kExitSimFailed : kExitOk;
}

int sweepJobCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ArgScanner scan("sweep-job", args);
  while (scan.next()) scan.unknown();
  if (scan.help()) {
    out << kSweepJobHelp;
    return kExitOk;
  }
  const fs::path scene = scan.onePositional("JOB.json");
  const fs::path resultPath = resultPathFor(scene);
  InterruptFlagScope interrupts;
  const SceneRunStats r = runForStats(scene.string(), &InterruptFlagScope::flag());
  if (r.status == SceneRunStats::Status::kInterrupted) {
    err << "samara: sweep-job: " << scene.string() << ": " << r.message << "; "
        << resultPath.string() << " not written\n";
    return kExitInterrupted;
  }
  writeResult(resultPath, scene.filename().string(), r);
  if (r.status == SceneRunStats::Status::kOk) {
    out << resultPath.string() << ": ok\n";
  } else {
    err << "samara: " << r.message << " (recorded in " << resultPath.string() << ")\n";
  }
  return exitCodeOf(r);
}

}  // namespace samara::cli
