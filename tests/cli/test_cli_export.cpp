// `samara export` (issue 7): usage errors, the CSV equal to `samara run`'s rows at the
// frames' steps byte for byte, the glb's structure (nodes, accessor counts, time range), the
// OBJ, chan and pc2 file sets, and atomicity: a failed step, an unwritable output or an
// interrupt leaves no file.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_util.h"

namespace {

/// The JSON chunk of a .glb file.
nlohmann::json glbJson(const std::string& bytes) {
  REQUIRE(bytes.size() >= 20);
  REQUIRE(bytes.compare(0, 4, "glTF") == 0);
  std::uint32_t words[5];
  std::memcpy(words, bytes.data(), 20);
  CHECK(words[1] == 2);             // version
  CHECK(words[2] == bytes.size());  // total length
  CHECK(words[4] == 0x4E4F534Au);   // "JSON"
  return nlohmann::json::parse(bytes.substr(20, words[3]));
}

/// The first 25 fields (the `samara run` columns) of an export CSV row.
std::string runPart(const std::string& row) {
  std::size_t at = 0;
  for (int i = 0; i < 25; ++i) at = row.find(',', at) + 1;
  return row.substr(0, at - 1);
}

}  // namespace

TEST_CASE("export: help and usage errors", "[cli][export]") {
  Result r = cli({"help", "export"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("glb, obj, csv, chan or pc2"));
  CHECK_THAT(r.out, Catch::Contains("frame,ox,oy,oz"));
  CHECK_THAT(r.out, Catch::Contains("POINTCACHE2"));
  CHECK(cli({"export", "--help"}).out == r.out);
  CHECK_THAT(cli({"--help"}).out, Catch::Contains("export SCENE --format"));

  const std::string& scene = kFallingPlate;
  checkUsageErrors({
      {{"export"}, "samara: export: missing SCENE"},
      {{"export", scene, "--out", "x.glb"},
       "samara: export: missing --format (one of glb, obj, csv, chan, pc2)"},
      {{"export", scene, "--format", "glb"}, "samara: export: missing --out PATH"},
      {{"export", scene, "--format", "fbx", "--out", "x.fbx"},
       "samara: export: unknown format \"fbx\" (formats: glb, obj, csv, chan, pc2)"},
      {{"export", scene, "--format=GLB", "--out", "x"}, "unknown format \"GLB\""},
      {{"export", scene, "--format", "glb", "--out", "x", "--fps", "0"},
       "export: --fps needs a finite number > 0 of frames per second (got \"0\")"},
      {{"export", scene, "--format", "glb", "--out", "x", "--fps", "abc"}, "--fps needs"},
      {{"export", scene, "--format", "glb", "--out", "x", "--duration", "-1"},
       "--duration needs a finite number >= 0"},
      {{"export", scene, "--format", "glb", "--out", "x", "--every", "2"},
       "samara: export: unknown option --every"},
      {{"export", scene, "--format", "glb", "--out"}, "export: --out needs a value"},
      {{"export", scene, "b.json", "--format", "glb", "--out", "x"},
       "unexpected argument \"b.json\""},
      {{"export", scene, "--format", "glb", "--out", "x", "--set", "dt"}, "--set needs PATH=VALUE"},
  });
}

TEST_CASE("export csv: the run's rows at the frames' steps, byte for byte", "[cli][export]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);  // dt 0.01, 0.1 s, 2 bodies
  struct Case {
    std::vector<std::string> extra;  // for both run and export
    std::string fps;
    std::vector<int> steps;  // of the frames
  };
  const Case cases[] = {
      {{}, "50", {0, 2, 4, 6, 8, 10}},  // 1/50 s = 2 steps
      {{}, "30", {0, 3, 7, 10}},        // 3.33 steps: the nearest
      {{"--dt", "0.005", "--duration", "0.04", "--set", "fluid.density=998"},
       "100",
       {0, 2, 4, 6, 8}},
  };
  for (const Case& c : cases) {
    INFO("--fps " << c.fps);
    std::vector<std::string> runArgs = {"run", scene};
    runArgs.insert(runArgs.end(), c.extra.begin(), c.extra.end());
    const Result run = cli(runArgs);
    REQUIRE(run.code == 0);
    const std::vector<std::string> runRows = lines(run.out);
    const std::string csv = dir.file("m.csv");
    std::vector<std::string> args = {"export", scene, "--format", "csv",
                                     "--out",  csv,   "--fps",    c.fps};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const Result r = cli(args);
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out,
               Catch::Contains(std::to_string(c.steps.size()) + " frames at " + c.fps + " fps"));
    const std::vector<std::string> rows = lines(readText(csv));
    REQUIRE(rows.size() == 1 + 2 * c.steps.size());
    CHECK(rows[0] == std::string(kHeader) + ",frame,ox,oy,oz");
    for (std::size_t k = 0; k < c.steps.size(); ++k) {
      for (std::size_t i = 0; i < 2; ++i) {
        const std::string& row = rows[1 + 2 * k + i];
        CHECK(runPart(row) == runRows.at(1 + 2 * static_cast<std::size_t>(c.steps[k]) + i));
        CHECK(fields(row).at(25) == std::to_string(k + 1));  // frames count from 1
      }
    }
    CHECK(dir.entries().size() == 2);  // ball.json, m.csv: no temporary left
  }
}

