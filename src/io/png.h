#pragma once
// PNG encoding for io's writers (the stb code lives in tinygltf_impl.cpp).
#include <string>
#include <vector>

namespace samara::io {

/// The PNG bytes of an 8-bit RGB image, rows top to bottom (rgb.size() = 3·width·height).
std::string encodePng(const std::vector<unsigned char>& rgb, int width, int height);

}  // namespace samara::io
