#pragma once
// Body-frame wrenches (torque about the body origin, force) and their Jacobians with
// respect to the body velocity Y = (ω, v) (PHYSICS.md §3).
#include <vector>

#include "core/body.h"
#include "core/fluid.h"

namespace samara::core {

inline constexpr int kFaceLanes = 8;  ///< faces per group of the vectorised face kernel

/// Per-face data for flat-plate lift and drag, one array per component (the layout of the
/// vectorised kernel, core/face_kernel.h), each of `padded` entries: a multiple of
/// kFaceLanes, the padding faces with k = 0 and x = n = 0. a = (x × n, n) is the face's
/// Plücker vector: the drag wrench of a face is s·a, and ⟨u, n⟩ = a·Y − n·w.
struct DragFaces {
  int faces = 0;
  int padded = 0;
  std::vector<double> x, y, z;     ///< centroid, body, m
  std::vector<double> nx, ny, nz;  ///< unit normal, body
  std::vector<double> mx, my, mz;  ///< x × n, m
  std::vector<double> k;           ///< c · A · ρ_f (kg/m), c = ½ closed, 1 sheet

  size_t size() const { return static_cast<size_t>(faces); }
  /// Sets the number of faces; every entry zero.
  void resize(int n);
  /// Appends a face.
  void add(const Vec6& a, const Vec3& centroid, double kf);
  /// Sets face f's Plücker vector a = (x × n, n) and centroid.
  void set(size_t f, const Vec6& a, const Vec3& centroid);
  Vec3 centroid(size_t f) const { return {x[f], y[f], z[f]}; }
  Vec3 normal(size_t f) const { return {nx[f], ny[f], nz[f]}; }
  Vec6 a(size_t f) const {
    Vec6 r;
    r << mx[f], my[f], mz[f], nx[f], ny[f], nz[f];
    return r;
  }
};

/// Lift and drag −Σ c ρ_f A |u| ⟨u,n⟩ (x×n, n) with u = ω×x + v + offset_f (GwtF Eqn. 6).
/// `offsets` (per face, body frame) holds shape velocity minus the flow; when null the
/// single `offset` is used for every face (rigid body in a uniform flow).
/// Adds the wrench to *F and, if J is not null, its Jacobian ∂F/∂Y to *J.
void addDragWrench(const DragFaces& faces, const Vec6& Y, const Vec3& offset, const Vec3* offsets,
                   Vec6* F, Mat6* J);

/// The per-face forces of addDragWrench, −k |u| ⟨u,n⟩ n (body frame, N), into *forces
/// (resized to the number of faces). Their sum is the force part of the wrench.
void dragFaceForces(const DragFaces& faces, const Vec6& Y, const Vec3& offset, const Vec3* offsets,
                    std::vector<Vec3>* forces);

/// Gravity m·g at the centre of mass c (body coordinates) as a body wrench.
Vec6 gravityWrench(const Pose& g, double mass, const Vec3& comBody, const Vec3& gravity);

/// Fluid density at a height (along up): water below the level, air above.
inline double densityAtHeight(const FluidDef& fluid, double height) {
  return (fluid.water && height < fluid.water->level) ? fluid.water->density : fluid.density;
}

/// Dynamic viscosity at a height (along up): water below the level, air above, Pa·s.
inline double viscosityAtHeight(const FluidDef& fluid, double height) {
  return (fluid.water && height < fluid.water->level) ? fluid.water->viscosity : fluid.viscosity;
}

/// Hydrostatic pressure p(h) = |g| ∫_h^L ρ(s) ds with L the water level (0 without water).
double hydrostaticPressure(const FluidDef& fluid, double gravityNorm, double height);

/// Buoyancy on the closed faces listed in `faces` of `mesh` (body coordinates) by exact
/// integration of the piecewise-linear hydrostatic pressure, triangles clipped at the
/// water level. `up` is the world up axis. Body wrench.
Vec6 buoyancyWrenchClosed(const Pose& g, const geometry::TriMesh& mesh,
                          const std::vector<int>& faces, const FluidDef& fluid,
                          const Vec3& gravity);

/// A floor contact point set: every vertex below the floor at the start of the step.
struct ContactPoint {
  Vec3 x;        ///< body coordinates, m
  double depth;  ///< penetration at the start of the step, m (> 0)
  double k;      ///< spring stiffness, N/m
  double c;      ///< damper, N·s/m
};

/// Spring–damper normal force with regularised Coulomb friction at each contact point,
/// implicit in Y (damping and friction), with its Jacobian. `upBody` = Aᵀ up.
void addContactWrench(const std::vector<ContactPoint>& contacts, const Vec3& upBody,
                      double friction, double slipVelocity, const Vec6& Y, Vec6* F, Mat6* J);

}  // namespace samara::core
