// `samara sweep` (issue 7): the --vary value splitter, expansion of the cartesian product into
// job scenes, a job's result equal to `samara run` of its scene, summary.csv (a row per job
// per body, the same bytes for --jobs 1 and 2 and for the emitted job list run by hand),
// --emit parallel / slurm writing the files and running nothing, a failed job (exit 3), bad
// input and usage errors.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_util.h"
#include "cli/sweep/sweep.h"
#include "cli_test_util.h"
#include "io/scene.h"

namespace {

using samara::cli::splitValueList;
using Strings = std::vector<std::string>;

bool splitFails(const std::string& list) {
  try {
    (void)splitValueList(list);
  } catch (const samara::cli::UsageError&) {
    return true;
  }
  return false;
}

std::string g17(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string g4(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

nlohmann::json readJson(const fs::path& p) { return nlohmann::json::parse(readText(p)); }

/// Per body: the means of fall_speed and spin_rate of `samara run` CSV rows over the last
/// second (the --summary window), summed in row order.
std::map<std::string, std::pair<double, double>> csvMeans(const std::string& csv, double duration) {
  const double window = std::min(1.0, duration);
  const double start = duration - window - 1e-9 * std::max(1.0, duration);
  std::map<std::string, std::pair<double, double>> sums;
  std::map<std::string, int> counts;
  const Strings rows = lines(csv);
  REQUIRE(rows.size() > 1);
  REQUIRE(rows[0] == kHeader);
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const Strings f = fields(rows[k]);
    REQUIRE(f.size() == 25);
    if (std::strtod(f[0].c_str(), nullptr) < start) continue;
    sums[f[1]].first += std::strtod(f[21].c_str(), nullptr);
    sums[f[1]].second += std::strtod(f[22].c_str(), nullptr);
    ++counts[f[1]];
  }
  for (auto& [body, s] : sums) {
    s.first /= counts[body];
    s.second /= counts[body];
  }
  return sums;
}

Strings resultFiles(const fs::path& dir) {
  Strings names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename();
    if (n.find(".result.json") != std::string::npos) names.push_back(n);
  }
  return names;
}

}  // namespace

