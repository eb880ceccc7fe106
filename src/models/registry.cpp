#include "models/registry.h"

#include <algorithm>
#include <memory>

#include "models/mujoco.h"
#include "models/xie_miyata.h"

namespace samara::models {

const std::vector<std::string>& modelNames() {
  static const std::vector<std::string> kNames = {"gwtf",           "vacuum",
                                                  "mujoco-inertia", "mujoco-ellipsoid",
                                                  "xie-miyata",     "gross-dissipative",
                                                  "gross-inertial"};
  return kNames;
}

bool isModelName(const std::string& name) {
  const auto& n = modelNames();
  return std::find(n.begin(), n.end(), name) != n.end();
}

bool setModel(core::BodyDef* body, const std::string& name) {
  if (!isModelName(name)) return false;
  body->fluidModel.reset();
  body->firstOrder.reset();
  if (name == "vacuum") {
    body->fluidModel = std::make_shared<core::VacuumModel>();
  } else if (name == "mujoco-inertia") {
    body->fluidModel = std::make_shared<MujocoInertiaModel>();
  } else if (name == "mujoco-ellipsoid") {
    body->fluidModel = std::make_shared<MujocoEllipsoidModel>();
  } else if (name == "xie-miyata") {
    body->fluidModel = std::make_shared<XieMiyataModel>();
  } else if (name == "gross-dissipative" || name == "gross-inertial") {
    core::FirstOrderDef fo;
    fo.kind = name == "gross-inertial" ? core::FirstOrderKind::kInertial
                                       : core::FirstOrderKind::kDissipative;
    body->firstOrder = fo;
  }
  return true;
}

}  // namespace samara::models
