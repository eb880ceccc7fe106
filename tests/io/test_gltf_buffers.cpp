// A glTF's external buffers (io/gltf/document.h): every buffer URI goes through the buffer
// reader after the URI checks, the glTF and its buffers share one byte budget, and images
// never reach the reader. The files themselves (folder, symbolic links, FIFOs, sizes) are
// checked end to end in tests/bad_input/gltf.jsonc.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "io/error.h"
#include "io/gltf/document.h"
#include "io/gltf_skin.h"

using Catch::Matchers::Contains;
using samara::io::Error;
using samara::io::gltf::BufferReader;
using samara::io::gltf::Document;

namespace {

/// A unit tetrahedron whose positions (48 bytes) and indices (24 bytes) are the buffers
/// `posUri` and `idxUri`, plus `extra` JSON members (e.g. images).
std::string tetGltf(const std::string& posUri, const std::string& idxUri,
                    const std::string& extra = "") {
  return R"({"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    "buffers": [{"uri": ")" +
         posUri + R"(", "byteLength": 48}, {"uri": ")" + idxUri + R"(", "byteLength": 24}],
    "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 1, "byteLength": 24}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                  {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}])" +
         extra + "}";
}

std::string bytesOf(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

std::string bytesOf(const std::vector<unsigned short>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(unsigned short));
}

/// An in-memory store of buffers that records every URI asked for and the budget given.
struct Store {
  std::map<std::string, std::string> files{
      {"pos.bin", bytesOf(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1})},
      {"idx.bin", bytesOf(std::vector<unsigned short>{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3})}};
  std::vector<std::string> asked;
  std::vector<std::uintmax_t> budgets;

  BufferReader reader() {
    return
        [this](const std::string& uri, std::uintmax_t maxBytes, std::vector<unsigned char>* out) {
          asked.push_back(uri);
          budgets.push_back(maxBytes);
          const auto it = files.find(uri);
          if (it == files.end()) throw Error("", "not found");
          if (it->second.size() > maxBytes) throw Error("", "is too large");
          out->assign(it->second.begin(), it->second.end());
        };
  }
};

std::string errorOf(const std::string& gltf, Store* store, std::uintmax_t maxBytes = 1 << 20) {
  try {
    const Document doc("dir/t.gltf", gltf, maxBytes, store->reader());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("glTF buffers are read through the reader and give the mesh", "[io][gltf]") {
  Store store;
  const Document doc("dir/t.gltf", tetGltf("pos.bin", "idx.bin"), 1 << 20, store.reader());
  CHECK(store.asked == std::vector<std::string>{"pos.bin", "idx.bin"});
  const samara::geometry::TriMesh mesh = samara::io::loadGltfMesh(doc);
  CHECK(mesh.numVertices() == 4);
  CHECK(mesh.numFaces() == 4);
}

TEST_CASE("glTF file and buffers share one byte budget", "[io][gltf]") {
  Store store;
  const std::string gltf = tetGltf("pos.bin", "idx.bin");
  // Room for the file and the positions, 1 byte short of the indices.
  const std::uintmax_t limit = gltf.size() + 48 + 23;
  const std::string message = errorOf(gltf, &store, limit);
  CHECK_THAT(message, Contains("dir/t.gltf") && Contains("buffer \"idx.bin\" is too large"));
  REQUIRE(store.budgets.size() == 2);
  CHECK(store.budgets[0] == 48 + 23);
  CHECK(store.budgets[1] == 23);
  Store enough;
  CHECK(errorOf(gltf, &enough, limit + 1).empty());
}

TEST_CASE("glTF buffer URIs outside the folder never reach the reader", "[io][gltf]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"../pos.bin", "leaves the glTF's folder"},
      {"a/../../pos.bin", "leaves the glTF's folder"},
      {"%2E%2E/pos.bin", "leaves the glTF's folder"},
      {"..\\\\pos.bin", "leaves the glTF's folder"},
      {"/etc/passwd", "absolute path"},
      {"\\\\\\\\server\\\\share", "absolute path"},
      {"file:///etc/passwd", "is a URL"},
      {"https://example.com/pos.bin", "is a URL"},
      {"pos.bin%00.txt", "control character"},
  };
  for (const auto& [uri, words] : cases) {
    CAPTURE(uri);
    Store store;
    const std::string message = errorOf(tetGltf(uri, "idx.bin"), &store);
    CHECK_THAT(message, Contains("dir/t.gltf: buffer \"") && Contains(words));
    CHECK(store.asked.empty());
  }
}

TEST_CASE("glTF data: URIs and images do not use the reader", "[io][gltf]") {
  Store store;
  // 48 zero bytes in base64 (positions), the indices from the store; two images whose URIs
  // would be refused (or hang) if they were read.
  const std::string zeros = "data:application/octet-stream;base64," + std::string(64, 'A');
  const std::string images =
      R"(, "images": [{"uri": "../../secret.png"}, {"uri": "idx.bin"},
                    {"uri": "data:image/png;base64,iVBORw0KGgo="}])";
  const Document doc("dir/t.gltf", tetGltf(zeros, "idx.bin", images), 1 << 20, store.reader());
  CHECK(store.asked == std::vector<std::string>{"idx.bin"});
  CHECK(doc.model().images.size() == 3);
  CHECK(doc.model().buffers[0].data == std::vector<unsigned char>(48, 0));
}

TEST_CASE("glTF .glb without the magic is refused by name", "[io][gltf]") {
  Store store;
  try {
    const Document doc("dir/t.glb", tetGltf("pos.bin", "idx.bin"), 1 << 20, store.reader());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Contains("dir/t.glb") && Contains("not a binary glTF"));
  }
  CHECK(store.asked.empty());
}

TEST_CASE("glTF JSON nested too deeply is refused before tinygltf recurses", "[io][gltf]") {
  auto nested = [](int depth) {
    return R"({"asset": {"version": "2.0"}, "extras": )" + std::string(depth - 1, '[') +
           R"("[[[{{")" + std::string(depth - 1, ']') + "}";
  };
  Store store;
  CHECK_NOTHROW(Document("dir/t.gltf", nested(64), 1 << 20, store.reader()));
  CHECK_THAT(errorOf(nested(65), &store), Contains("dir/t.gltf: JSON nested deeper than 64"));
  // The same in a .glb's JSON chunk: a million levels would overflow the stack.
  std::string json = nested(1'000'000);
  json.resize((json.size() + 3) / 4 * 4, ' ');
  auto u32 = [](std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
  const std::string glb = "glTF" + u32(2) + u32(static_cast<std::uint32_t>(20 + json.size())) +
                          u32(static_cast<std::uint32_t>(json.size())) + "JSON" + json;
  try {
    const Document doc("dir/t.glb", glb, 1 << 24, store.reader());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Contains("dir/t.glb: JSON nested deeper than 64"));
  }
}
