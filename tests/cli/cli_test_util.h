#pragma once
// Shared helpers of the command-line tests: runCli with string streams, the real
// executable, temporary directories and a small scene.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../test_util.h"
#include "cli/commands.h"

namespace fs = std::filesystem;

namespace samara_cli_test {

const std::string kSource = SAMARA_SOURCE_DIR;
const std::string kExe = SAMARA_EXE;
const std::string kMeshes = kSource + "/tests/data/meshes";

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

/// runCli in this process, with string streams.
inline Result cli(std::vector<std::string> args) {
  args.insert(args.begin(), "samara");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::ostringstream out;
  std::ostringstream err;
  Result r;
#if defined(SAMARA_HAVE_VIEWER)
  // As in a viewer build: `view` options are parsed (main() registers the real viewer).
  const samara::cli::ViewHandler view = [](const samara::cli::ViewArgs&, std::ostream&,
                                           std::ostream&) { return 0; };
#else
  const samara::cli::ViewHandler view;
#endif
  r.code = samara::cli::runCli(static_cast<int>(args.size()), argv.data(), out, err, view);
  r.out = out.str();
  r.err = err.str();
  return r;
}

using samara::test::readText;
using samara::test::writeText;

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// A fresh directory for one test case ("samara_test_cli_<pid>_<counter>"), removed
/// afterwards.
class TempDir : public samara::test::TempDir {
 public:
  TempDir() : samara::test::TempDir("cli") {}
  /// Writes `text` to `name` in this directory; returns the path.
  std::string write(const std::string& name, const std::string& text) const {
    writeText(path() / name, text);
    return file(name);
  }
  /// Names of the entries of the directory.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path())) names.push_back(e.path().filename());
    return names;
  }
};

/// The real executable; stdout and stderr captured through files.
inline Result exe(const TempDir& dir, const std::string& args) {
  static int counter = 0;
  const std::string out = dir.file("stdout" + std::to_string(counter));
  const std::string err = dir.file("stderr" + std::to_string(counter++));
  const std::string command = quote(kExe) + " " + args + " >" + quote(out) + " 2>" + quote(err);
  const int status = std::system(command.c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readText(out);
  r.err = readText(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

inline std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

const char* const kHeader =
    "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,Lx,Ly,Lz,Px,Py,Pz,fall_speed,spin_rate,"
    "kinetic_energy,newton_iters";

/// A small, fast scene: a light ball falling in air for 0.1 s with dt = 0.01.
const char* const kBallScene = R"({
  // a comment
  "name": "ball",
  "fluid": {"density": 1.225},
  "sim": {"dt": 0.01, "duration": 0.1},
  "bodies": [
    {"name": "ball", "mesh": {"primitive": "sphere", "radius": 0.05, "subdivisions": 2},
     "mass": {"density": 200}, "position": [0, 1, 0], "angular_velocity": [0, 2, 0]},
    {"name": "card", "mesh": {"primitive": "plate", "size": [0.1, 0.06], "segments": [2, 2]},
     "mass": {"density": 700, "thickness": 0.0002}, "position": [1, 1, 0],
     "orientation": {"axis": [0, 0, 1], "angle_deg": 20}}
  ]
})";

/// One Newton iteration, no sub-steps and an unreachable tolerance: the first step fails.
const char* const kFailingScene = R"({
  "sim": {"dt": 0.05, "duration": 1, "max_iterations": 1, "max_halvings": 0,
          "tolerance": 1e-14},
  "fluid": {"density": 998},
  "bodies": [{"name": "ball", "mesh": {"primitive": "sphere", "radius": 0.1, "subdivisions": 2},
              "mass": {"density": 2000}, "velocity": [0, -3, 0],
              "angular_velocity": [5, 1, 0]}]})";

/// The shipped falling-plate scene.
const std::string kFallingPlate = kSource + "/assets/scenes/falling_plate.json";

/// A command line that is a usage error with `message`.
struct UsageError {
  std::vector<std::string> args;
  const char* message;
};

/// Runs each case with cli(): exit 2, its message in stderr, nothing on stdout.
inline void checkUsageErrors(const std::vector<UsageError>& cases) {
  for (const UsageError& c : cases) {
    std::string shown;
    for (const std::string& a : c.args) shown += a + " ";
    INFO("samara " << shown);
    const Result r = cli(c.args);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains(c.message));
    CHECK(r.out.empty());
  }
}

/// kBallScene with `from` replaced by `to` (which must occur).
inline std::string ballSceneWith(const std::string& from, const std::string& to) {
  std::string s = kBallScene;
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace samara_cli_test

using namespace samara_cli_test;
