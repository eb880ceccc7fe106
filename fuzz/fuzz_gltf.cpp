// libFuzzer target: a glTF (.gltf text or .glb) with external buffers → bind-pose mesh and
// skinned animation. The input is the glTF followed by buffers, each introduced by the
// marker "\n!BUF NAME\n"; a buffer URI is looked up by NAME in that in-memory store (the
// same URI checks as for files apply). io::Error is the expected outcome of a bad file;
// any other exception, a crash, a sanitizer report or a leak is a bug.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/error.h"
#include "io/gltf/document.h"
#include "io/gltf_skin.h"

namespace {

constexpr std::uintmax_t kMaxBytes = 1 << 20;  // the glTF and its buffers together

void evaluate(const samara::core::ShapeAnimation& anim) {
  samara::geometry::VertexMatrix V;
  for (const double t : {0.0, 0.37, 1.0, 2.5, -1.0, 1e9}) anim.evaluate(t, &V);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string marker = "\n!BUF ";
  std::size_t end = input.find(marker);
  const std::string gltf = input.substr(0, end);
  std::map<std::string, std::string> store;
  while (end != std::string::npos) {
    const std::size_t nameStart = end + marker.size();
    const std::size_t nameEnd = input.find('\n', nameStart);
    if (nameEnd == std::string::npos) break;
    end = input.find(marker, nameEnd + 1);
    store[input.substr(nameStart, nameEnd - nameStart)] =
        input.substr(nameEnd + 1, end == std::string::npos ? end : end - nameEnd - 1);
  }
  const samara::io::gltf::BufferReader reader =
      [&store](const std::string& uri, std::uintmax_t maxBytes, std::vector<unsigned char>* out) {
        const auto it = store.find(uri);
        if (it == store.end()) throw samara::io::Error("", "not found");
        if (it->second.size() > maxBytes) throw samara::io::Error("", "is too large");
        out->assign(it->second.begin(), it->second.end());
      };
  try {
    const samara::io::gltf::Document doc("fuzz.gltf", gltf, kMaxBytes, reader);
    try {
      const samara::geometry::TriMesh mesh = samara::io::loadGltfMesh(doc);
      (void)mesh.numFaces();
    } catch (const samara::io::Error&) {
    }
    samara::io::GltfSkinOptions options;
    options.weld = (size % 2) == 0;
    options.loop = (size % 3) != 0;
    samara::geometry::TriMesh rest;
    const auto anim = samara::io::loadGltfSkin(doc, options, &rest);
    if (anim) evaluate(*anim);
  } catch (const samara::io::Error&) {
  }
  return 0;
}
