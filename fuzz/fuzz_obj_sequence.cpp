// libFuzzer target: an OBJ sequence animation as a set of files → keyframes → evaluated
// shapes. The input is the scene's "animation" object (JSON), followed by files, each
// introduced by the marker "\n!FILE NAME\n"; they are written to a private temporary
// folder that the animation's paths are relative to. A file named "body.obj" becomes the
// body's mesh (the frames must then match it). io::Error is the expected outcome of a bad
// input; any other exception, a crash, a sanitizer report or a leak is a bug.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "io/animation_io.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/obj.h"

namespace {

namespace fs = std::filesystem;

const fs::path& folder() {
  static const fs::path dir = [] {
    const fs::path d =
        fs::temp_directory_path() / ("samara_fuzz_sequence." + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] { fs::remove_all(folder()); });
    return d;
  }();
  return dir;
}

/// A file name the harness writes: no folders, no "..", short.
bool plainName(const std::string& name) {
  return !name.empty() && name.size() <= 64 && name != "." && name != ".." &&
         name.find_first_of(std::string("/\\\0", 3)) == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const fs::path& dir = folder();
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) fs::remove_all(e.path());
  const std::string marker = "\n!FILE ";
  std::size_t end = input.find(marker);
  const std::string json = input.substr(0, end);
  int files = 0;
  while (end != std::string::npos && files < 16) {
    const std::size_t nameStart = end + marker.size();
    const std::size_t nameEnd = input.find('\n', nameStart);
    if (nameEnd == std::string::npos) break;
    end = input.find(marker, nameEnd + 1);
    const std::string name = input.substr(nameStart, nameEnd - nameStart);
    if (!plainName(name)) continue;
    std::ofstream(dir / name, std::ios::binary)
        << input.substr(nameEnd + 1, end == std::string::npos ? end : end - nameEnd - 1);
    ++files;
  }
  try {
    const samara::io::Json animation = samara::io::parseJson(json, "fuzz.json");
    samara::io::AnimationContext ctx;
    ctx.scenePath = "fuzz.json";
    ctx.baseDir = dir.string();
    ctx.maxFileBytes = 1 << 20;
    ctx.maxFrames = 64;
    ctx.maxSequenceVertices = 1 << 16;
    std::optional<samara::geometry::TriMesh> body;
    if (fs::exists(dir / "body.obj")) {
      body = samara::io::loadObj((dir / "body.obj").string(), ctx.maxFileBytes);
      ctx.mesh = &*body;
      ctx.meshFile = "body.obj";  // "parts" groups
    }
    const samara::io::LoadedAnimation a = samara::io::parseAnimation(animation, "", ctx);
    samara::geometry::VertexMatrix V;
    for (const double t : {0.0, 0.01, 0.5, 1.0 / 3.0, 7.25, -2.0, 1e12})
      a.animation->evaluate(t, &V);
  } catch (const samara::io::Error&) {
  }
  return 0;
}
