// `samara sweep` (the combinations, the sweep directory, local jobs on threads or emitted
// scripts), `samara sweep --collect DIR` and `samara sweep-job JOB.json`.
#include "cli/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/sweep/run_stats.h"
#include "cli/sweep/sweep_internal.h"
#include "cli/terminal.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/output_folders.h"
#include "io/scene.h"
#include "io/scene_writer.h"
#include "io/text_format.h"

namespace samara::cli {

using namespace sweep;

namespace {

using Json = io::Json;
using OJson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

/// The absolute path of this executable when it is a `samara`, else plain "samara" (from
/// the PATH; e.g. when a test program calls runCli).
std::string defaultExe() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && self.filename() == "samara") return self.string();
  return "samara";
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

/// The jobs of a sweep: job j (0-based) takes value index[k] of --vary k, the last fastest,
/// applied after the --set edits and --duration.
class Combinations {
 public:
  explicit Combinations(const SweepOptions& o) : o_(o) {
    for (const Vary& v : o.vary) {
      sizes_ += (sizes_.empty() ? "" : " x ") + std::to_string(v.values.size());
      n_ *= static_cast<long long>(v.values.size());
      if (n_ > kMaxJobs) {
        throw UsageError{"sweep: more than " + std::to_string(kMaxJobs) + " combinations (" +
                         sizes_ + (&v == &o.vary.back() ? "" : " x ...") + "); vary fewer values"};
      }
      paths_.push_back(v.path);
    }
    width_ = std::max(4, static_cast<int>(std::to_string(n_).size()));
    // The source scene with the --set edits and --duration: every job's starting point.
    sourceText_ = io::readFile(o.scene, io::SceneLimits{}.maxSceneBytes);
    sourceDir_ = fs::path(o.scene).parent_path().string();
    baseSets_ = o.sets;
    if (o.duration) {
      Json edited = io::parseJson(sourceText_, o.scene);
      for (const auto& [path, value] : o.sets) io::applySet(&edited, path, value, o.scene);
      const auto sim = edited.is_object() ? edited.find("sim") : edited.end();
      if (sim != edited.end() && sim->is_object()) {
        baseSets_.emplace_back("/sim/duration", io::formatNumber(*o.duration));
      } else {
        baseSets_.emplace_back("/sim", "{\"duration\": " + io::formatNumber(*o.duration) + "}");
      }
    }
  }
  [[nodiscard]] long long size() const { return n_; }
  [[nodiscard]] const std::string& sizes() const { return sizes_; }  ///< "3 x 2"
  [[nodiscard]] std::string name(long long j) const { return jobName(j + 1, width_); }
  [[nodiscard]] std::vector<std::string> values(long long j) const {
    std::vector<std::string> values(o_.vary.size());
    for (std::size_t k = o_.vary.size(); k-- > 0;) {
      const auto m = static_cast<long long>(o_.vary[k].values.size());
      values[k] = o_.vary[k].values[static_cast<std::size_t>(j % m)];
      j /= m;
    }
    return values;
  }
  [[nodiscard]] io::SetList sets(long long j) const {
    io::SetList s = baseSets_;
    const std::vector<std::string> v = values(j);
    for (std::size_t k = 0; k < paths_.size(); ++k) s.emplace_back(paths_[k], v[k]);
    return s;
  }
  [[nodiscard]] std::string label(long long j) const {
    return "job " + std::to_string(j + 1) + " of " + std::to_string(n_) + " (" +
           valuesText(paths_, values(j)) + ")";
  }
  /// Job j's scene as parsed (throws io::Error).
  [[nodiscard]] core::WorldDef scene(long long j) const {
    return io::parseScene(sourceText_, o_.scene, sourceDir_, sets(j));
  }

 private:
  const SweepOptions& o_;
  long long n_ = 1;
  std::string sizes_;
  std::vector<std::string> paths_;
  int width_ = 4;
  std::string sourceText_;
  std::string sourceDir_;
  io::SetList baseSets_;
};

/// Every job's scene read and set up before anything is written; the body names per job.
std::vector<std::vector<std::string>> checkJobs(const SweepOptions& o, const Combinations& jobs,
                                                long long threads) {
  std::vector<std::vector<std::string>> bodyNames(static_cast<std::size_t>(jobs.size()));
  parallelFor(jobs.size(), threads, [&](long long j) {
    try {
      core::WorldDef def = jobs.scene(j);
      for (const core::BodyDef& b : def.bodies) {
        bodyNames[static_cast<std::size_t>(j)].push_back(b.name);
      }
      (void)io::makeWorld(std::move(def), o.scene);
    } catch (const io::Error& e) {
      throw io::Error("", "sweep: " + jobs.label(j) + ": " + e.what());
    }
  });
  return bodyNames;
}

/// The sweep directory: --out as an absolute path without a trailing '/'.
fs::path sweepDir(const SweepOptions& o) {
  fs::path dir = fs::absolute(o.out).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
  return dir;
}

/// jobs.txt, the scripts and sweep.json hold these paths as shell words and JSON strings:
/// a control character would split a line (a newline runs the rest as a command) and bytes
/// that are not UTF-8 cannot be JSON, so both are refused before anything is written.
void checkScriptText(const std::string& what, const std::string& text) {
  if (io::hasControlCharacter(text)) {
    throw UsageError{"sweep: " + what + " \"" + text +
                     "\" holds a control character, which jobs.txt and the scripts cannot hold"
                     " (one command per line); use a path without one"};
  }
  if (!io::isValidUtf8(text)) {
    throw UsageError{"sweep: " + what + " \"" + text +
                     "\" is not valid UTF-8, which sweep.json cannot hold; use a path that is"};
  }
}

/// OutputFiles for several threads: each write is passed to `files` under a lock.
class LockedFiles final : public io::OutputFiles {
 public:
  explicit LockedFiles(io::OutputFiles* files) : files_(files) {}
  void write(const std::string& path, const std::function<void(std::ostream&)>& fill) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    files_->write(path, fill);
  }

