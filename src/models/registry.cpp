#include "models/registry.h"

#include <algorithm>

#include "core/first_order.h"
#include "core/gwtf_model.h"
#include "models/mujoco.h"
#include "models/xie_miyata.h"

namespace samara::models {
namespace {

template <typename M, typename... Args>
std::function<std::shared_ptr<core::FluidModel>()> factory(Args... args) {
  return [=]() { return std::make_shared<M>(args...); };
}

core::FirstOrderDef firstOrderDef(core::FirstOrderKind kind) {
  core::FirstOrderDef d;
  d.kind = kind;
  return d;
}

std::vector<ModelEntry>& entries() {
  static std::vector<ModelEntry> kEntries = {
      {"samara",
       "Going with the Flow relative to the fluid, with skin friction, circulation and "
       "rotational lift (PHYSICS.md §7-8)",
       factory<core::GwtfModel>(core::GwtfModel::Variant::kSamara)},
      {"gwtf-2024", "Going with the Flow as published (2024): added mass relative to the ground",
       factory<core::GwtfModel>(core::GwtfModel::Variant::kPaper2024)},
      {"vacuum", "no fluid at all", factory<core::VacuumModel>()},
      {"mujoco-inertia", "MuJoCo's inertia-box model", factory<MujocoInertiaModel>()},
      {"mujoco-ellipsoid", "MuJoCo 3.x's ellipsoid model", factory<MujocoEllipsoidModel>()},
      {"xie-miyata", "Xie & Miyata's pattern-guided model", factory<XieMiyataModel>()},
      {"gross-dissipative", "Gross et al.: first-order motion, Rayleigh dissipation",
       factory<core::FirstOrderModel>(firstOrderDef(core::FirstOrderKind::kDissipative))},
      {"gross-inertial", "Gross et al.: first-order motion, constant momentum",
       factory<core::FirstOrderModel>(firstOrderDef(core::FirstOrderKind::kInertial))},
  };
  return kEntries;
}

}  // namespace

const std::vector<ModelEntry>& registry() { return entries(); }

void registerModel(ModelEntry entry) {
  std::vector<ModelEntry>& e = entries();
  const auto it =
      std::find_if(e.begin(), e.end(), [&](const ModelEntry& m) { return m.name == entry.name; });
  if (it != e.end()) {
    *it = std::move(entry);
  } else {
    e.push_back(std::move(entry));
  }
}

std::vector<std::string> modelNames() {
  std::vector<std::string> names;
  for (const ModelEntry& m : entries()) names.push_back(m.name);
  return names;
}

bool isModelName(const std::string& name) { return makeModel(name) != nullptr; }

std::shared_ptr<core::FluidModel> makeModel(const std::string& name) {
  for (const ModelEntry& m : entries()) {
    if (m.name == name) return m.make();
  }
  // The paper's model was called "gwtf" before samara's own became the default.
  if (name == "gwtf") return makeModel("gwtf-2024");
  return nullptr;
}

bool setModel(core::BodyDef* body, const std::string& name) {
  std::shared_ptr<core::FluidModel> m = makeModel(name);
  if (!m) return false;
  if (!m->localFaces() || m->firstOrder()) {  // it brings its own added mass
    body->addedMass = core::AddedMassSource::kModel;
    body->exactAddedUnit.reset();
  }
  body->model = std::move(m);
  return true;
}

}  // namespace samara::models
