#include "io/model_io.h"

#include <memory>
#include <stdexcept>
#include <string>

#include "models/mujoco.h"
#include "models/registry.h"
#include "models/xie_miyata.h"

namespace samara::io {
namespace {

std::string knownModels() {
  std::string s;
  for (const std::string& n : models::modelNames()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Vec3 positiveVec3(const Node& n) {
  const Vec3 v = n.vec3();
  if (!(v.minCoeff() > 0.0)) throw n.error("every semi-axis must be > 0 m");
  return v;
}

std::shared_ptr<const core::FluidModel> mujocoEllipsoid(const Node& m) {
  models::MujocoEllipsoidParams p;
  if (m.has("semi_axes")) p.semiAxes = positiveVec3(m.at("semi_axes"));
  if (m.has("fluidcoef")) {
    const Node c = m.at("fluidcoef");
    c.expectArray(5);
    p.coef.bluntDrag = c.item(0).nonNegative();
    p.coef.slenderDrag = c.item(1).nonNegative();
    p.coef.angularDrag = c.item(2).nonNegative();
    p.coef.kuttaLift = c.item(3).nonNegative();
    p.coef.magnusLift = c.item(4).nonNegative();
  }
  if (m.has("added_mass")) {
    const Node a = m.at("added_mass");
    const std::string s = a.string();
    if (s == "kirchhoff") {
      p.kirchhoffAddedMass = true;
    } else if (s != "velocity_terms") {
      throw a.error("expected \"velocity_terms\" (MuJoCo's, the default) or \"kirchhoff\", got " +
                    a.describe());
    }
  }
  return std::make_shared<models::MujocoEllipsoidModel>(p);
}

std::shared_ptr<const core::FluidModel> xieMiyata(const Node& m) {
  models::XieMiyataParams p;
  if (m.has("coefficients")) {
    const Node c = m.at("coefficients");
    c.expectArray(3);
    p.dragCoef = c.item(0).nonNegative();
    p.rotLiftCoef = c.item(1).nonNegative();
    p.transLiftCoef = c.item(2).nonNegative();
  }
  if (m.has("turbulence")) p.turbulence = m.at("turbulence").nonNegative();
  if (m.has("turbulence_time")) p.turbulenceTime = m.at("turbulence_time").positive();
  if (m.has("seed")) p.seed = static_cast<std::uint64_t>(m.at("seed").integer(0, 2147483647));
  if (m.has("semi_axes")) p.semiAxes = positiveVec3(m.at("semi_axes"));
  if (m.has("lift_rate_scale")) p.liftRateScale = m.at("lift_rate_scale").nonNegative();
  try {
    return std::make_shared<models::XieMiyataModel>(p);
  } catch (const std::invalid_argument& e) {
    throw m.error(e.what());
  }
}

}  // namespace

void readFluidModel(const Node& m, core::BodyDef* body) {
  std::string type;
  if (m.json().is_string()) {
    type = m.string();
  } else if (m.json().is_object()) {
    type = m.at("type").string();
  } else {
    throw m.error("expected a model name (" + knownModels() +
                  ") or an object {\"type\": NAME, …}, got " + m.describe());
  }
  const Node where = m.json().is_object() ? m.at("type") : m;
  if (!models::setModel(body, type)) {
    throw where.error("unknown model \"" + type + "\"; known models: " + knownModels());
  }
  if (!m.json().is_object()) return;
  if (type == "mujoco-ellipsoid") {
    m.expectObject({"type", "semi_axes", "fluidcoef", "added_mass"});
    body->fluidModel = mujocoEllipsoid(m);
  } else if (type == "xie-miyata") {
    m.expectObject({"type", "coefficients", "turbulence", "turbulence_time", "seed", "semi_axes",
                    "lift_rate_scale"});
    body->fluidModel = xieMiyata(m);
  } else if (type == "gross-dissipative") {
    m.expectObject({"type", "normal_drag", "tangential_drag"});
    // "auto" (the default) is the core's sentinel: α = ½ ρ_f · 1 m/s, β = α/10.
    const core::FirstOrderDef autoDrag;
    auto drag = [&](const char* key, bool allowZero, double autoValue, double* out) {
      if (!m.has(key)) return;
      const Node d = m.at(key);
      const char* expected = allowZero ? "expected \"auto\" or a number >= 0 (N·s/m³), got "
                                       : "expected \"auto\" or a number > 0 (N·s/m³), got ";
      if (d.json().is_string() && d.string() == "auto") {
        *out = autoValue;
      } else if (d.json().is_number()) {
        *out = allowZero ? d.nonNegative() : d.positive();
      } else {
        throw d.error(expected + d.describe());
      }
    };
    drag("normal_drag", false, autoDrag.normalDrag, &body->firstOrder->normalDrag);
    drag("tangential_drag", true, autoDrag.tangentialDrag, &body->firstOrder->tangentialDrag);
  } else if (type == "gross-inertial") {
    m.expectObject({"type", "normal_added_mass"});
    if (m.has("normal_added_mass")) {
      body->firstOrder->normalAddedMass = m.at("normal_added_mass").nonNegative();
    }
  } else {
    m.expectObject({"type"});
  }
}

}  // namespace samara::io