 private:
  io::OutputFiles* files_;
  std::mutex mutex_;
};

/// DIR's job scenes, jobs.txt and sweep.json, staged in `files` (DIR made in `folders`).
void writeSweepDir(const SweepOptions& o, const Combinations& jobs, long long threads,
                   const std::vector<std::vector<std::string>>& bodyNames, const std::string& exe,
                   io::OutputFolders* folders, io::StagedFiles* files) {
  folders->create(o.out);
  const fs::path dir = sweepDir(o);
  LockedFiles locked(files);
  parallelFor(jobs.size(), threads, [&](long long j) {
    const std::string name = jobs.name(j);
    io::saveSceneAs(o.scene, jobs.sets(j), (dir / (name + ".json")).string(), &locked);
  });
  std::string jobsTxt;
  OJson list = OJson::array();
  for (long long j = 0; j < jobs.size(); ++j) {
    const std::string name = jobs.name(j);
    jobsTxt += exe + " sweep-job " + io::shellQuote((dir / (name + ".json")).string()) + "\n";
    OJson e;
    e["job"] = j + 1;
    e["name"] = name;
    e["values"] = jobs.values(j);
    e["bodies"] = bodyNames[static_cast<std::size_t>(j)];
    list.push_back(std::move(e));
  }
  files->write((dir / "jobs.txt").string(), [&](std::ostream& out) { out << jobsTxt; });
  OJson doc;
  doc["samara_sweep"] = 1;
  doc["scene"] = fs::absolute(o.scene).lexically_normal().string();
  OJson sets = OJson::array();
  for (const auto& [path, value] : o.sets) sets.push_back({path, value});
  doc["sets"] = std::move(sets);
  doc["duration"] = o.duration ? OJson(*o.duration) : OJson(nullptr);
  OJson vary = OJson::array();
  for (const Vary& v : o.vary) vary.push_back({{"path", v.path}, {"values", v.values}});
  doc["vary"] = std::move(vary);
  doc["command"] = exe + " sweep-job";
  doc["jobs"] = std::move(list);
  const std::string sweepJson = doc.dump(2) + "\n";
  files->write((dir / "sweep.json").string(), [&](std::ostream& out) { out << sweepJson; });
}

/// Puts the staged files in place; an earlier sweep's summary and results there are stale.
void commitSweepDir(const Combinations& jobs, const fs::path& dir, io::StagedFiles* files) {
  std::error_code ignored;
  fs::remove(dir / "summary.csv", ignored);
  for (long long j = 0; j < jobs.size(); ++j) {
    fs::remove(dir / (jobs.name(j) + ".result.json"), ignored);
  }
  files->commit();
}

/// --emit parallel / slurm: the script, staged with the rest, and what to do next.
int emitScript(const SweepOptions& o, const Combinations& jobs, const fs::path& dir,
               const std::string& exe, io::StagedFiles* files, std::ostream& out) {
  const long long n = jobs.size();
  const std::string sceneAbs = fs::absolute(o.scene).lexically_normal().string();
  const std::string dirWord = io::shellQuote(dir.string());
  const fs::path script = dir / (o.emit == Emit::kParallel ? "run_parallel.sh" : "sweep.slurm");
  const std::string text = o.emit == Emit::kParallel ? parallelScript(dir, sceneAbs, n, exe)
                                                     : slurmScript(dir, sceneAbs, n, exe);
  files->write(script.string(), [&](std::ostream& s) { s << text; });
  commitSweepDir(jobs, dir, files);
  if (o.emit == Emit::kParallel) {
    std::error_code ignored;
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ignored);
    out << "sweep: " << n << " jobs (" << jobs.sizes() << ") in " << dir.string()
        << "; run them with " << io::shellQuote(script.string())
        << " (GNU parallel), or run each line of " << io::shellQuote((dir / "jobs.txt").string())
        << " and then " << exe << " sweep --collect " << dirWord << "\n";
    return kExitOk;
  }
  out << "sweep: " << n << " jobs (" << jobs.sizes() << ") in " << dir.string()
      << "; submit with sbatch " << io::shellQuote((dir / "sweep.slurm").string()) << ", then "
      << exe << " sweep --collect " << dirWord << "\n";
  if (n > 1000) out << "note: " << n << " array tasks; Slurm's default MaxArraySize is 1001\n";
  return kExitOk;
}

