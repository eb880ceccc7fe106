// Placeholder: filled by the gallery work (issue 5).
#include "gallery.h"

namespace samara::assetgen {

bool writeGallerySinking(const std::filesystem::path&) { return true; }

}  // namespace samara::assetgen
