// The output options shared by every command that writes files (issue 15): `-o` is `--out`,
// `-V` is `--version`; `--out -` writes a text output to stdout (and nothing else there);
// missing folders are made before the run, an uncreatable one is reported at once (exit 1),
// and folders made by a run that fails or is cancelled are removed again.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_util.h"

namespace {

/// kBallScene without its second body (the card): one body.
const char* const kOneBodyScene = R"({
  "name": "ball",
  "fluid": {"density": 1.225},
  "sim": {"dt": 0.01, "duration": 0.1},
  "bodies": [
    {"name": "ball", "mesh": {"primitive": "sphere", "radius": 0.05, "subdivisions": 2},
     "mass": {"density": 200}, "position": [0, 1, 0], "angular_velocity": [0, 2, 0]}
  ]
})";

/// The names in `dir`, sorted.
std::vector<std::string> sortedEntries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

/// A states file for `forces` with a row for the ball.
std::string writeStates(const TempDir& dir) {
  return dir.write("states.csv",
                   "body,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\nball,1,0,0,0,0,-2,0,0,1,0\n"
                   "card,0.9,0.1,0.3,0.3,0.5,-1,0,2,0,1\n");
}

}  // namespace

TEST_CASE("out: -V is --version, -h is --help", "[cli][out]") {
  const Result version = cli({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out == "samara 0.1.0\n");
  const Result v = cli({"-V"});
  CHECK(v.code == 0);
  CHECK(v.out == version.out);
  CHECK(cli({"-h"}).out == cli({"--help"}).out);
  CHECK_THAT(cli({"--help"}).out, Catch::Contains("-V, --version"));
  for (const char* command : {"run", "forces", "export", "sweep"}) {
    INFO(command);
    const Result h = cli({command, "-h"});
    CHECK(h.code == 0);
    CHECK(h.out == cli({command, "--help"}).out);
    CHECK_THAT(h.out, Catch::Contains("-o, --out"));
  }
}

TEST_CASE("out: -o equals --out byte for byte", "[cli][out]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string states = writeStates(dir);
  const std::vector<std::vector<std::string>> commands = {
      {"run", scene, "--steps", "7"},        {"forces", scene, "--states", states},
      {"export", scene, "--format", "csv"},  {"export", scene, "--format", "glb"},
      {"export", scene, "--format", "chan"},
  };
  int k = 0;
  for (const std::vector<std::string>& command : commands) {
    const std::string name = std::to_string(k++);
    std::vector<std::string> longForm = command;
    longForm.insert(longForm.end(), {"--out", dir.file("long" + name + "/x")});
    std::vector<std::string> shortForm = command;
    shortForm.insert(shortForm.end(), {"-o", dir.file("short" + name + "/x")});
    INFO(command[0] << " " << name);
    const Result l = cli(longForm);
    const Result s = cli(shortForm);
    REQUIRE(l.code == 0);
    REQUIRE(s.code == 0);
    const std::vector<std::string> files = sortedEntries(dir.path() / ("long" + name));
    REQUIRE(!files.empty());
    CHECK(sortedEntries(dir.path() / ("short" + name)) == files);
    for (const std::string& f : files) {
      INFO(f);
      const std::string bytes = readText(dir.path() / ("long" + name) / f);
      CHECK(!bytes.empty());
      CHECK(readText(dir.path() / ("short" + name) / f) == bytes);
    }
  }
  // sweep: the same files.
  REQUIRE(cli({"sweep", scene, "--vary", "fluid.density=1,2", "--emit", "parallel", "-o",
               dir.file("sweep_short")})
              .code == 0);
  REQUIRE(cli({"sweep", scene, "--vary", "fluid.density=1,2", "--emit", "parallel", "--out",
               dir.file("sweep_long")})
              .code == 0);
  CHECK(sortedEntries(dir.path() / "sweep_short") == sortedEntries(dir.path() / "sweep_long"));
  // -o where there is no --out: named as given.
  checkUsageErrors({{{"inspect", scene, "-o", "x"}, "samara: inspect: unknown option -o"},
                    {{"run", scene, "-o"}, "samara: run: -o needs a value"}});
}

TEST_CASE("out: --out - writes text outputs to stdout, nothing else", "[cli][out]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string one = dir.write("one.json", kOneBodyScene);
  const std::string states = writeStates(dir);

  SECTION("run: stdout equals the file, also with --summary and --classify") {
    REQUIRE(cli({"run", scene, "--steps", "10", "--out", dir.file("run.csv")}).code == 0);
    const std::string file = readText(dir.file("run.csv"));
    REQUIRE(lines(file).size() == 1 + 11 * 2);
    Result r = cli({"run", scene, "--steps", "10", "--out", "-"});
    CHECK(r.code == 0);
    CHECK(r.out == file);
    CHECK(r.err.empty());
    r = cli({"run", scene, "--steps", "10", "-o", "-", "--summary", "--classify"});
    CHECK(r.code == 0);
    CHECK(r.out == file);
    CHECK_THAT(r.err, Catch::Contains("csv      standard output"));
    CHECK_THAT(r.err, Catch::Contains("pattern  ball:"));
    // The real executable's stdout.
    const Result e = exe(dir, "run " + quote(scene) + " --steps 10 --out -");
    CHECK(e.code == 0);
    CHECK(e.out == file);
  }
  SECTION("forces") {
    REQUIRE(cli({"forces", scene, "--states", states, "--out", dir.file("f.csv")}).code == 0);
    const Result r = cli({"forces", scene, "--states", states, "--out", "-"});
    CHECK(r.code == 0);
    CHECK(r.out == readText(dir.file("f.csv")));
    CHECK(lines(r.out).size() == 3);
  }
  SECTION("export csv, and chan of one body; the report line on stderr") {
    REQUIRE(cli({"export", scene, "--format", "csv", "--out", dir.file("e.csv")}).code == 0);
    Result r = cli({"export", scene, "--format", "csv", "--out", "-"});
    CHECK(r.code == 0);
    CHECK(r.out == readText(dir.file("e.csv")));
    CHECK_THAT(r.err, Catch::StartsWith("csv: 3 frames at 24 fps"));
    CHECK_THAT(r.err, Catch::EndsWith(", stdout\n"));

    REQUIRE(cli({"export", one, "--format", "chan", "--out", dir.file("one")}).code == 0);
    const std::string chan = readText(dir.file("one_ball.chan"));
    REQUIRE(lines(chan).size() == 3);
    r = cli({"export", one, "--format", "chan", "-o", "-"});
    CHECK(r.code == 0);
    CHECK(r.out == chan);
    CHECK_THAT(r.err, Catch::StartsWith("chan: 3 frames"));
    // The real executable's stdout.
    const Result e = exe(dir, "export " + quote(one) + " --format chan -o -");
    CHECK(e.code == 0);
    CHECK(e.out == chan);
  }
  SECTION("refused: several bodies for chan, binary or multi-file formats, sweep") {
    checkUsageErrors({
        {{"export", scene, "--format", "chan", "--out", "-"},
         "samara: export: --out - needs a single-body scene for chan (this scene has 2 bodies)"},
        {{"export", scene, "--format", "glb", "--out", "-"}, "not glb"},
        {{"export", one, "--format", "obj", "-o", "-"}, "not obj"},
        {{"export", one, "--format", "pc2", "--out", "-"}, "not pc2"},
        {{"sweep", scene, "--vary", "fluid.density=1,2", "--out", "-"},
         "sweep: --out - (stdout) does not apply"},
    });
    const Result e = exe(dir, "export " + quote(scene) + " --format glb --out -");
    CHECK(e.code == 2);
    CHECK_THAT(e.err, Catch::Contains("--out - (stdout) takes csv, or chan of a single-body"));
    CHECK(e.out.empty());
  }
  // No file named "-" anywhere.
  CHECK(!fs::exists("-"));
  CHECK(!fs::exists(dir.path() / "-"));
}

TEST_CASE("out: missing folders are made, by every command", "[cli][out]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string states = writeStates(dir);
  CHECK(cli({"run", scene, "--steps", "3", "--out", dir.file("r/a/b/run.csv")}).code == 0);
  CHECK(lines(readText(dir.file("r/a/b/run.csv"))).size() == 1 + 4 * 2);
  CHECK(cli({"forces", scene, "--states", states, "-o", dir.file("f/a/forces.csv")}).code == 0);
  CHECK(fs::is_regular_file(dir.file("f/a/forces.csv")));
  CHECK(cli({"export", scene, "--format", "obj", "--out", dir.file("o/a/b/seq")}).code == 0);
  CHECK(fs::is_regular_file(dir.file("o/a/b/seq_0003.obj")));
  CHECK(cli({"export", scene, "--format", "pc2", "--out", dir.file("p/a/")}).code == 0);
  CHECK(sortedEntries(dir.path() / "p/a") == std::vector<std::string>{"ball.pc2", "card.pc2"});
  CHECK(cli({"export", scene, "--format", "glb", "--out", dir.file("g/a/x.glb")}).code == 0);
  CHECK(fs::is_regular_file(dir.file("g/a/x.glb")));
  CHECK(cli({"sweep", scene, "--vary", "fluid.density=1,2", "--emit", "slurm", "--out",
             dir.file("s/a/b")})
            .code == 0);
  CHECK(fs::is_regular_file(dir.file("s/a/b/sweep.slurm")));
#if defined(SAMARA_HAVE_VIEWER)
  // view: the folders of the screenshot, video and layout report (the viewer is stubbed).
  CHECK(cli({"view", scene, "--frames", "1", "--screenshot", dir.file("v/a/shot.png"), "--video",
             dir.file("v/b/x.mp4"), "--layout-report", dir.file("v/c/d/report.json")})
            .code == 0);
  CHECK(fs::is_directory(dir.file("v/a")));
  CHECK(fs::is_directory(dir.file("v/b")));
  CHECK(fs::is_directory(dir.file("v/c/d")));
  // A viewer that fails: the folders it was given are removed again.
  std::vector<std::string> args = {
      "samara", "view", scene, "--frames", "1", "--screenshot", dir.file("w/a/shot.png")};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  const samara::cli::ViewHandler failing = [](const samara::cli::ViewArgs& a, std::ostream&,
                                              std::ostream&) {
    CHECK(fs::is_directory(fs::path(a.screenshotPath).parent_path()));
    return 1;
  };
  CHECK(samara::cli::runCli(static_cast<int>(args.size()), argv.data(), out, err, failing) == 1);
  CHECK(!fs::exists(dir.file("w")));
#endif
}

TEST_CASE("out: a folder that cannot be made is reported at once, nothing is left",
          "[cli][out][errors]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string states = writeStates(dir);
  const std::vector<std::string> before = sortedEntries(dir.path());

  // Each command with OUT in place of its output.
  const auto commands = [&](const std::string& out) {
    return std::vector<std::vector<std::string>>{
        {"run", scene, "--out", out + "/run.csv"},
        {"forces", scene, "--states", states, "-o", out + "/f.csv"},
        {"export", scene, "--format", "obj", "--out", out + "/seq"},
        {"export", scene, "--format", "chan", "--out", out + "/"},
        {"sweep", scene, "--vary", "fluid.density=1,2", "--emit", "parallel", "--out", out},
    };
  };
  SECTION("a file in the way") {
    dir.write("file", "x");
    const std::string out = dir.file("file/x/y");
    for (const std::vector<std::string>& c : commands(out)) {
      INFO(c[0]);
      const Result r = cli(c);
      CHECK(r.code == 1);
      CHECK(r.err == "samara: cannot create folder '" + out + "': '" + dir.file("file") +
                         "' is not a folder\n");
      CHECK(r.out.empty());
    }
  }
  SECTION("under a read-only folder") {
    if (::geteuid() == 0) {
      WARN("skipped: root may write into a read-only folder");
      return;
    }
    fs::create_directory(dir.path() / "ro");
    fs::permissions(dir.path() / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    const std::string out = dir.file("ro/x/y");
    for (const std::vector<std::string>& c : commands(out)) {
      INFO(c[0]);
      const Result r = cli(c);
      CHECK(r.code == 1);
      CHECK(r.err == "samara: cannot create folder '" + out + "': Permission denied\n");
      CHECK(r.out.empty());
      CHECK(fs::is_empty(dir.path() / "ro"));
    }
    const Result e = exe(dir, "run " + quote(scene) + " -o " + quote(out + "/run.csv"));
    CHECK(e.code == 1);
    CHECK(e.err == "samara: cannot create folder '" + out + "': Permission denied\n");
    fs::permissions(dir.path() / "ro", fs::perms::owner_all);
    CHECK(fs::is_empty(dir.path() / "ro"));
    fs::remove(dir.path() / "ro");
  }
  fs::remove(dir.path() / "file");
  CHECK(sortedEntries(dir.path()) == before);
}

TEST_CASE("out: a failed run removes the folders it made, keeps the ones that were there",
          "[cli][out]") {
  TempDir dir;
  const std::string failing = dir.write("fail.json", kFailingScene);
  fs::create_directory(dir.path() / "old");
  const std::vector<std::vector<std::string>> commands = {
      {"run", failing, "--out", dir.file("old/new/deep/run.csv")},
      {"export", failing, "--format", "obj", "-o", dir.file("old/new/deep/seq")},
      {"export", failing, "--format", "glb", "-o", dir.file("old/new/x.glb")},
      {"export", failing, "--format", "pc2", "--out", dir.file("old/new/deep/")},
  };
  for (const std::vector<std::string>& c : commands) {
    INFO(c[0] << " " << c.back());
    const Result r = cli(c);
    CHECK(r.code == 3);
    CHECK(fs::is_directory(dir.path() / "old"));
    CHECK(fs::is_empty(dir.path() / "old"));
  }
  // forces: states that cannot be used.
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string bad = dir.write("bad.csv",
                                    "body,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\nkite,1,0,0,0,"
                                    "0,0,0,0,0,0\n");
  const Result r = cli({"forces", scene, "--states", bad, "-o", dir.file("old/new/f.csv")});
  CHECK(r.code == 1);
  CHECK(fs::is_empty(dir.path() / "old"));
}