TEST_CASE("export glb, obj, chan, pc2: the files and their structure", "[cli][export]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  SECTION("glb: a node per body, frames keys over [0, duration]") {
    const Result r = cli({"export", scene, "--format", "glb", "--out", dir.file("b.glb"), "--fps",
                          "20", "--duration", "0.5"});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("glb: 11 frames at 20 fps (t = 0 ... 0.5 s), 2 bodies, " +
                                        dir.file("b.glb") + "\n"));
    // What to import with: the rate and the frames' numbers.
    CHECK_THAT(r.out, Catch::Contains("frame rate to 20 fps") &&
                          Catch::Contains("frames 1-11 at 20 fps (t = 0 ... 0.5 s)"));
    const nlohmann::json j = glbJson(readText(dir.file("b.glb")));
    REQUIRE(j["nodes"].size() == 4);  // the bodies, a camera, a sun
    CHECK(j["nodes"][0]["name"] == "ball");
    CHECK(j["nodes"][1]["name"] == "card");
    CHECK(j["nodes"][2]["name"] == "camera");
    CHECK(j["nodes"][3]["name"] == "sun");
    CHECK(j["scenes"][0]["extras"]["fps"] == 20);
    CHECK(j["scenes"][0]["extras"]["frame_end"] == 11);
    // --camera none: no camera.
    REQUIRE(
        cli({"export", scene, "--format", "glb", "--out", dir.file("c.glb"), "--camera", "none"})
            .code == 0);
    CHECK(glbJson(readText(dir.file("c.glb")))["nodes"].size() == 3);
    fs::remove(dir.file("c.glb"));
    CHECK(j["nodes"][0]["translation"] == nlohmann::json::array({0.0, 1.0, 0.0}));
    REQUIRE(j["animations"].size() == 1);
    const nlohmann::json& anim = j["animations"][0];
    CHECK(anim["channels"].size() == 5);  // the bodies' translation and rotation, the camera
    for (const nlohmann::json& s : anim["samplers"]) {
      const nlohmann::json& in = j["accessors"][s["input"].get<int>()];
      CHECK(in["count"] >= 11);  // the frames, and steps where a body turns fast
      CHECK(in["min"][0].get<double>() == Approx(0.05).epsilon(1e-7));  // frame 1 at 1/fps
      CHECK(in["max"][0].get<double>() == Approx(0.55).epsilon(1e-7));
      CHECK(j["accessors"][s["output"].get<int>()]["count"] == in["count"]);
      CHECK(s["interpolation"] == "LINEAR");
    }
    CHECK(dir.entries().size() == 2);
  }
  SECTION("obj into a directory, chan and pc2 per body") {
    fs::create_directory(dir.path() / "frames");
    Result r = cli({"export", scene, "--format", "obj", "--out", dir.file("frames") + "/"});
    REQUIRE(r.code == 0);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path() / "frames")) {
      names.push_back(e.path().filename());
    }
    std::sort(names.begin(), names.end());
    REQUIRE(names.size() == 3);  // 0.1 s at 24 fps: 3 frames, numbered 1 … 3
    CHECK(names.front() == "ball_0001.obj");
    CHECK(names.back() == "ball_0003.obj");
    const std::vector<std::string> obj = lines(readText(dir.path() / "frames" / "ball_0003.obj"));
    CHECK(std::count(obj.begin(), obj.end(), "o ball") == 1);
    CHECK(std::count(obj.begin(), obj.end(), "o card") == 1);

    r = cli({"export", scene, "--format", "chan", "--out", dir.file("take.chan"), "--fps", "100"});
    REQUIRE(r.code == 0);
    CHECK(lines(readText(dir.file("take_ball.chan"))).size() == 11);
    CHECK(lines(readText(dir.file("take_card.chan"))).front() ==
          "1 1 0 0 0 20.000000000000004");  // the card starts rotated 20° about z

    r = cli({"export", scene, "--format", "pc2", "--out", dir.file("cache"), "--fps", "100"});
    REQUIRE(r.code == 0);
    const std::string pc2 = readText(dir.file("cache_card.pc2"));
    REQUIRE(pc2.size() >= 32);
    std::int32_t points = 0, samples = 0;
    std::memcpy(&points, pc2.data() + 16, 4);
    std::memcpy(&samples, pc2.data() + 28, 4);
    CHECK(points == 9);    // a 2 × 2 plate
    CHECK(samples == 11);  // 0.1 s at 100 fps
    CHECK(pc2.size() == 32 + 12u * 9u * 11u);
    CHECK(fs::exists(dir.file("take_card.obj")));  // the meshes the channels move
    CHECK(fs::exists(dir.file("take_chan.json")));
    CHECK(dir.entries().size() == 9);  // ball.json, frames, 2 chan, 2 obj, json, 2 pc2
  }
}