TEST_CASE("sweep: --vary lists split at top-level commas", "[cli][sweep]") {
  CHECK(splitValueList("1,2,3") == Strings{"1", "2", "3"});
  CHECK(splitValueList("[0,0,0],[1,0,0]") == Strings{"[0,0,0]", "[1,0,0]"});
  CHECK(splitValueList(R"({"total": 0.01, "lumped": true},{"density": [1, {"a": 2}]})") ==
        Strings{R"({"total": 0.01, "lumped": true})", R"({"density": [1, {"a": 2}]})"});
  CHECK(splitValueList(R"("a,b","c\",[d",auto)") == Strings{R"("a,b")", R"("c\",[d")", "auto"});
  CHECK(splitValueList(" 1 , [2, 3]\t") == Strings{"1", "[2, 3]"});
  CHECK(splitValueList("0.001") == Strings{"0.001"});
  CHECK(splitValueList("").empty());
  CHECK(splitValueList("  ").empty());
  for (const char* bad : {"1,,2", "1,", ",1", "[1,2", "1]", "[1}", "\"abc", "{\"a\": 1", "1, ,2"}) {
    INFO(bad);
    CHECK(splitFails(bad));
  }
}

TEST_CASE("sweep: 2 x 3 values expand into 6 job scenes, --emit parallel runs nothing",
          "[cli][sweep]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string out = dir.file("sweep");
  const Result r =
      cli({"sweep", scene, "--vary", "fluid.density=1.2,998", "--vary",
           "bodies.0.delta=auto,0,0.004", "--out", out, "--emit", "parallel", "--exe", "samara"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("6 jobs (2 x 3)"));
  CHECK_THAT(r.out, Catch::Contains("run_parallel.sh"));

  // The first --vary changes slowest.
  const double densities[] = {1.2, 998.0};
  const std::optional<double> deltas[] = {std::nullopt, 0.0, 0.004};
  for (int j = 0; j < 6; ++j) {
    const std::string job = out + "/job_000" + std::to_string(j + 1) + ".json";
    INFO(job);
    REQUIRE(fs::exists(job));
    const samara::core::WorldDef def = samara::io::loadScene(job);
    CHECK(def.fluid.density == densities[j / 3]);
    CHECK(def.bodies.at(0).delta == deltas[j % 3]);
    CHECK(!def.bodies.at(1).delta.has_value());  // untouched
    CHECK(def.duration == 0.1);
    CHECK(def.bodies.size() == 2);
  }
  CHECK(!fs::exists(out + "/job_0007.json"));

  const Strings jobs = lines(readText(out + "/jobs.txt"));
  REQUIRE(jobs.size() == 6);
  CHECK(jobs[0] == "samara sweep-job " + out + "/job_0001.json");
  CHECK(jobs[5] == "samara sweep-job " + out + "/job_0006.json");

  const nlohmann::json sweep = readJson(out + "/sweep.json");
  CHECK(sweep["vary"][1]["path"] == "bodies.0.delta");
  CHECK(sweep["vary"][1]["values"] == nlohmann::json({"auto", "0", "0.004"}));
  REQUIRE(sweep["jobs"].size() == 6);
  CHECK(sweep["jobs"][4]["values"] == nlohmann::json({"998", "0"}));
  CHECK(sweep["jobs"][4]["bodies"] == nlohmann::json({"ball", "card"}));

  const std::string script = readText(out + "/run_parallel.sh");
  CHECK_THAT(script, Catch::StartsWith("#!/bin/sh\n"));
  CHECK_THAT(script, Catch::Contains("\"$@\" < " + out + "/jobs.txt\n"));
  CHECK_THAT(script, Catch::Contains("samara sweep --collect " + out + "\n"));
  struct stat st {};
  REQUIRE(::stat((out + "/run_parallel.sh").c_str(), &st) == 0);
  CHECK((st.st_mode & S_IXUSR) != 0);
  // Nothing ran.
  CHECK(resultFiles(out).empty());
  CHECK(!fs::exists(out + "/summary.csv"));
}

TEST_CASE("sweep: array values, mesh paths from another directory, --emit slurm", "[cli][sweep]") {
  TempDir dir;
  fs::create_directories(dir.path() / "scenes");
  fs::create_directories(dir.path() / "meshes");
  fs::copy_file(kMeshes + "/cube_quads.obj", dir.path() / "meshes" / "cube.obj");
  const std::string scene = dir.write("scenes/cube.json", R"({
    "sim": {"dt": 0.01, "duration": 0.1}, "fluid": {"density": 1.225},
    "bodies": [{"name": "cube", "mesh": "../meshes/cube.obj", "mass": {"density": 50}}]})");
  const std::string out = dir.file("runs/wind");
  const Result r = cli({"sweep", scene, "--vary", "fluid.wind=[0,0,0], [1.5,0,0]", "--vary",
                        "bodies.0.position=[0,1,0],[0,2,0],[0,3,0]", "--out", out, "--emit",
                        "slurm", "--exe", "samara"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const samara::core::WorldDef source = samara::io::loadScene(scene);
  for (int j = 0; j < 6; ++j) {
    const samara::core::WorldDef def =
        samara::io::loadScene(out + "/job_000" + std::to_string(j + 1) + ".json");
    CHECK(def.fluid.wind == (j < 3 ? samara::Vec3(0, 0, 0) : samara::Vec3(1.5, 0, 0)));
    CHECK(def.bodies.at(0).position == samara::Vec3(0, 1 + j % 3, 0));
    CHECK(def.bodies.at(0).mesh.V == source.bodies.at(0).mesh.V);  // the same OBJ file
    CHECK(def.bodies.at(0).mesh.F == source.bodies.at(0).mesh.F);
  }
  const std::string slurm = readText(out + "/sweep.slurm");
  CHECK_THAT(slurm, Catch::StartsWith("#!/bin/bash\n"));
  CHECK_THAT(slurm, Catch::Contains("\n#SBATCH --array=1-6\n"));
  CHECK_THAT(slurm, Catch::Contains("${SLURM_ARRAY_TASK_ID}p\" " + out + "/jobs.txt)"));
  CHECK(lines(readText(out + "/jobs.txt")).size() == 6);
  CHECK(resultFiles(out).empty());
  CHECK(!fs::exists(out + "/summary.csv"));
  CHECK(!fs::exists(out + "/run_parallel.sh"));
}

TEST_CASE("sweep: a job's result is `samara run` of its scene", "[cli][sweep]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string out = dir.file("sweep");
  const Result r = cli({"sweep", scene, "--vary", "fluid.density=1.225,40", "--duration", "0.3",
                        "--jobs", "2", "--out", out});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("2 jobs (2)"));
  CHECK_THAT(r.out, Catch::Contains("2 ok, 0 failed"));

  const Strings summary = lines(readText(out + "/summary.csv"));
  REQUIRE(summary.size() == 1 + 2 * 2);
  CHECK(summary[0] == "job,fluid.density,body,fall_speed,spin_rate,pattern,status");
  for (int j = 1; j <= 2; ++j) {
    const std::string job = out + "/job_000" + std::to_string(j) + ".json";
    const nlohmann::json result = readJson(out + "/job_000" + std::to_string(j) + ".result.json");
    CHECK(result["status"] == "ok");
    CHECK(result["steps"] == 30);
    REQUIRE(result["bodies"].size() == 2);

    const Result run = cli({"run", job});
    REQUIRE(run.code == 0);
    const auto means = csvMeans(run.out, 0.3);
    const Result text = cli({"run", job, "--summary", "--classify"});
    REQUIRE(text.code == 0);
    for (int b = 0; b < 2; ++b) {
      const nlohmann::json& body = result["bodies"][b];
      const std::string name = body["name"];
      INFO(job << " " << name);
      const double fall = body["fall_speed"];
      const double spin = body["spin_rate"];
      CHECK(fall == means.at(name).first);  // the same bits as the CSV's mean
      CHECK(spin == means.at(name).second);
      CHECK(fall > 0.0);
      CHECK_THAT(text.out, Catch::Contains("mean fall speed " + g4(fall) + " m/s over the last"));
      CHECK_THAT(text.out, Catch::Contains("pattern  " + name + ": " +
                                           body["pattern"].get<std::string>() + " ("));
      // Final COM: the last CSV row of the body.
      const Strings rows = lines(run.out);
      const Strings last = fields(rows[rows.size() - 2 + static_cast<std::size_t>(b)]);
      REQUIRE(last[1] == name);
      CHECK(g17(body["final_com"][0]) == last[2]);
      CHECK(g17(body["final_com"][1]) == last[3]);
      CHECK(g17(body["final_com"][2]) == last[4]);
      // The summary row.
      const Strings row = fields(summary[static_cast<std::size_t>(2 * (j - 1) + b + 1)]);
      CHECK(row == Strings{std::to_string(j), j == 1 ? "1.225" : "40", name, g17(fall), g17(spin),
                           body["pattern"].get<std::string>(), "ok"});
    }
    // `samara sweep-job` in another process writes the same numbers.
    const nlohmann::json before = result;
    const Result again = exe(dir, "sweep-job " + quote(job));
    INFO(again.err);
    CHECK(again.code == 0);
    const nlohmann::json after = readJson(out + "/job_000" + std::to_string(j) + ".result.json");
    CHECK(after["bodies"] == before["bodies"]);
  }
}

TEST_CASE("sweep: summary.csv is the same for --jobs 1, --jobs 2 and the job list by hand",
          "[cli][sweep]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  auto sweep = [&](const std::string& out, Strings extra) {
    Strings args = {"sweep",      scene,
                    "--vary",     "fluid.density=1.225,20",
                    "--vary",     "bodies.1.delta=auto,0",
                    "--duration", "0.2",
                    "--out",      out};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  const Result one = sweep(dir.file("one"), {"--jobs", "1"});
  const Result two = sweep(dir.file("two"), {"--jobs", "2"});
  REQUIRE(one.code == 0);
  REQUIRE(two.code == 0);
  const std::string csv = readText(dir.file("one/summary.csv"));
  CHECK(readText(dir.file("two/summary.csv")) == csv);

  const Strings rows = lines(csv);
  REQUIRE(rows.size() == 1 + 4 * 2);
  CHECK(rows[0] == "job,fluid.density,bodies.1.delta,body,fall_speed,spin_rate,pattern,status");
  const Strings values[] = {{"1.225", "auto"}, {"1.225", "0"}, {"20", "auto"}, {"20", "0"}};
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const Strings f = fields(rows[k]);
    REQUIRE(f.size() == 8);
    const std::size_t job = (k - 1) / 2;
    CHECK(f[0] == std::to_string(job + 1));
    CHECK(f[1] == values[job][0]);
    CHECK(f[2] == values[job][1]);
    CHECK(f[3] == (k % 2 == 1 ? "ball" : "card"));
    CHECK(f[7] == "ok");
  }
  // The varied value changes the result: δ = 0 vs auto for the card, density for both.
  CHECK(fields(rows[2])[4] != fields(rows[4])[4]);
  CHECK(fields(rows[1])[4] != fields(rows[5])[4]);

  // The emitted job list, each line run by the shell, then --collect: the same bytes.
  const std::string by = dir.file("by_hand");
  REQUIRE(sweep(by, {"--emit", "parallel", "--exe", quote(kExe)}).code == 0);
  const Strings commands = lines(readText(by + "/jobs.txt"));
  REQUIRE(commands.size() == 4);
  CHECK(cli({"sweep", "--collect", by}).code == 3);  // nothing ran yet: 4 missing
  CHECK_THAT(readText(by + "/summary.csv"), Catch::Contains(",,,,missing\n"));
  for (const std::string& c : commands) {
    CHECK(std::system((c + " >/dev/null").c_str()) == 0);
  }
  const Result collected = cli({"sweep", "--collect", by});
  CHECK(collected.code == 0);
  CHECK_THAT(collected.out, Catch::Contains("4 jobs, 4 ok, 0 failed, 0 missing"));
  CHECK(readText(by + "/summary.csv") == csv);
}

TEST_CASE("sweep: run_parallel.sh with GNU parallel gives the local summary", "[cli][sweep]") {
  if (std::system("command -v parallel >/dev/null 2>&1") != 0) {
    WARN("GNU parallel is not installed (Debian: parallel): run_parallel.sh not run");
    return;
  }
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const Strings vary = {"sweep",      scene, "--vary", "fluid.density=1.225,20,998",
                        "--duration", "0.1"};
  Strings local = vary;
  local.insert(local.end(), {"--out", dir.file("local")});
  REQUIRE(cli(local).code == 0);
  Strings emit = vary;
  emit.insert(emit.end(), {"--out", dir.file("par"), "--emit", "parallel", "--exe", quote(kExe)});
  REQUIRE(cli(emit).code == 0);
  const std::string command = quote(dir.file("par/run_parallel.sh")) + " --jobs 2 </dev/null >" +
                              quote(dir.file("par.log")) + " 2>&1";
  CHECK(std::system(command.c_str()) == 0);
  CHECK(lines(readText(dir.file("par/parallel.log"))).size() == 1 + 3);  // header, 3 jobs
  CHECK(readText(dir.file("par/summary.csv")) == readText(dir.file("local/summary.csv")));
}

TEST_CASE("sweep: a failed job is recorded, the sweep exits 3", "[cli][sweep]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string out = dir.file("sweep");
  // One Newton iteration, no sub-steps and an unreachable tolerance: the first step fails;
  // with 25 iterations the job runs.
  const Result r = cli({"sweep", scene, "--set", "sim.max_halvings=0", "--set",
                        "sim.tolerance=1e-14", "--vary", "sim.max_iterations=25,1", "--out", out});
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains("1 ok, 1 failed"));
  CHECK_THAT(r.err, Catch::Contains("samara: sweep: job_0002 (sim.max_iterations=1): "));
  CHECK_THAT(r.err, Catch::Contains("simulation failed at step 1 of 10"));

  const nlohmann::json failed = readJson(out + "/job_0002.result.json");
  CHECK(failed["status"] == "failed");
  CHECK(failed["exit_code"] == 3);
  CHECK_THAT(failed["message"].get<std::string>(), Catch::Contains("simulation failed at step 1"));

  const Strings rows = lines(readText(out + "/summary.csv"));
  REQUIRE(rows.size() == 1 + 2 * 2);
  CHECK_THAT(rows[1], Catch::StartsWith("1,25,ball,"));
  CHECK_THAT(rows[1], Catch::EndsWith(",ok"));
  CHECK_THAT(rows[2], Catch::StartsWith("1,25,card,"));
  CHECK_THAT(rows[2], Catch::EndsWith(",ok"));
  for (const std::string body : {"ball", "card"}) {
    const std::string& row = rows[body == "ball" ? 3 : 4];
    CHECK_THAT(row, Catch::StartsWith("2,1," + body + ",,,,"));
    CHECK_THAT(row, Catch::Contains("failed: "));
    CHECK_THAT(row, Catch::Contains("simulation failed at step 1 of 10"));
  }

  // One job by itself: exit 3, the result written anyway.
  fs::remove(out + "/job_0002.result.json");
  const Result job = cli({"sweep-job", out + "/job_0002.json"});
  CHECK(job.code == 3);
  CHECK(readJson(out + "/job_0002.result.json")["status"] == "failed");

  // A result that is missing.
  fs::remove(out + "/job_0001.result.json");
  const Result c = cli({"sweep", "--collect", out});
  CHECK(c.code == 3);
  CHECK_THAT(c.out, Catch::Contains("2 jobs, 0 ok, 1 failed, 1 missing"));
  CHECK(lines(readText(out + "/summary.csv"))[1] == "1,25,ball,,,,missing");
  CHECK(lines(readText(out + "/summary.csv"))[2] == "1,25,card,,,,missing");
}

