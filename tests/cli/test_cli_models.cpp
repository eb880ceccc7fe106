// `samara forces` and the scene key "model" (issue 6): numbers on hand-worked cases,
// wind equivalence, and messages for bad input.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "core/gwtf_model.h"

namespace {

std::vector<double> forceRow(const std::string& line) {
  const std::vector<std::string> f = fields(line);
  REQUIRE(f.size() == 9);
  std::vector<double> v;
  for (size_t i = 3; i < 9; ++i) v.push_back(std::stod(f[i]));
  return v;
}

}  // namespace

TEST_CASE(
    "forces: broadside card equals c rho A |u|^2 (1 + C_D0/2), edge-on Blasius-Imai friction "
    "and the edge drag",
    "[cli][forces]") {
  TempDir dir;
  const std::string scene = dir.write("s.json", kBallScene);
  const std::string states =
      dir.write("st.csv",
                "# card broadside, falling at 1 m/s; then the same card edge-on\n"
                "body,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
                "card,1,0,0,0,0,-1,0,0,0,0\n"
                "1,1,0,0,0,1,0,0,0,0,0\n");
  Result r = cli({"forces", scene, "--states", states});
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 3);
  CHECK(ls[0] == "line,body,model,fx,fy,fz,tx,ty,tz");
  CHECK(ls[1].rfind("3,card,samara,", 0) == 0);
  const std::vector<double> broad = forceRow(ls[1]);
  // Sheet: c = 1, A = 0.1 × 0.06 m², ρ = 1.225 kg/m³, |u|² = 1: the pressure force
  // c ρ A |u|² = 7.35 mN upwards plus the default law's edge drag k (C_D0/2) |u|² (C_D0 =
  // 0.3, on a sheet in full); the circulation C_T vanishes broadside (u ∥ n) and edge-on.
  const double cd0 = samara::core::kCirculationCandidate.cd0;
  CHECK(broad[1] == Approx(1.225 * 0.006 * (1.0 + 0.5 * cd0)).epsilon(1e-12));
  CHECK(std::abs(broad[0]) + std::abs(broad[2]) < 1e-15);
  CHECK(std::abs(broad[3]) + std::abs(broad[4]) + std::abs(broad[5]) < 1e-15);
  // Edge-on at 1 m/s: skin friction only (laminar Blasius with Imai's leading-edge term,
  // both sides), C_f = 1.328 Re^-½ + 2.326 Re^-1 per side, Re = |u| L/ν with L = 2ℓ and
  // ℓ² = 1.5 (a² + b²)/12 (the half-chord of a square plate).
  const std::vector<double> edge = forceRow(ls[2]);
  const double nu = 1.81e-5 / 1.225;
  const double L = 2.0 * std::sqrt(1.5 * (0.1 * 0.1 + 0.06 * 0.06) / 12.0);
  const double Re = 1.0 * L / nu;
  const double cf = 1.328 / std::sqrt(Re) + 2.326 / Re;
  CHECK(edge[0] == Approx(-(2.0 * cf * 0.5 + 0.5 * cd0) * 1.225 * 0.006).epsilon(1e-12));
  CHECK(std::abs(edge[1]) + std::abs(edge[2]) < 1e-15);
  CHECK(std::abs(edge[3]) + std::abs(edge[4]) + std::abs(edge[5]) < 1e-15);
  // The paper's model has no tangential force at all.
  r = cli({"forces", scene, "--states", states, "--set", "bodies.1.model=gwtf-2024"});
  REQUIRE(r.code == 0);
  for (double x : forceRow(lines(r.out)[2])) CHECK(std::abs(x) < 1e-15);

  r = cli({"forces", scene, "--states", states, "--set", "bodies.1.model=vacuum"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out)[1] == "3,card,vacuum,0,0,0,0,0,0");
}

TEST_CASE("forces: wind is the same as moving the body the other way", "[cli][forces]") {
  TempDir dir;
  const std::string scene = dir.write("s.json", kBallScene);
  const std::string states = dir.write("st.csv",
                                       "body,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,windx,windy,windz\n"
                                       "card,0.9,0.3,-0.2,0.1,0.4,-1.1,0.3,2,-1,0.5,1.5,0.2,-0.7\n"
                                       "card,0.9,0.3,-0.2,0.1,-1.1,-1.3,1.0,2,-1,0.5,0,0,0\n"
                                       "ball,0.9,0.3,-0.2,0.1,0.4,-1.1,0.3,2,-1,0.5,1.5,0.2,-0.7\n"
                                       "ball,0.9,0.3,-0.2,0.1,-1.1,-1.3,1.0,2,-1,0.5,0,0,0\n");
  const Result r = cli({"forces", scene, "--states", states});
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 5);
  for (int k : {1, 3}) {
    const std::vector<double> a = forceRow(ls[k]), b = forceRow(ls[k + 1]);
    double scale = 0.0;
    for (double x : a) scale = std::max(scale, std::abs(x));
    REQUIRE(scale > 1e-4);
    for (size_t i = 0; i < 6; ++i) CHECK(std::abs(a[i] - b[i]) <= 1e-14 * scale);
  }
}

