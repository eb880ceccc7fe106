#pragma once
// samara's fluid reference (issue 19): the two-dimensional incompressible Navier–Stokes
// equations with one rigid body in them, coupled both ways. No viewer, no files.
//
// Method (README "Fluid reference"):
//   - vorticity ω and stream function ψ (∇²ψ = −ω, u = ∂ψ/∂y + U∞x, v = −∂ψ/∂x + U∞y)
//     on a periodic nx × ny window of square cells, Fourier pseudo-spectral in space with
//     the 2/3 rule, Crank–Nicolson viscosity and second-order Adams–Bashforth advection;
//   - the body by direct forcing on a smoothed mask χ (volume penalisation in the limit
//     η → 0, Kolomenskiy & Schneider 2009): after each fluid step the velocity inside the
//     body is set to the rigid motion V + Ω × r, and ω is the curl of the result;
//   - two-way coupling by momentum: the impulse the surrounding fluid gave the fluid inside
//     the body in the step is the impulse on the body (Uhlmann 2005's interior-fluid
//     correction); weight minus buoyancy (m − ρ_f A) g acts at the centre. The body's
//     acceleration is solved with an added-mass estimate M̃ (the body's ellipse, Lamb) on
//     both sides, (m + M̃) ΔV = impulse + M̃ ΔV_previous, which removes the instability of an
//     explicit coupling for bodies lighter than their added mass and cancels in the limit;
//   - a sponge band at the window's edges damps the vorticity (not the velocity: the
//     body's irrotational far field passes), so the wake does not come round the periodic
//     window again; the window follows a free body
//     by whole cells (an exact shift of the periodic fields).
// Deterministic: the same definition gives the same bits for any thread count.
#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "fluid/body2d.h"
#include "fluid/fft2.h"

namespace samara::core {
class ThreadPool;
}

namespace samara::fluid {

/// Everything a run needs.
struct Ns2Def {
  int nx = 256;                  ///< cells along x (even)
  int ny = 256;                  ///< cells along y (even)
  double dx = 1e-3;              ///< cell size, m (square cells)
  Vec2 centre = Vec2::Zero();    ///< window centre at t = 0, world, m
  double fluidDensity = 1000.0;  ///< kg/m³
  double viscosity = 1e-6;       ///< kinematic, m²/s
  Vec2 stream = Vec2::Zero();    ///< far-field flow U∞, m/s
  Vec2 gravity{0.0, -9.81};      ///< m/s²
  double dt = 1e-4;              ///< time step, s
  double spongeWidth = 0.0;      ///< band at each edge where vorticity is damped, m (0: none)
  double spongeTime = 0.0;       ///< damping time at the window's edge, s (0: one step)
  bool follow = true;            ///< the window follows a free body
  double maxCfl = 0.8;           ///< a step with max(|u|+|v|)·dt/dx above this stops the run
  /// Where the mask's ramp (half-width one cell) lies, in cells inward from the surface: 1
  /// (the default) puts it inside the body, χ = 0 from the surface out and 1 from two cells
  /// in. Centred on the surface (0), the forcing made a circle's added mass that of a
  /// circle 1.2 cells larger (32 % too much at 16 cells per diameter); at 1, 1.3 %.
  double maskShift = 1.0;
  bool hasBody = true;
  Body2Def body;
  int threads = 1;  ///< threads over the grid (results do not depend on it)
};

/// The body's state (per metre of span).
struct Body2State {
  Vec2 position = Vec2::Zero();  ///< centre, world, m
  double angle = 0.0;            ///< rad, anticlockwise, unwrapped
  Vec2 velocity = Vec2::Zero();  ///< m/s
  double omega = 0.0;            ///< rad/s
  Vec2 force = Vec2::Zero();     ///< the flow's force over the last step (no buoyancy), N/m
  double torque = 0.0;           ///< the flow's torque about the centre, N·m/m
};

/// Throws std::invalid_argument "FIELD: message" (FIELD as a scene file spells it:
/// "grid.nx", "body.b", …) for a definition the solver cannot run.
void validateNs2Def(const Ns2Def& def);

enum class Ns2Status { kOk, kCflExceeded, kNotFinite };

struct Ns2Report {
  Ns2Status status = Ns2Status::kOk;
  double cfl = 0.0;     ///< max(|u|+|v|)·dt/dx at the step start
  std::string message;  ///< why the run stopped (status not kOk)
};

class Ns2Solver {
 public:
  /// Throws std::invalid_argument naming the bad field (for io to wrap with the file name).
  explicit Ns2Solver(const Ns2Def& def);
  ~Ns2Solver();
  Ns2Solver(const Ns2Solver&) = delete;
  Ns2Solver& operator=(const Ns2Solver&) = delete;

  /// Sets the vorticity field (nx·ny values, window cells, 1/s); the run's start state.
  void setVorticity(const std::vector<double>& omega);
  /// One step of dt. On a status other than kOk the state is that of the step start.
  [[nodiscard]] Ns2Report step();

  const Ns2Def& def() const { return def_; }
  double time() const { return t_; }
  long long steps() const { return steps_; }
  const Body2State& body() const { return body_; }
  /// World position of the window's lower-left corner, m.
  Vec2 origin() const { return origin_; }
  /// The vorticity field (window cells, x fastest), 1/s.
  std::vector<double> vorticity() const;
  /// The velocity field (window cells) with U∞, m/s.
  void velocity(std::vector<double>* u, std::vector<double>* v) const;
  /// The body's mask at its current pose (window cells).
  std::vector<double> mask() const;
  /// Kinetic energy of the flow in the window relative to U∞ per metre of span, J/m.
  double kineticEnergy() const;

 private:
  struct Impl;
  void startFlow();
  Ns2Def def_;
  double t_ = 0.0;
  long long steps_ = 0;
  Body2State body_;
  Vec2 origin_ = Vec2::Zero();
  std::unique_ptr<Impl> impl_;
};

}  // namespace samara::fluid
