// The viewer's export worker (issue 7): a thread of its own that runs the current scene as
// `samara export` does and writes the same bytes; progress reaches 1 and never goes back;
// a cancel or a failure leaves no file (not even a temporary). Also run under
// ThreadSanitizer.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "runtime/export_job.h"
#include "runtime_test_util.h"

using namespace samara;
using namespace samara::runtime;
namespace fs = std::filesystem;
using samara::runtime::test::readBytes;
using samara::runtime::test::TempDir;

namespace {

const std::string kScenes = std::string(SAMARA_SOURCE_DIR) + "/assets/scenes/";

#ifdef SAMARA_EXE  // only the command-line comparison below needs it (the tsan tree has none)
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
#endif

/// Every file below `dir`: name → bytes.
std::map<std::string, std::string> filesIn(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    out[e.path().filename().string()] = readBytes(e.path());
  }
  return out;
}

/// Polls until the job ends; returns every progress seen.
std::vector<ExportJob::Progress> follow(const ExportJob& job) {
  std::vector<ExportJob::Progress> seen;
  while (true) {
    seen.push_back(job.progress());
    if (seen.back().state != ExportJob::State::kRunning) return seen;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

TEST_CASE("Export job: the bytes of samara export, progress to 1", "[runtime][export]") {
  Overrides o;
  o.fluidDensity = 1.5;
  o.wind = Vec3(0.2, 0.0, -0.4);
  o.dt = 0.004;
  o.delta = {std::optional<double>(0.005)};
  const CurrentScene scene{
      kScenes + "falling_plate.json", {{"bodies.0.position", "[0, 2.5, 0]"}}, o};
  const auto [format, name] =
      GENERATE(table<io::ExportFormat, std::string>({{io::ExportFormat::kCsv, "plate.csv"},
                                                     {io::ExportFormat::kGlb, "plate.glb"},
                                                     {io::ExportFormat::kObj, "frames/"},
                                                     {io::ExportFormat::kChan, "plate"}}));
  INFO(io::exportFormatName(format));
  TempDir mine, cli;
  fs::create_directories(mine.path() / "frames");
  fs::create_directories(cli.path() / "frames");
  ExportJobSettings settings;
  settings.format = format;
  settings.out = mine.file(name);
  settings.fps = 24.0;
  settings.duration = 0.75;
  ExportJob job(scene, settings);
  const std::vector<ExportJob::Progress> seen = follow(job);
  job.wait();
  const ExportJob::Progress& last = seen.back();
  INFO(last.message);
  REQUIRE(last.state == ExportJob::State::kDone);
  CHECK(last.fraction == 1.0);
  CHECK(last.steps == 188);  // ⌈0.75 / 0.004⌉
  CHECK(last.step == last.steps);
  for (std::size_t k = 1; k < seen.size(); ++k) CHECK(seen[k].fraction >= seen[k - 1].fraction);
  CHECK_FALSE(last.files.empty());

#ifdef SAMARA_EXE  // not in the tsan tree, which does not build the command line
  // The same scene through the command line: the scene's --set, then the sliders'.
  std::string cmd = quote(SAMARA_EXE) + " export " + quote(scene.path) + " --format " +
                    io::exportFormatName(format) + " --out " + quote(cli.file(name)) +
                    " --fps 24 --duration 0.75";
  for (const auto& [path, value] : currentSets(scene)) cmd += " --set " + quote(path + "=" + value);
  const int status = std::system((cmd + " > /dev/null").c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const fs::path sub = name == "frames/" ? fs::path("frames") : fs::path();
  const auto a = filesIn(mine.path() / sub), b = filesIn(cli.path() / sub);
  CHECK(a.size() == b.size());
  CHECK(a == b);  // same names, same bytes
#endif
}

TEST_CASE("Export job: cancel leaves no file", "[runtime][export]") {
  TempDir dir;
  ExportJobSettings settings;
  settings.format = io::ExportFormat::kObj;  // OBJ frames are written as they come
  settings.out = dir.file("frame");
  settings.duration = 1000.0;  // far longer than the test waits
  settings.fps = 10.0;
  ExportJob job(CurrentScene{kScenes + "falling_plate.json", {}, {}}, settings);
  // Wait until it is under way (some frames staged), then cancel.
  while (job.progress().step < 50 && !job.finished()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const ExportJob::Progress running = job.progress();
  if (running.state == ExportJob::State::kRunning) {
    CHECK(running.fraction > 0.0);
    CHECK(running.fraction < 1.0);
    CHECK(running.eta >= 0.0);  // known once a step is done
  }
  job.cancel();
  job.wait();
  const ExportJob::Progress p = job.progress();
  CHECK(p.state == ExportJob::State::kCancelled);
  CHECK(p.step < p.steps);
  CHECK(p.fraction < 1.0);
  CHECK(p.files.empty());
  CHECK(fs::is_empty(dir.path()));  // no frame, no temporary
}

TEST_CASE("Export job: destroying a running job cancels it", "[runtime][export]") {
  TempDir dir;
  ExportJobSettings settings;
  settings.format = io::ExportFormat::kCsv;
  settings.out = dir.file("x.csv");
  settings.duration = 1000.0;
  {
    ExportJob job(CurrentScene{kScenes + "falling_plate.json", {}, {}}, settings);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("Export job: a missing output folder is made, as samara export makes it",
          "[runtime][export]") {
  TempDir dir;
  ExportJobSettings settings;
  settings.format = io::ExportFormat::kCsv;
  settings.duration = 0.1;
  settings.out = dir.file("new/folder/x.csv");
  ExportJob job(CurrentScene{kScenes + "falling_plate.json", {}, {}}, settings);
  job.wait();
  CHECK(job.progress().state == ExportJob::State::kDone);
  CHECK(fs::is_regular_file(dir.path() / "new" / "folder" / "x.csv"));
}

TEST_CASE("Export job: failures name the cause and write nothing", "[runtime][export]") {
  TempDir dir;
  ExportJobSettings settings;
  settings.format = io::ExportFormat::kCsv;
  settings.duration = 0.1;
  SECTION("an output folder that cannot be made (a file in the way)") {
    samara::test::writeText(dir.path() / "no", "a file\n");
    settings.out = dir.file("no/such/x.csv");
    ExportJob job(CurrentScene{kScenes + "falling_plate.json", {}, {}}, settings);
    job.wait();
    const ExportJob::Progress p = job.progress();
    CHECK(p.state == ExportJob::State::kFailed);
    CHECK(p.message.find("cannot create folder '" + dir.file("no/such")) != std::string::npos);
    fs::remove(dir.path() / "no");
  }
  SECTION("a scene that cannot be read") {
    settings.out = dir.file("x.csv");
    ExportJob job(CurrentScene{dir.file("missing.json"), {}, {}}, settings);
    job.wait();
    const ExportJob::Progress p = job.progress();
    CHECK(p.state == ExportJob::State::kFailed);
    CHECK(p.message.find("missing.json") != std::string::npos);
  }
  SECTION("a time step far too large for a floor contact is refused at load") {
    settings.out = dir.file("x.csv");
    Overrides o;
    o.dt = 0.5;
    ExportJob job(CurrentScene{kScenes + "box_on_floor.json", {}, o}, settings);
    job.wait();
    const ExportJob::Progress p = job.progress();
    INFO(p.message);
    CHECK(p.state == ExportJob::State::kFailed);
    CHECK(p.message.find("floor's contact spring") != std::string::npos);
  }
  SECTION("a step that fails (two Newton iterations, no sub-steps)") {
    settings.out = dir.file("x.csv");
    settings.duration = 30.0;
    Overrides o;
    o.dt = 0.015;
    ExportJob job(CurrentScene{kScenes + "box_on_floor.json",
                               {{"sim.max_halvings", "0"}, {"sim.max_iterations", "2"}},
                               o},
                  settings);
    job.wait();
    const ExportJob::Progress p = job.progress();
    INFO(p.message);
    CHECK(p.state == ExportJob::State::kFailed);
    CHECK(p.message.find("failed") != std::string::npos);
  }
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("Export job: elapsed time from the clock", "[runtime][export]") {
  TempDir dir;
  // Every read of this clock costs 1 s: the job reads it when it starts and when it ends.
  auto clock = std::make_shared<ManualClock>(10.0, 1.0);
  ExportJobSettings settings;
  settings.format = io::ExportFormat::kCsv;
  settings.out = dir.file("x.csv");
  settings.duration = 0.2;
  ExportJob job(CurrentScene{kScenes + "falling_plate.json", {}, {}}, settings, clock);
  job.wait();
  const ExportJob::Progress p = job.progress();
  REQUIRE(p.state == ExportJob::State::kDone);
  CHECK(p.elapsed == 1.0);
  CHECK(p.eta == 0.0);
  clock->advance(100.0);
  CHECK(job.progress().elapsed == 1.0);  // frozen at the end
}
