// Peak memory of loading and stepping large meshes, measured in a child process (its peak
// resident set, VmHWM, reset before the work starts). Release builds only: sanitizers
// change every figure (tests/io/memory_tests.cmake).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/world.h"
#include "io/obj.h"
#include "io/scene.h"
#include "io_test_util.h"

using namespace samara;
using samara::io::test::TempDir;
using samara::io::test::writeText;

namespace {

/// A field of /proc/self/status in bytes ("VmRSS", "VmHWM"), or -1.
std::int64_t statusBytes(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == std::string(field) + ":") {
      std::int64_t kb = -1;
      in >> kb;
      return kb * 1024;
    }
    in.ignore(1 << 20, '\n');
  }
  return -1;
}

/// What `fn` adds to the peak resident memory, in bytes: measured in a forked child that
/// resets its peak (clear_refs 5), notes its resident set, runs `fn` and reads its peak.
/// -1 if fn threw or the child failed.
std::int64_t peakBytesOf(const std::function<void()>& fn) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    std::int64_t added = -1;
    {
      std::ofstream("/proc/self/clear_refs") << "5";
      const std::int64_t base = statusBytes("VmRSS");
      try {
        fn();
        added = statusBytes("VmHWM") - base;
      } catch (...) {
        added = -1;
      }
    }
    const ssize_t n = write(fds[1], &added, sizeof added);
    _exit(n == sizeof added ? 0 : 1);
  }
  close(fds[1]);
  std::int64_t added = -1;
  const ssize_t n = read(fds[0], &added, sizeof added);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (n != sizeof added || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return added;
}

/// Writes an OBJ plate of cells × cells squares (2 triangles each) in the x-z plane, 0.1 m
/// wide, coordinates as exporters write them ("%.6f"), without holding it in memory.
void writePlateObj(const std::string& path, int cells) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  REQUIRE(f != nullptr);
  const int n = cells + 1;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      std::fprintf(f, "v %.6f 0 %.6f\n", 0.1 * i / cells, 0.1 * j / cells);
  }
  for (int i = 0; i < cells; ++i) {
    for (int j = 0; j < cells; ++j) {
      const int a = i * n + j + 1;
      const int b = a + n;
      std::fprintf(f, "f %d %d %d\nf %d %d %d\n", a, a + 1, b, a + 1, b + 1, b);
    }
  }
  REQUIRE(std::fclose(f) == 0);
}

}  // namespace

TEST_CASE("Loading a large OBJ scene peaks below three times the file size", "[io][memory][slow]") {
  TempDir dir("memory");
  const int cells = 1000;  // 2·10⁶ faces, about 80 MB
  writePlateObj(dir.file("plate.obj"), cells);
  writeText(dir.file("plate.json"),
            R"({"bodies": [{"mesh": "plate.obj", "mass": {"density": 500, "thickness": 0.001}}]})");
  const auto fileBytes =
      static_cast<std::int64_t>(std::filesystem::file_size(dir.file("plate.obj")));
  REQUIRE(fileBytes > 50'000'000);

  const std::int64_t peak = peakBytesOf([&] {
    const core::WorldDef def = io::loadScene(dir.file("plate.json"));
    if (def.bodies.at(0).mesh.numFaces() != 2 * cells * cells) throw 1;
  });
  REQUIRE(peak > 0);
  const double perFace = static_cast<double>(peak) / (2.0 * cells * cells);
  INFO("file " << fileBytes << " bytes, peak " << peak << " bytes (" << perFace << " per face, "
               << static_cast<double>(peak) / fileBytes << "x the file)");
  CHECK(peak <= 3 * fileBytes);
  // V and F are 24 bytes per face here; the peak holds them twice (the scene's copy of
  // each OBJ it read and the body's) and the mesh check adds about 25 (README, "Memory").
  CHECK(perFace < 60.0);
}

TEST_CASE("A large body's world and first step stay within the documented memory per face",
          "[io][memory][slow]") {
  // A closed box of 12·300² = 1.08·10⁶ faces (the primitive is built in memory: no file).
  TempDir dir("memory");
  writeText(dir.file("box.json"), R"({"bodies": [{"mesh": {"primitive": "box",
      "size": [0.1, 0.1, 0.1], "cells": 300}, "mass": {"density": 500}}]})");
  const double faces = 12.0 * 300 * 300;
  const std::int64_t peak = peakBytesOf([&] {
    core::World world = io::makeWorld(io::loadScene(dir.file("box.json")), dir.file("box.json"));
    if (!world.step().ok()) throw 1;
  });
  REQUIRE(peak > 0);
  INFO("peak " << peak << " bytes, " << peak / faces << " bytes per face");
  // README ("Memory"): about 210 bytes per face for a rigid body, so that 10⁷ faces (the
  // scene limit) stay near 2.1 GB.
  CHECK(peak / faces < 230.0);
}
