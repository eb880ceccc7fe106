// The only translation unit with the stb_image_write implementation, kept static so it
// cannot collide with the one tinygltf brings into samara_io.
#include <epoxy/gl.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "app/screenshot.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace samara::app {

std::vector<unsigned char> readPixels(int width, int height) {
  return readPixels(0, 0, width, height);
}

std::vector<unsigned char> readPixels(int left, int bottom, int width, int height) {
  if (width <= 0 || height <= 0) return {};
  const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
  std::vector<unsigned char> pixels(w * h * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(left, bottom, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  std::vector<unsigned char> flipped(pixels.size());  // GL's rows go bottom up
  for (std::size_t y = 0; y < h; ++y) {
    std::memcpy(&flipped[y * w * 3], &pixels[(h - 1 - y) * w * 3], w * 3);
  }
  return flipped;
}

std::string writePng(const std::string& path, const std::vector<unsigned char>& rgb, int width,
                     int height) {
  if (width <= 0 || height <= 0) return "empty framebuffer";
  if (rgb.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3) {
    return "internal error: the image has the wrong size";
  }
  errno = 0;
  if (!stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3)) {
    return std::string("cannot write the PNG") +
           (errno ? std::string(": ") + std::strerror(errno) : "");
  }
  return "";
}

std::string saveScreenshot(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) return "empty framebuffer";
  return writePng(path, readPixels(width, height), width, height);
}

double pixelVariance(const unsigned char* rgb, int width, int height) {
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (n == 0) return 0.0;
  double total = 0.0;
  for (int c = 0; c < 3; ++c) {
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = rgb[3 * i + static_cast<std::size_t>(c)];
      sum += v;
      sum2 += v * v;
    }
    const double mean = sum / static_cast<double>(n);
    total += sum2 / static_cast<double>(n) - mean * mean;
  }
  return total / 3.0;
}

}  // namespace samara::app