TEST_CASE("sweep: bad input and usage errors", "[cli][sweep]") {
  TempDir dir;
  const std::string scene = dir.write("ball.json", kBallScene);
  const std::string out = dir.file("sweep");
  auto sweep = [&](Strings extra) {
    Strings args = {"sweep", scene};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  SECTION("unknown --vary path: the message names the job's values") {
    const Result r = sweep({"--vary", "fluid.densty=1,2", "--out", out});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::StartsWith("samara: sweep: job 1 of 2 (fluid.densty=1): "));
    CHECK_THAT(r.err, Catch::Contains("unknown key \"densty\""));
    CHECK(!fs::exists(out));  // nothing written
  }
  SECTION("an array element that does not exist") {
    const Result r = sweep({"--vary", "bodies.5.delta=0,1", "--out", out});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::StartsWith("samara: sweep: job 1 of 2 (bodies.5.delta=0): "));
    CHECK_THAT(r.err, Catch::Contains("does not exist"));
  }
  SECTION("a bad value in one job only") {
    const Result r =
        sweep({"--vary", "bodies.0.delta=0,1", "--vary", "fluid.density=1,-3", "--out", out});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("job 2 of 4 (bodies.0.delta=0, fluid.density=-3): "));
    CHECK_THAT(r.err, Catch::Contains("/fluid/density"));
    CHECK(!fs::exists(out));
  }
  SECTION("usage") {
    const std::vector<std::pair<Strings, std::string>> cases = {
        {{"--vary", "fluid.density=", "--out", out}, "--vary fluid.density has no values"},
        {{"--vary", "fluid.density", "--out", out}, "--vary needs PATH=V1,V2,..."},
        {{"--vary", "fluid.wind=[0,0", "--out", out}, "missing ']'"},
        {{"--vary", "fluid.density=1,,2", "--out", out}, "empty value"},
        {{"--vary", "fluid.density=1", "--vary", "fluid.density=2", "--out", out}, "twice"},
        {{"--out", out}, "at least one --vary"},
        {{"--vary", "fluid.density=1,2"}, "missing --out DIR"},
        {{"--vary", "fluid.density=1", "--out", out, "--jobs", "2", "--emit", "slurm"},
         "give one of them"},
        {{"--vary", "fluid.density=1", "--out", out, "--emit", "pbs"}, "parallel or slurm"},
        {{"--vary", "fluid.density=1", "--out", out, "--jobs", "0"}, "--jobs needs an integer"},
        {{"--vary", "fluid.density=1", "--out", out, "--bogus"}, "unknown option --bogus"},
    };
    for (const auto& [args, message] : cases) {
      const Result r = sweep(args);
      INFO(r.err);
      CHECK(r.code == 2);
      CHECK_THAT(r.err, Catch::Contains(message));
    }
    CHECK(!fs::exists(out));
  }
  SECTION("more than 100000 combinations") {
    std::string values;
    for (int k = 0; k < 50; ++k) values += (k ? "," : "") + std::to_string(k + 1);
    const Result r = sweep({"--vary", "fluid.density=" + values, "--vary", "sim.dt=" + values,
                            "--vary", "sim.duration=" + values, "--out", out});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("more than 100000 combinations (50 x 50 x 50)"));
  }
  SECTION("a directory that cannot be made") {
    dir.write("file", "x");
    const Result r = sweep({"--vary", "fluid.density=1,2", "--out", dir.file("file/sub")});
    CHECK(r.code == 1);
    CHECK(r.err == "samara: cannot create folder '" + dir.file("file/sub") + "': '" +
                       dir.file("file") + "' is not a folder\n");
  }
  SECTION("--collect of a directory that is not a sweep") {
    const Result r = cli({"sweep", "--collect", dir.path().string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("sweep.json: not found"));
    CHECK(cli({"sweep", "--collect", dir.path().string(), "--jobs", "2"}).code == 2);
  }
  SECTION("help") {
    const Result r = cli({"help", "sweep"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("usage: samara sweep SCENE --vary"));
    CHECK_THAT(cli({"sweep-job", "--help"}).out, Catch::StartsWith("usage: samara sweep-job"));
    CHECK_THAT(cli({"--help"}).out, Catch::Contains("  sweep SCENE --vary"));
  }
}
