#pragma once
// The fluid models a body can use, by scene-file name (issue 6).
#include <string>
#include <vector>

namespace samara::models {

/// Every model name, in the order the viewer's combo box lists them; "gwtf" first.
const std::vector<std::string>& modelNames();

}  // namespace samara::models
