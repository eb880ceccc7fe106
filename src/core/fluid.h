#pragma once
// The environment: fluid (air, optional water below a level), background flow, floor,
// gravity.
#include <cstddef>
#include <memory>
#include <optional>

#include "geometry/types.h"

namespace samara::core {

/// A background flow field wind(x, t) in the world (m/s). Uniform wind plus optional
/// gusts are expressed through this interface.
/// The componentwise extremes of a set of points.
struct PointBox {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Zero();
};

class WindField {
 public:
  virtual ~WindField() = default;
  /// Flow velocity at world point x (m) and time t (s), m/s.
  virtual Vec3 velocity(const Vec3& xWorld, double t) const = 0;
  /// velocity() at n points (world, m; one array per component) into ux, uy, uz (m/s), the
  /// same bits as n calls; a field may evaluate them faster together.
  virtual void velocities(std::size_t n, const double* x, const double* y, const double* z,
                          double t, double* ux, double* uy, double* uz) const {
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 u = velocity(Vec3(x[i], y[i], z[i]), t);
      ux[i] = u.x();
      uy[i] = u.y();
      uz[i] = u.z();
    }
  }
  /// For n points c of a body (body frame, one array per component) at rotation R and
  /// position b: o −= Rᵀ (velocity(R c + b, t) + shift), each point on its own (the flow's
  /// share of the faces' velocity offsets); a field may do them faster together. `box`: the
  /// points' box (body frame) if the caller keeps it, else null (a field that needs it forms
  /// it; the same bits either way).
  virtual void subtractInBody(std::size_t n, const double* cx, const double* cy, const double* cz,
                              const Mat3& R, const Vec3& b, double t, const Vec3& shift, double* ox,
                              double* oy, double* oz, const PointBox* box = nullptr) const {
    (void)box;
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 u = velocity(R * Vec3(cx[i], cy[i], cz[i]) + b, t) + shift;
      const Vec3 d = R.transpose() * u;
      ox[i] -= d.x();
      oy[i] -= d.y();
      oz[i] -= d.z();
    }
  }
  /// True if velocity() does not depend on x (lets the force loop skip per-face calls).
  virtual bool isUniformInSpace() const { return false; }
};

/// A constant, uniform wind.
class UniformWind final : public WindField {
 public:
  explicit UniformWind(const Vec3& w) : w_(w) {}
  Vec3 velocity(const Vec3&, double) const override { return w_; }
  bool isUniformInSpace() const override { return true; }

 private:
  Vec3 w_;
};

/// Water below a level (measured along the up axis, −gravity direction).
struct WaterDef {
  double level = 0.0;         ///< height of the free surface along up, m; default 0
  double density = 998.0;     ///< kg/m³; default 998 (fresh water, 20 °C)
  double viscosity = 1.0e-3;  ///< dynamic viscosity, Pa·s; default 1.0e-3 (20 °C); peer models only
};

struct FluidDef {
  double density = 1.225;  ///< air (or the only fluid), kg/m³; default 1.225
  /// Dynamic viscosity of that fluid, Pa·s; default 1.81e-5 (air, 15 °C). Used by the peer
  /// models that have viscous terms (MuJoCo's); samara's own model has none.
  double viscosity = 1.81e-5;
  Vec3 wind = Vec3::Zero();       ///< uniform background flow, world, m/s; default 0
  std::optional<WaterDef> water;  ///< optional water below a level; default none
  /// Optional extra flow field (gusts) added to `wind`; default none.
  std::shared_ptr<const WindField> gusts;
};

/// A horizontal floor (plane orthogonal to up) with spring–damper contact and Coulomb
/// friction per vertex below it (Winkler foundation: stiffness per vertex proportional to
/// the vertex's share of the body's mass).
struct FloorDef {
  double height = 0.0;  ///< along up, m; default 0
  double frequencyHz =
      20.0;  ///< natural frequency of the body on the whole contact, Hz; default 20
  double dampingRatio = 1.0;   ///< of the normal spring, dimensionless; default 1 (critical)
  double friction = 0.5;       ///< Coulomb coefficient; default 0.5
  double slipVelocity = 1e-3;  ///< friction regularisation velocity, m/s; default 1 mm/s
};

}  // namespace samara::core
