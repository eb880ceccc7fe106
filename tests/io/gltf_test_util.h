#pragma once
// Shared helper of the io tests that read glTF back: a .glb parsed with tinygltf.
#include <tiny_gltf.h>

#include <catch2/catch.hpp>
#include <string>

namespace samara::io::test {

/// `bytes` (a .glb) parsed with tinygltf; REQUIREs that it parses. `messages` (if given)
/// receives tinygltf's errors and warnings.
inline tinygltf::Model parseGlb(const std::string& bytes, std::string* messages = nullptr) {
  tinygltf::Model m;
  tinygltf::TinyGLTF loader;
  std::string err, warn;
  REQUIRE(loader.LoadBinaryFromMemory(&m, &err, &warn,
                                      reinterpret_cast<const unsigned char*>(bytes.data()),
                                      static_cast<unsigned int>(bytes.size())));
  if (messages) *messages = err + warn;
  return m;
}

}  // namespace samara::io::test