TEST_CASE("forces: bad input names the file and line, --out is atomic", "[cli][forces][errors]") {
  TempDir dir;
  const std::string scene = dir.write("s.json", kBallScene);
  Result r = cli({"forces", scene});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("missing --states"));

  // States files of one bad row: exit 1, the error names the file, line (and column).
  const std::string header = "body,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
  struct BadStates {
    const char* file;
    const char* row;
    bool out;  ///< with --out f.csv
    std::vector<std::string> messages;
  };
  const BadStates bad[] = {
      {"b.csv", "kite,1,0,0,0,0,0,0,0,0,0\n", true, {"b.csv:2: no body \"kite\"", "ball, card"}},
      {"n.csv",
       "ball,1,0,0,0,0,x,0,0,0,0\n",
       true,
       {"n.csv:2:7: column \"vy\": expected a finite number"}},
      {"q.csv", "ball,0,0,0,0,0,0,0,0,0,0\n", false, {"q.csv:2:2: the quaternion"}},
  };
  for (const BadStates& b : bad) {
    std::vector<std::string> args = {"forces", scene, "--states",
                                     dir.write(b.file, header + b.row)};
    if (b.out) args.insert(args.end(), {"--out", dir.file("f.csv")});
    r = cli(args);
    CHECK(r.code == 1);
    for (const std::string& m : b.messages) CHECK_THAT(r.err, Catch::Contains(m));
  }
  CHECK_FALSE(fs::exists(dir.file("f.csv")));  // nothing half-written

  const std::string good = dir.write("g.csv", header + "ball,1,0,0,0,0,-2,0,0,0,0\n");
  r = cli({"forces", scene, "--states", good, "--out", dir.file("f.csv")});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(lines(readText(dir.file("f.csv"))).size() == 2);
}

TEST_CASE("scene key model: names, objects and mistakes", "[cli][model][errors]") {
  TempDir dir;
  Result r = cli({"run",
                  dir.write("a.json", ballSceneWith("\"name\": \"card\",",
                                                    "\"name\": \"card\", \"model\": \"vaccum\",")),
                  "--summary"});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("/bodies/1/model: unknown model \"vaccum\"; known models: "
                                    "samara, gwtf-2024, vacuum,"));
  r = cli({"run",
           dir.write("b.json",
                     ballSceneWith("\"name\": \"card\",", "\"name\": \"card\", \"model\": 3,")),
           "--summary"});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("/bodies/1/model: expected a model name"));
  r = cli({"run",
           dir.write("c.json", ballSceneWith("\"name\": \"card\",",
                                             "\"name\": \"card\", \"model\": {\"type\": "
                                             "\"vacuum\", \"fluidcoef\": [1]},")),
           "--summary"});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("/bodies/1/model"));
  CHECK_THAT(r.err, Catch::Contains("fluidcoef"));
}

TEST_CASE("run --classify prints each body's falling pattern", "[cli][classify]") {
  const std::string plate = kFallingPlate;
  Result r = cli({"run", plate, "--summary", "--classify", "--duration", "3"});
  REQUIRE(r.code == 0);
  // The shipped card (I* ≈ 2) tumbles under the default law, as heavy cards do (APW 2005),
  // turning in one sense while it glides down at an angle (the paper's model kept it
  // broadside).
  CHECK_THAT(r.out, Catch::Contains("pattern  plate: autorotation (d = "));
  CHECK_THAT(r.out, Catch::Contains("in one sense, no reversal"));
  CHECK_THAT(r.out, Catch::Contains("body     plate: model samara,"));
  // With the CSV on stdout the pattern goes to stderr and the CSV stays clean.
  r = cli({"run", plate, "--classify", "--duration", "0.1", "--every", "10"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("pattern") == std::string::npos);
  CHECK_THAT(r.err, Catch::StartsWith("pattern  plate: "));
  // Too short a fall: undetermined, with the reason.
  CHECK_THAT(r.err, Catch::Contains("undetermined"));
  CHECK_THAT(r.err, Catch::Contains("body lengths after the transient"));
}

TEST_CASE("run --classify: the default maple seed autorotates", "[cli][classify]") {
  // 6 s under the default model: 1.149 m/s over the last second, about 0.44 turns per
  // fallen body length, a one-signed spin.
  const Result r =
      cli({"run", kSource + "/assets/scenes/maple_seed.json", "--summary", "--classify"});
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("pattern  maple_seed: autorotation"));
  CHECK_THAT(r.out, Catch::Contains("mean fall speed 1.14"));
}
