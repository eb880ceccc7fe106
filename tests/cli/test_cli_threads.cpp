// --threads N (run, export, bench, view): the bodies stepped on N threads give the same
// bytes as on one, in separate processes; bench reports the count; the helps name it.
#include <string>
#include <tuple>
#include <vector>

#include "cli_test_util.h"

using namespace samara_cli_test;

namespace {

const std::string kScenes = kSource + "/assets/scenes/";

}  // namespace

TEST_CASE("run --threads 1 and --threads 2 write the same CSV bytes", "[cli][threads]") {
  TempDir dir;
  for (const char* scene : {"falling_plates_air.json", "leaves_gusts.json"}) {
    INFO(scene);
    const std::string path = quote(kScenes + scene);
    const std::string a = dir.file("a.csv"), b = dir.file("b.csv"), c = dir.file("c.csv");
    REQUIRE(exe(dir, "run " + path + " --duration 0.1 --threads 1 -o " + quote(a)).code == 0);
    REQUIRE(exe(dir, "run " + path + " --duration 0.1 --threads 2 -o " + quote(b)).code == 0);
    REQUIRE(exe(dir, "run " + path + " --duration 0.1 --threads 8 -o " + quote(c)).code == 0);
    const std::string csv = readText(a);
    CHECK(lines(csv).size() > 100);
    CHECK(csv == readText(b));
    CHECK(csv == readText(c));
  }
  // export's rows, too.
  const std::string plates = quote(kScenes + "falling_plates_air.json");
  const Result one = exe(dir, "export " + plates + " --format csv -o - --duration 0.2 --threads 1");
  const Result two = exe(dir, "export " + plates + " --format csv -o - --duration 0.2 --threads=2");
  REQUIRE(one.code == 0);
  REQUIRE(two.code == 0);
  CHECK(lines(one.out).size() > 9);
  CHECK(one.out == two.out);
}

TEST_CASE("run --every N steps in blocks between its rows: the rows of --every 1",
          "[cli][threads]") {
  TempDir dir;
  const std::string path = quote(kScenes + "leaves_gusts.json");
  const std::string a = dir.file("a.csv"), b = dir.file("b.csv"), c = dir.file("c.csv");
  REQUIRE(exe(dir, "run " + path + " --duration 0.3 --every 1 -o " + quote(a)).code == 0);
  REQUIRE(exe(dir, "run " + path + " --duration 0.3 --every 10 -o " + quote(b)).code == 0);
  REQUIRE(exe(dir, "run " + path + " --duration 0.3 --every 75 --threads 2 -o " + quote(c)).code ==
          0);
  const std::vector<std::string> all = lines(readText(a));
  // Every body's row at t = 0 and after every N-th step (the header first).
  auto every = [&](std::size_t n, std::size_t bodies) {
    std::vector<std::string> out{all[0]};
    const std::size_t samples = (all.size() - 1) / bodies;
    for (std::size_t k = 0; k < samples; k += n) {
      for (std::size_t i = 0; i < bodies; ++i) out.push_back(all[1 + k * bodies + i]);
    }
    return out;
  };
  const std::size_t bodies = 3;  // beech, maple, willow
  REQUIRE((all.size() - 1) % bodies == 0);
  REQUIRE(all.size() == 1 + 151 * bodies);
  CHECK(lines(readText(b)) == every(10, bodies));
  CHECK(lines(readText(c)) == every(75, bodies));
}

TEST_CASE("run --summary takes the steps before its last second in blocks: the same figures",
          "[cli][threads]") {
  TempDir dir;
  const std::string path = quote(kScenes + "leaves_gusts.json");
  // --classify sees every step, so it steps one at a time: the summary must not differ.
  const Result blocks = exe(dir, "run " + path + " --duration 2.5 --summary -o /dev/null");
  const Result steps =
      exe(dir, "run " + path + " --duration 2.5 --summary --classify -o /dev/null");
  REQUIRE(blocks.code == 0);
  REQUIRE(steps.code == 0);
  auto figures = [](const std::string& out) {
    std::string kept;
    bool final = false;
    for (const std::string& l : lines(out)) {
      if (l.rfind("newton", 0) == 0 || l.rfind("final", 0) == 0) final = true;
      if (l.rfind("csv", 0) == 0 || l.rfind("pattern", 0) == 0) final = false;
      if (final) kept += l + "\n";
    }
    return kept;
  };
  const std::string a = figures(blocks.out);
  CHECK_THAT(a, Catch::Contains("iterations per step on average"));
  CHECK_THAT(a, Catch::Contains("mean fall speed"));
  CHECK(a == figures(steps.out));
}

TEST_CASE("a step that fails says the same on 1 and 2 threads", "[cli][threads]") {
  TempDir dir;
  // Two bodies that both fail at the first step (one Newton iteration, no sub-steps): the
  // first in the file is named, on any thread count.
  const std::string card = R"({"name": "card", "mesh": {"primitive": "plate", "size": [0.1, 0.06]},
       "mass": {"density": 700, "thickness": 0.0002}, "position": [1, 1, 0]})";
  const std::string ball = R"({"name": "ball",
       "mesh": {"primitive": "sphere", "radius": 0.1, "subdivisions": 2},
       "mass": {"density": 2000}, "velocity": [0, -3, 0], "angular_velocity": [5, 1, 0]})";
  const std::string sim = R"("sim": {"dt": 0.05, "duration": 1, "max_iterations": 1,
       "max_halvings": 0, "tolerance": 1e-14}, "fluid": {"density": 998})";
  for (const auto& [first, second, named] :
       {std::tuple{card, ball, "card"}, std::tuple{ball, card, "ball"}}) {
    const std::string scene =
        dir.write("fail.json", "{" + sim + ", \"bodies\": [" + first + ", " + second + "]}");
    std::string messages[2];
    for (int threads : {1, 2}) {
      const std::string csv = dir.file("out.csv");
      const Result r = exe(dir, "run " + quote(scene) + " --threads " + std::to_string(threads) +
                                    " -o " + quote(csv));
      CHECK(r.code == 3);
      CHECK_FALSE(fs::exists(csv));
      messages[threads - 1] = r.err;
      // In a block of steps (no row until step 1000), the same message.
      const Result block = exe(dir, "run " + quote(scene) + " --every 1000 --threads " +
                                        std::to_string(threads) + " -o " + quote(csv));
      CHECK(block.code == 3);
      CHECK(block.err == r.err);
    }
    CHECK_THAT(messages[0], Catch::Contains(std::string("step 1 of 20 (t = 0 s): body '") + named +
                                            "': Newton did not converge"));
    CHECK(messages[0] == messages[1]);
  }
}

TEST_CASE("bench reports its thread count and the helps name --threads", "[cli][threads]") {
  const std::string plate = kFallingPlate;
  const Result text = cli({"bench", "--duration", "0.02", "--threads", "2", plate});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Catch::StartsWith("samara bench: 0.02 s simulated per scene, 2 threads"));
  const Result json = cli({"bench", "--json", "--duration=0.02", "--threads=1", plate});
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"threads\": 1"));
  for (const char* command : {"run", "export", "bench", "view"}) {
    INFO(command);
    CHECK_THAT(cli({"help", command}).out, Catch::Contains("--threads N"));
  }
  CHECK(cli({"run", plate, "--threads", "0"}).code == 2);
}
