#include "models/registry.h"

namespace samara::models {

const std::vector<std::string>& modelNames() {
  static const std::vector<std::string> kNames = {
      "gwtf", "vacuum", "mujoco-inertia", "mujoco-ellipsoid", "xie-miyata",
      "gross-dissipative", "gross-inertial"};
  return kNames;
}

}  // namespace samara::models
