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

#include <limits>
#include <stdexcept>

#include "io/error.h"
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

Image decodePng(const std::string& bytes, const std::string& path) {
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error(path, "file too large for a picture");
  }
  if (bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    throw Error(path, "not a PNG (no PNG signature)");
  }
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                              static_cast<int>(bytes.size()), &w, &h, &channels, 3);
  if (data == nullptr) {
    throw Error(path, std::string("not a readable PNG (") + stbi_failure_reason() + ")");
  }
  Image image;
  image.width = w;
  image.height = h;
  image.rgb.assign(data, data + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  stbi_image_free(data);
  return image;
}

}  // namespace samara::io
