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