TEST_CASE("export is atomic: a failed step or an unwritable output leaves no file",
          "[cli][export]") {
  TempDir dir;
  const std::string failing = dir.write("fail.json", kFailingScene);
  for (const char* format : {"glb", "obj", "csv", "chan", "pc2"}) {
    INFO(format);
    const Result r = cli({"export", failing, "--format", format, "--out", dir.file("out")});
    CHECK(r.code == 3);
    CHECK_THAT(r.err, Catch::StartsWith("samara: " + failing + ": simulation failed at step 1 "));
    CHECK_THAT(r.err, Catch::EndsWith("; nothing written to " + dir.file("out") + "\n"));
    CHECK(dir.entries() == std::vector<std::string>{"fail.json"});
  }
  // An existing file is kept.
  writeText(dir.path() / "old.glb", "old\n");
  CHECK(cli({"export", failing, "--format", "glb", "--out", dir.file("old.glb")}).code == 3);
  CHECK(readText(dir.path() / "old.glb") == "old\n");
  fs::remove(dir.path() / "old.glb");

  const std::string scene = dir.write("ball.json", kBallScene);
  // A folder that cannot be made, before the run (a glb is written at the end); a missing
  // one is made (test_cli_out.cpp).
  writeText(dir.path() / "no", "a file\n");
  Result r = cli({"export", scene, "--format", "glb", "--out", dir.file("no/x.glb")});
  CHECK(r.code == 1);
  CHECK(r.err == "samara: cannot create folder '" + dir.file("no") + "': '" + dir.file("no") +
                     "' is not a folder\n");
  fs::remove(dir.path() / "no");
  r = cli({"export", scene, "--format", "csv", "--out", dir.path().string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::EndsWith(": is a directory\n"));
  // The second body's file cannot be written: the first one's is not left behind.
  fs::create_directory(dir.path() / "take_card.chan");
  r = cli({"export", scene, "--format", "chan", "--out", dir.file("take")});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("take_card.chan: is a directory"));
  std::vector<std::string> entries = dir.entries();
  std::sort(entries.begin(), entries.end());
  CHECK(entries == std::vector<std::string>{"ball.json", "fail.json", "take_card.chan"});
}

TEST_CASE("export: Ctrl-C leaves no file (nor the folder it made) and exits 130",
          "[cli][export][exe]") {
  TempDir dir;
  // About 10^5 steps: several seconds, far longer than it takes to interrupt.
  const std::string scene =
      dir.write("long.json", ballSceneWith("\"sim\": {\"dt\": 0.01, \"duration\": 0.1}",
                                           "\"sim\": {\"dt\": 0.0005, \"duration\": 50}"));
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execl(kExe.c_str(), "samara", "export", scene.c_str(), "--format", "obj", "--out",
            dir.file("new/seq").c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Frame 0 is staged at once (the handler is in place by then): wait for its temporary.
  bool staged = false;
  for (int i = 0; i < 20000 && !staged; ++i) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir.path() / "new", ec)) {
      staged = staged || e.path().filename().string().find(".tmp.") != std::string::npos;
    }
    if (!staged) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(staged);
  ::kill(pid, SIGINT);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(dir.entries() == std::vector<std::string>{"long.json"});  // "new" is gone
}
