#pragma once
// PNG encoding for io's writers and decoding for its readers (the stb code lives in
// tinygltf_impl.cpp).
#include <string>
#include <vector>

namespace samara::io {

/// The PNG bytes of an 8-bit RGB image, rows top to bottom (rgb.size() = 3·width·height).
std::string encodePng(const std::vector<unsigned char>& rgb, int width, int height);

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  ///< 8-bit RGB, rows top to bottom
};
/// Decodes PNG bytes (any channel count, converted to RGB). Throws Error naming `path` when
/// they are not a PNG stb can read.
Image decodePng(const std::string& bytes, const std::string& path);

}  // namespace samara::io
