#pragma once
// The text of a saved scene (io/scene_writer.cpp): a first comment line naming the source,
// then the JSON with keys in the README's order (others alphabetically), short arrays and
// objects on one line within 100 columns, numbers in their shortest round-trip form.
// Internal to io/.
#include <string>

#include "io/json_util.h"

namespace samara::io::detail {

/// "// saved by samara from SOURCE" (line breaks in `source` become spaces), then `scene`.
std::string sceneText(const Json& scene, const std::string& source);

}  // namespace samara::io::detail
