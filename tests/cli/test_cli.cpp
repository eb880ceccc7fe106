// The `samara` command line: help, usage errors (exit 2), bad input naming the file and the
// field or line (exit 1), simulation failure (exit 3), the CSV format, --every, --set,
// --out (atomic), --summary, inspect (text and JSON), bench (table and JSON), and determinism
// across processes.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli_test_util.h"

TEST_CASE("help and version", "[cli]") {
  Result r = cli({"--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("usage: samara <command>"));
  CHECK_THAT(r.out, Catch::Contains("inspect SCENE"));
  r = cli({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out == std::string("samara ") + "0.1.0\n");
  r = cli({"help", "run"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("--every N"));
  CHECK_THAT(r.out, Catch::Contains("kinetic_energy,newton_iters"));
  r = cli({"run", "--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("--set PATH=VALUE"));
  r = cli({"inspect", "-h"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("--json"));
  r = cli({"view", "--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("--video-fps F"));
  CHECK_THAT(r.out, Catch::Contains("--video-ui"));
}

TEST_CASE("usage errors exit 2 with samara: <message>", "[cli][errors]") {
  const std::string& scene = kFallingPlate;
  std::vector<UsageError> cases = {
      {{"frobnicate"}, "samara: unknown command \"frobnicate\""},
      {{"--frobnicate"}, "samara: unknown option --frobnicate"},
      {{"help", "nope"}, "samara: help: unknown command \"nope\""},
      {{"run"}, "samara: run: missing SCENE"},
      {{"run", scene, "extra.json"}, "unexpected argument \"extra.json\""},
      {{"run", scene, "--bogus"}, "samara: run: unknown option --bogus"},
      {{"run", scene, "--json"}, "samara: run: unknown option --json"},
      {{"inspect", scene, "--every", "2"}, "samara: inspect: unknown option --every"},
      {{"run", scene, "--dt"}, "samara: run: --dt needs a value"},
      {{"run", scene, "--dt", "abc"}, "--dt needs a finite number > 0"},
      {{"run", scene, "--dt", "0"}, "--dt needs a finite number > 0"},
      {{"run", scene, "--dt=-1"}, "--dt needs a finite number > 0"},
      {{"run", scene, "--duration", "nan"}, "--duration needs a finite number >= 0"},
      {{"run", scene, "--every", "0"}, "--every needs an integer >= 1"},
      {{"run", scene, "--every", "2.5"}, "--every needs an integer >= 1"},
      {{"run", scene, "--steps", "0"}, "--steps needs an integer >= 1"},
      {{"run", scene, "--steps", "3", "--duration", "1"}, "--steps and --duration exclude"},
      {{"run", scene, "--set", "fluid.density"}, "--set needs PATH=VALUE"},
      {{"run", scene, "--summary=yes"}, "--summary takes no value"},
      {{"view", "--frames", "0"}, "view: --frames needs an integer in [1, 100000000]"},
      {{"view", "--screenshot", "x.png"}, "view: --screenshot needs --frames N"},
      {{"view", "a.json", "b.json"}, "view: unexpected argument \"b.json\""},
      {{"view", "--frames", "2", "--video", "v.mp4", "--video-fps", "0"},
       "view: --video-fps needs frames per second, a number in (0, 1000] (got \"0\")"},
      {{"view", "--frames", "2", "--video", "v.mp4", "--video-fps", "-30"}, "--video-fps needs"},
      {{"view", "--frames", "2", "--video", "v.mp4", "--video-fps", "nan"}, "--video-fps needs"},
      {{"view", "--frames", "2", "--video", "v.mp4", "--video-fps", "inf"}, "--video-fps needs"},
      {{"view", "--frames", "2", "--video", "v.mp4", "--video-fps", "1000.5"}, "--video-fps needs"},
      {{"view", "--frames", "2", "--video", "v.mp4", "--video-fps", "30x"}, "--video-fps needs"},
      {{"view", "--frames", "2", "--video-fps", "30"}, "view: --video-fps needs --video FILE"},
      {{"view", "--frames", "2", "--video-ui"}, "view: --video-ui needs --video FILE"},
      {{"view", "--frames", "2", "--video", "v.mp4", "--video-ui", "--shot-size", "64x64"},
       "view: --video-ui (the whole window) and --shot-size (the 3D view alone) exclude"},
  };
#if !defined(SAMARA_HAVE_VIEWER)
  // The headless build has no viewer to parse for.
  std::erase_if(cases, [](const UsageError& c) { return c.args[0] == "view"; });
#endif
  checkUsageErrors(cases);
}

TEST_CASE("bad input exits 1 naming the file and the field or line", "[cli][errors]") {
  TempDir dir;
  fs::copy_file(kMeshes + "/nonmanifold.obj", dir.path() / "nonmanifold.obj");
  fs::copy_file(kMeshes + "/degenerate.obj", dir.path() / "degenerate.obj");
  const std::string sphere = R"({"primitive": "sphere", "radius": 0.05, "subdivisions": 2})";
  struct Case {
    const char* what;
    std::string scene;
    std::vector<std::string> extra;
    std::string message;  // after "samara: <scene path>"
  };
  const std::string unknown = ballSceneWith("\"name\": \"ball\",", "\"nmae\": \"ball\",");
  const Case cases[] = {
      {"unknown key", unknown, {}, ": /: unknown key \"nmae\" (did you mean \"name\"?)"},
      {"wrong type",
       ballSceneWith("\"density\": 1.225", "\"density\": true"),
       {},
       ": /fluid/density: expected a number, got true"},
      {"NaN as a string",
       ballSceneWith("\"density\": 200", "\"density\": \"NaN\""),
       {},
       ": /bodies/0/mass/density: expected a number, got the string \"NaN\""},
      {"negative density",
       ballSceneWith("\"density\": 200", "\"density\": -3"),
       {},
       ": /bodies/0/mass/density: must be > 0 (got -3)"},
      {"dt = 0", ballSceneWith("\"dt\": 0.01", "\"dt\": 0"), {}, ": /sim/dt: must be > 0 (got 0)"},
      {"dt < 0",
       ballSceneWith("\"dt\": 0.01", "\"dt\": -0.01"),
       {},
       ": /sim/dt: must be > 0 (got -0.01)"},
      {"missing mesh file",
       ballSceneWith(sphere, "\"missing.obj\""),
       {},
       ": /bodies/0/mesh: mesh file \"missing.obj\" not found"},
      {"bad --set path",
       kBallScene,
       {"--set", "bodies.7.delta=0"},
       ": --set bodies.7.delta=0: /bodies/7 does not exist in the scene"},
      {"--set of a wrong type",
       kBallScene,
       {"--set", "fluid.density=[1]"},
       ": /fluid/density: expected a number, got an array of 1 (set by --set fluid.density=[1])"},
      {"syntax error",
       ballSceneWith("\"name\": \"ball\",", "\"name\": \"ball\",,"),
       {},
       ":3:18: syntax error"},
  };
  SECTION("scene errors") {
    for (const Case& c : cases) {
      INFO(c.what);
      const std::string path = dir.write("scene.json", c.scene);
      std::vector<std::string> args = {"run", path};
      args.insert(args.end(), c.extra.begin(), c.extra.end());
      const Result r = cli(args);
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::StartsWith("samara: " + path + c.message));
      CHECK(r.out.empty());
      args[0] = "inspect";
      args.push_back("--json");
      const Result i = cli(args);
      CHECK(i.code == 1);
      CHECK(i.err == r.err);
    }
  }

  // The ball's mesh is the bad OBJ `obj`: exit 1, the error names its `line` and has
  // `message`. Returns the scene path and the result.
  auto badObj = [&](const std::string& obj, int line, const char* message) {
    const std::string path = dir.write("scene.json", ballSceneWith(sphere, "\"" + obj + "\""));
    Result r = cli({"run", path});
    CHECK(r.code == 1);
    CHECK_THAT(r.err,
               Catch::StartsWith("samara: " + dir.file(obj) + ":" + std::to_string(line) + ": "));
    CHECK_THAT(r.err, Catch::Contains(message));
    return std::make_pair(path, r);
  };
  SECTION("a non-manifold OBJ names the OBJ line") {
    const auto [path, r] = badObj("nonmanifold.obj", 10, "non-manifold");
    CHECK_THAT(r.err, Catch::Contains(path + ": /bodies/0/mesh"));
  }
  SECTION("a degenerate face names the OBJ line") { badObj("degenerate.obj", 11, "degenerate"); }
  SECTION("a missing scene file") {
    const Result r = cli({"run", dir.file("nope.json")});
    CHECK(r.code == 1);
    CHECK(r.err == "samara: " + dir.file("nope.json") + ": file not found\n");
  }
}

TEST_CASE("run writes the CSV header and a first row at t = 0", "[cli][csv]") {
  TempDir dir;
  const std::string path = dir.write("ball.json", kBallScene);
  const Result r = cli({"run", path});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const std::vector<std::string> rows = lines(r.out);
  REQUIRE(rows.size() == 1 + 2 * 11);  // header, 2 bodies × (10 steps + t = 0)
  CHECK(rows[0] == kHeader);
  const std::vector<std::string> first = fields(rows[1]);
  REQUIRE(first.size() == 25);
  CHECK(first[0] == "0");
  CHECK(first[1] == "ball");
  CHECK(std::stod(first[3]) == 1.0);  // y of the centre of mass
  CHECK(first[24] == "0");            // no Newton iterations yet
  CHECK(fields(rows[2])[1] == "card");
  const std::vector<std::string> last = fields(rows.back());
  CHECK(std::stod(last[0]) == Approx(0.1));
  CHECK(std::stod(last[3]) < 1.0);   // it fell
  CHECK(std::stod(last[21]) > 0.0);  // fall speed along gravity
  // Every number reads back exactly (%.17g).
  for (std::size_t k = 2; k < 24; ++k)
    CHECK(fields(rows[5])[k].find_first_of(" ;") == std::string::npos);
  // The first ball row's spin rate is ω·up = 2 rad/s.
  CHECK(std::stod(first[22]) == 2.0);
}

TEST_CASE("run --every N writes every N-th step, --duration and --dt override", "[cli][csv]") {
  TempDir dir;
  const std::string path = dir.write("ball.json", kBallScene);
  Result r = cli({"run", path, "--every", "5"});
  REQUIRE(r.code == 0);
  std::vector<std::string> rows = lines(r.out);
  REQUIRE(rows.size() == 1 + 2 * 3);  // t = 0, 0.05, 0.1
  CHECK(std::stod(fields(rows[3])[0]) == Approx(0.05));
  CHECK(std::stod(fields(rows[5])[0]) == Approx(0.1));

  r = cli({"run", path, "--duration", "0.2", "--dt=0.02", "--every=2"});
  REQUIRE(r.code == 0);
  rows = lines(r.out);
  REQUIRE(rows.size() == 1 + 2 * 6);  // 10 steps, every 2nd, plus t = 0
  CHECK(std::stod(fields(rows.back())[0]) == Approx(0.2));

  r = cli({"run", path, "--duration", "0"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).size() == 3);

  // --steps N takes exactly N steps of the scene's dt (0.01 s), whatever its duration.
  r = cli({"run", path, "--steps", "7"});
  REQUIRE(r.code == 0);
  rows = lines(r.out);
  REQUIRE(rows.size() == 1 + 2 * 8);
  CHECK(std::stod(fields(rows.back())[0]) == Approx(0.07));
}

TEST_CASE("run --set fluid.density=998 changes the outcome", "[cli][set]") {
  TempDir dir;
  const std::string path = dir.write("ball.json", kBallScene);
  const Result air = cli({"run", path});
  const Result water = cli({"run", path, "--set", "fluid.density=998"});
  const Result pointer = cli({"run", path, "--set", "/fluid/density=998"});
  REQUIRE(air.code == 0);
  REQUIRE(water.code == 0);
  CHECK(water.out == pointer.out);
  const double yAir = std::stod(fields(lines(air.out)[21])[3]);
  const double yWater = std::stod(fields(lines(water.out)[21])[3]);
  CHECK(yAir < 0.96);   // ~ free fall: 1 − ½ g t² ≈ 0.951
  CHECK(yWater > 1.0);  // a 200 kg/m³ ball rises in water
  const Result noAddedMass =
      cli({"run", path, "--set", "bodies.0.delta=0", "--set", "fluid.density=998"});
  REQUIRE(noAddedMass.code == 0);
  CHECK(noAddedMass.out != water.out);
  const Result autoDelta = cli({"run", path, "--set", "bodies.0.delta=auto"});
  REQUIRE(autoDelta.code == 0);
  CHECK(autoDelta.out == air.out);
}

TEST_CASE("run --out writes atomically and leaves nothing on failure", "[cli][out]") {
  TempDir dir;
  const std::string path = dir.write("ball.json", kBallScene);
  const std::string csv = dir.file("out.csv");

  SECTION("success: the file holds exactly what stdout would") {
    const Result toFile = cli({"run", path, "--out", csv});
    REQUIRE(toFile.code == 0);
    CHECK(toFile.out.empty());
    const Result toStdout = cli({"run", path});
    CHECK(readText(csv) == toStdout.out);
    CHECK(dir.entries().size() == 2);  // ball.json, out.csv: no temporary file left
  }
  SECTION("bad scene") {
    dir.write("bad.json", ballSceneWith("\"dt\": 0.01", "\"dt\": -1"));
    const Result r = cli({"run", dir.file("bad.json"), "--out", csv});
    CHECK(r.code == 1);
    CHECK(!fs::exists(csv));
    CHECK(dir.entries().size() == 2);
  }
  SECTION("an existing file is kept when the run fails") {
    writeText(csv, "old\n");
    const std::string failing = dir.write("fail.json", kFailingScene);
    const Result r = cli({"run", failing, "--out", csv});
    CHECK(r.code == 3);
    CHECK_THAT(r.err, Catch::StartsWith("samara: " + failing + ": simulation failed at step 1 "));
    CHECK_THAT(r.err, Catch::Contains("(t = 0 s)"));
    CHECK_THAT(r.err, Catch::Contains("ball"));
    CHECK(readText(csv) == "old\n");
    CHECK(dir.entries().size() == 3);  // ball.json, fail.json, out.csv: nothing else
  }
  SECTION("a directory that does not exist is made (see test_cli_out.cpp)") {
    const Result r = cli({"run", path, "--out", dir.file("no/such/dir/out.csv")});
    CHECK(r.code == 0);
    CHECK(readText(dir.file("no/such/dir/out.csv")) == cli({"run", path}).out);
  }
}

TEST_CASE("run --summary prints a short human summary", "[cli][summary]") {
  TempDir dir;
  const std::string path = dir.write("ball.json", kBallScene);
  const Result r = cli({"run", path, "--summary"});
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("scene    ball"));
  CHECK_THAT(r.out, Catch::Contains("10 steps of 0.01 s"));
  CHECK_THAT(r.out, Catch::Contains("mean fall speed"));
  CHECK_THAT(r.out, Catch::Contains("sub-stepped"));
  CHECK(r.out.find(kHeader) == std::string::npos);
  CHECK(lines(r.out).size() <= 24);
  const std::string csv = dir.file("s.csv");
  const Result both = cli({"run", path, "--summary", "--out", csv});
  REQUIRE(both.code == 0);
  CHECK_THAT(readText(csv), Catch::StartsWith(kHeader));
}

TEST_CASE("inspect --json has the documented keys and the sphere's added mass", "[cli][inspect]") {
  TempDir dir;
  const double r = 0.1;
  const double rho = 998.0;
  const std::string path = dir.write("sphere.json", R"({
    "fluid": {"density": 998},
    "bodies": [{"name": "s", "mesh": {"primitive": "sphere", "radius": 0.1, "subdivisions": 4},
                "mass": {"density": 1000}}]})");
  const Result res = cli({"inspect", path, "--json"});
  REQUIRE(res.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(res.out);
  REQUIRE(doc.size() == 1);
  REQUIRE(doc.at("bodies").size() == 1);
  const nlohmann::json& b = doc["bodies"][0];
  for (const char* key : {"name", "model", "faces", "mass", "com", "volume", "area", "delta",
                          "body_inertia", "added_mass", "kirchhoff"}) {
    INFO(key);
    CHECK(b.contains(key));
  }
  CHECK(b.size() == 11);
  CHECK(b["name"] == "s");
  CHECK(b["model"] == "samara");
  CHECK(b["faces"] == 5120);
  CHECK(b["com"].size() == 3);
  const double pi = 3.14159265358979323846;
  CHECK(b["volume"].get<double>() == Approx(4.0 / 3.0 * pi * r * r * r).epsilon(0.02));
  CHECK(b["delta"].get<double>() == Approx(r / 2).epsilon(0.02));
  for (const char* m : {"body_inertia", "added_mass", "kirchhoff"}) {
    REQUIRE(b[m].size() == 6);
    for (const auto& row : b[m]) CHECK(row.size() == 6);
  }
  const double expected = 2.0 / 3.0 * pi * r * r * r * rho;
  for (int k = 3; k < 6; ++k) {
    CHECK(b["added_mass"][k][k].get<double>() == Approx(expected).epsilon(0.02));
    CHECK(b["kirchhoff"][k][k].get<double>() ==
          Approx(b["mass"].get<double>() + b["added_mass"][k][k].get<double>()));
  }

  const Result text = cli({"inspect", path});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("body s"));
  CHECK_THAT(text.out, Catch::Contains("faces         5120"));
  CHECK_THAT(text.out, Catch::Contains("added mass"));
  CHECK_THAT(text.out, Catch::Contains("Kirchhoff"));
}

TEST_CASE("bench prints a table, or JSON with --json, one row per scene", "[cli][bench]") {
  TempDir dir;
  const std::string ball = dir.write("ball.json", kBallScene);
  const std::string plate = dir.write("plate.json", R"({"name": "card", "sim": {"dt": 0.005},
    "bodies": [{"mesh": {"primitive": "plate", "size": [0.1, 0.06], "segments": [4, 3]},
                "mass": {"density": 700, "thickness": 0.0002}}]})");

  const Result text = cli({"bench", "--duration", "0.05", ball, plate});
  REQUIRE(text.code == 0);
  const std::vector<std::string> rows = lines(text.out);
  REQUIRE(rows.size() == 4);  // title, column header, two scenes
  CHECK_THAT(rows[0], Catch::StartsWith("samara bench: 0.05 s simulated per scene"));
  for (const char* col :
       {"scene", "bodies", "faces", "h (s)", "steps", "steps/s", "x real", "ns/face/step"}) {
    CHECK_THAT(rows[1], Catch::Contains(col));
  }
  std::istringstream row(rows[3]);
  std::string name;
  int bodies = 0;
  long long faces = 0, steps = 0;
  double h = 0.0, perSecond = 0.0, realTime = 0.0, nsPerFace = 0.0;
  row >> name >> bodies >> faces >> h >> steps >> perSecond >> realTime >> nsPerFace;
  REQUIRE(row);
  CHECK(name == "card");
  CHECK(bodies == 1);
  CHECK(faces == 24);
  CHECK(h == 0.005);
  CHECK(steps == 10);
  CHECK(perSecond > 0.0);
  CHECK(realTime > 0.0);
  CHECK(nsPerFace > 0.0);

  const Result json = cli({"bench", "--json", "--duration=0.05", plate});
  REQUIRE(json.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  CHECK(doc["duration"].get<double>() == 0.05);
  REQUIRE(doc["scenes"].size() == 1);
  const nlohmann::json& s = doc["scenes"][0];
  for (const char* key :
       {"scene", "name", "bodies", "faces", "dt", "steps", "wall_seconds", "steps_per_second",
        "real_time_factor", "ns_per_face_step", "status", "message"}) {
    INFO(key);
    CHECK(s.contains(key));
  }
  CHECK(s["name"] == "card");
  CHECK(s["faces"] == 24);
  CHECK(s["steps"] == 10);
  CHECK(s["status"] == "ok");
  const double wall = s["wall_seconds"].get<double>();
  CHECK(s["real_time_factor"].get<double>() == Approx(0.05 / wall));
  CHECK(s["ns_per_face_step"].get<double>() == Approx(wall * 1e9 / (10.0 * 24.0)));

  // A scene that cannot be loaded is reported in its row; the others still run; exit 1.
  const Result missing = cli({"bench", "--duration", "0.05", dir.file("nope.json"), plate});
  CHECK(missing.code == 1);
  CHECK_THAT(missing.out, Catch::Contains("cannot load"));
  CHECK_THAT(missing.out, Catch::Contains("card"));
  CHECK(cli({"bench", "--duration", "0", plate}).code == 2);
  CHECK(cli({"bench", "--frobnicate", plate}).code == 2);
  CHECK_THAT(cli({"help", "bench"}).out, Catch::StartsWith("usage: samara bench"));
}

TEST_CASE("the samara executable: exit codes and messages", "[cli][exe]") {
  TempDir dir;
  const std::string path = dir.write("ball.json", kBallScene);
  Result r = exe(dir, "--version");
  CHECK(r.code == 0);
  CHECK(r.out == "samara 0.1.0\n");
  r = exe(dir, "run " + quote(path) + " --every 10");
  CHECK(r.code == 0);
  CHECK(lines(r.out).size() == 1 + 2 * 2);
  CHECK(r.err.empty());
  r = exe(dir, "run " + quote(path) + " --bogus");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::StartsWith("samara: run: unknown option --bogus"));
  r = exe(dir, "run " + quote(dir.file("missing.json")));
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::StartsWith("samara: " + dir.file("missing.json")));
  r = exe(dir, "run " + quote(path) + " --set bodies.0.mass.density=-1 --out " +
                   quote(dir.file("x.csv")));
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("/bodies/0/mass/density: must be > 0 (got -1)"));
  CHECK(!fs::exists(dir.file("x.csv")));
  r = exe(dir, "view --bogus");
  CHECK(r.code == 2);
  r = exe(dir, "inspect " + quote(kFallingPlate) + " --json");
  CHECK(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["bodies"][0]["name"] == "plate");
}

TEST_CASE("two runs in two processes give identical bytes", "[cli][determinism]") {
  TempDir dir;
  const std::string path = dir.write("ball.json", kBallScene);
  const std::string a = dir.file("a.csv");
  const std::string b = dir.file("b.csv");
  const std::string args = " --duration 0.5 --set fluid.wind=[0.5,0,0.2]";
  REQUIRE(exe(dir, "run " + quote(path) + args + " --out " + quote(a)).code == 0);
  REQUIRE(exe(dir, "run " + quote(path) + args + " --out " + quote(b)).code == 0);
  const std::string bytesA = readText(a);
  CHECK(lines(bytesA).size() == 1 + 2 * 51);
  CHECK(bytesA == readText(b));
  // The default scene too.
  const std::string plate = quote(kFallingPlate);
  const Result p1 = exe(dir, "run " + plate + " --duration 1");
  const Result p2 = exe(dir, "run " + plate + " --duration 1");
  REQUIRE(p1.code == 0);
  CHECK(p1.out.size() > 1000);
  CHECK(p1.out == p2.out);
}
