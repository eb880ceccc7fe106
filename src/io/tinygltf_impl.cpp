// The one translation unit of samara_io that compiles tinygltf (and the stb image code it
// uses). No other target linked into the same executable may define these macros.
// External images are never read (TINYGLTF_NO_EXTERNAL_IMAGE) and embedded ones are not
// decoded (io/gltf/document.cpp installs a loader that skips them): only geometry is used.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_EXTERNAL_IMAGE
// The stb functions are static to this file, so another stb copy elsewhere cannot clash.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <tiny_gltf.h>

#include <stdexcept>

#include "io/png.h"

namespace samara::io {

std::string encodePng(const std::vector<unsigned char>& rgb, int width, int height) {
  if (width <= 0 || height <= 0 ||
      rgb.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3) {
    throw std::invalid_argument("encodePng: the image has the wrong size");
  }
  std::string out;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &out, width, height, 3, rgb.data(), width * 3)) {
    throw std::runtime_error("encodePng: stb could not encode the image");
  }
  return out;
}

}  // namespace samara::io
