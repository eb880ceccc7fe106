#pragma once
// Gallery models (issue 5): placeholder, filled by the gallery work.
#include "assetgen.h"

namespace samara::assetgen {}  // namespace samara::assetgen
