// Gallery models (issue 5): placeholder, filled by the gallery work.
#include "gallery_sinking.h"