/// Runs the jobs here, one World per thread; each job writes its result.
int runLocally(const Combinations& jobs, const fs::path& dir, long long threads, std::ostream& out,
               std::ostream& err) {
  const long long n = jobs.size();
  const Clock::time_point wall0 = Clock::now();
  const InterruptScope interrupts;
  const std::atomic<bool>& interrupted = interruptFlag();
  std::atomic<long long> finished{0};
  std::atomic<long long> failed{0};
  {
    ProgressLine progress(showsProgress(err));
    parallelFor(
        n, threads,
        [&](long long j) {
          if (interrupted.load()) return;
          const std::string name = jobs.name(j);
          const SceneRunStats r = runForStats((dir / (name + ".json")).string(), &interrupted);
          if (r.status == SceneRunStats::Status::kInterrupted) return;
          writeResult(dir / (name + ".result.json"), name + ".json", r);
          if (r.status != SceneRunStats::Status::kOk) ++failed;
          ++finished;
        },
        [&]() {
          if (!progress.due()) return;
          const long long done = finished.load();
          const double fraction = static_cast<double>(done) / static_cast<double>(n);
          const double eta = ProgressLine::eta(progress.elapsed(), fraction);
          progress.show(io::strf("samara: sweep %lld/%lld jobs  %3.0f%%  %lld failed  ETA %s ",
                                 done, n, 100.0 * fraction, failed.load(),
                                 io::clockText(eta, /*withHours=*/true).c_str()));
        });
  }
  if (interrupted.load()) {
    err << "samara: sweep: interrupted; " << finished.load() << " of " << n
        << " jobs finished (their results are kept; `samara sweep --collect "
        << io::shellQuote(dir.string()) << "` summarises them)\n";
    return kExitInterrupted;
  }
  const double wall = std::chrono::duration<double>(Clock::now() - wall0).count();
  const CollectCounts c = collect(dir);
  reportFailures(c, err);
  out << io::strf("sweep: %lld jobs (%s) in %.3g s on %lld threads: %lld ok, %lld failed\n", n,
                  jobs.sizes().c_str(), wall, std::min(threads, n), c.ok, c.failed + c.missing)
      << "summary: " << (dir / "summary.csv").string() << "\n";
  return c.failed > 0 || c.missing > 0 ? kExitSimFailed : kExitOk;
}

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
  const fs::path dir = sweepDir(o);
  checkScriptText("SCENE", fs::absolute(o.scene).lexically_normal().string());
  checkScriptText("the directory", dir.string());
  const std::string exe = o.exe.empty() ? io::shellQuote(defaultExe()) : o.exe;
  checkScriptText(o.exe.empty() ? "the path of samara" : "--exe", exe);
  const Combinations jobs(o);
  const long long threads =
      o.jobs > 0 ? o.jobs
                 : std::max(1LL, static_cast<long long>(std::thread::hardware_concurrency()));
  const std::vector<std::vector<std::string>> bodyNames = checkJobs(o, jobs, threads);
  io::OutputFolders folders;  // DIR, removed again if nothing could be written into it
  io::StagedFiles files;      // every file of DIR appears at once, or none (a full disk)
  writeSweepDir(o, jobs, threads, bodyNames, exe, &folders, &files);
  if (o.emit != Emit::kNone) return emitScript(o, jobs, dir, exe, &files, out);
  commitSweepDir(jobs, dir, &files);
  folders.keep();
  return runLocally(jobs, dir, threads, out, err);
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
  // A job that is not there has nothing to record: no result file beside a missing scene.
  std::error_code ec;
  if (!fs::is_regular_file(scene, ec)) {
    err << "samara: sweep-job: "
        << io::printable(scene.string() + ": " +
                         (fs::exists(scene, ec) ? "not a regular file" : "no such file") + "; " +
                         resultPath.string())
        << " not written\n";
    return kExitBadInput;
  }
  const InterruptScope interrupts;
  const SceneRunStats r = runForStats(scene.string(), &interruptFlag());
  if (r.status == SceneRunStats::Status::kInterrupted) {
    err << "samara: sweep-job: "
        << io::printable(scene.string() + ": " + r.message + "; " + resultPath.string())
        << " not written\n";
    return kExitInterrupted;
  }
  writeResult(resultPath, scene.filename().string(), r);
  if (r.status == SceneRunStats::Status::kOk) {
    out << resultPath.string() << ": ok\n";
  } else {
    err << "samara: " << io::printable(r.message + " (recorded in " + resultPath.string() + ")")
        << "\n";
  }
  return exitCodeOf(r);
}
}  // namespace samara::cli
