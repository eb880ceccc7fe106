#pragma once
// The rigid body of the 2D reference solver: a circle, an ellipse or a rectangle in the
// x–y plane (y up), per metre of span. Its mask χ ∈ [0, 1] on the grid is a smoothed
// indicator: a sine ramp of half-width ε (one cell) whose outer end is on the surface, so
// χ = 0 outside the body and 1 from 2ε inside (ns2d.cpp says why).
#include <Eigen/Core>
#include <string>

namespace samara::fluid {

using Vec2 = Eigen::Vector2d;

enum class Shape2 { kCircle, kEllipse, kRectangle };

/// A travelling wave along an ellipse's x axis: a 2D swimmer driven by its kinematics
/// (Kwatra et al. 2010's kinematic driving; the anguilliform envelope of Kern &
/// Koumoutsakos 2006). The midline is displaced along the body y axis by
///   y(x, t) = r(t) A(ξ) sin(2π (ξ L / λ − t / T) + φ),  A(ξ) = A_tail (ξ + 0.03125) / 1.03125,
/// with ξ = (a − x) / L from the head (x = a) to the tail (x = −a), L = 2a, so the wave
/// runs from head to tail and pushes the body head first; r(t) ramps from 0 to 1 over
/// the first period; φ = π is the mirror image of φ = 0 (y → −y). The deformation carries no
/// momentum of its own: the solver removes its rigid part (WaveFrame), so only the flow moves the
/// body.
struct Wave2 {
  double amplitude = 0.0;   ///< A_tail, m (0: no wave, a rigid body)
  double wavelength = 0.0;  ///< λ, m (0: the body length)
  double period = 1.0;      ///< T, s
  bool reverse = false;     ///< the wave runs from tail to head (the swimmer backs up)
  double phase = 0.0;       ///< φ, rad: the wave's phase at the head at t = 0
};

/// The body of a 2D run.
struct Body2Def {
  std::string name = "body";
  Shape2 shape = Shape2::kEllipse;
  double a = 0.05;               ///< semi-axis along the body x axis (half chord; radius), m
  double b = 0.00625;            ///< semi-axis along the body y axis (half thickness), m
  double density = 2700.0;       ///< kg/m³
  Vec2 position = Vec2::Zero();  ///< centre (= centre of mass), world, m
  double angle = 0.0;            ///< body x axis from the world x axis, anticlockwise, rad
  Vec2 velocity = Vec2::Zero();  ///< m/s
  double omega = 0.0;            ///< anticlockwise, rad/s
  bool fixed = false;            ///< held in place (the flow's force is measured); else free
  /// A held body turns at `omega` until this time (a kick that breaks the symmetry of the
  /// wake), then stays still. s; 0 = never turns.
  double kickUntil = 0.0;
  Wave2 wave;  ///< an ellipse only: a swimmer's travelling wave
};

/// Whether the body undulates (Wave2::amplitude > 0).
inline bool undulates(const Body2Def& b) { return b.wave.amplitude > 0.0; }
/// The rigid part of the wave at time t, which the body frame takes: the thickness-weighted
/// mean displacement of the midline (m) and its rotation about the centre (rad, small), and
/// their rates. Less these, the deformation has no momentum or angular momentum of its own
/// (to first order in the amplitude), so the body's shape and the velocity imposed inside
/// it agree and only the flow moves the body frame.
struct WaveFrame {
  double mean = 0.0, rotation = 0.0;
  double meanRate = 0.0, rotationRate = 0.0;
};
WaveFrame waveFrame(const Body2Def& b, double t);
/// The midline's displacement along the body y axis at body coordinate x relative to the
/// body frame (the wave less `f`), m, and its rate in `rate` (m/s); 0 without a wave.
double waveOffset(const Body2Def& b, const WaveFrame& f, double x, double t, double* rate);

/// Area per metre of span, m².
double bodyArea(const Body2Def& b);
/// Moment of inertia about the centre per metre of span at the body's density, kg·m.
double bodyInertia(const Body2Def& b);
/// Potential-flow added mass per metre of span of the body's ellipse (a rectangle uses the
/// ellipse through its half sizes): along the body x axis, along its y axis, and in
/// rotation (kg/m, kg/m, kg·m). ρ_f π b², ρ_f π a², ρ_f π (a² − b²)²/8 (Lamb §72).
Eigen::Vector3d ellipseAddedMass(const Body2Def& b, double fluidDensity);

/// Signed distance (negative inside) of the point `p` given in body coordinates, m. Exact
/// for circles and rectangles; for an ellipse the first-order estimate (F − 1)/|∇F|, which is
/// exact on the surface and good within the mask's ramp.
double signedDistance(const Body2Def& b, const Vec2& p);
/// The same at time t: an undulating body's distance is that of the point moved back by
/// the midline's displacement (exact along the body's y axis).
double signedDistanceAt(const Body2Def& b, const WaveFrame& f, const Vec2& p, double t);

/// The mask value at signed distance d with ramp half-width eps: 1 for d ≤ −eps, 0 for
/// d ≥ eps, ½(1 − sin(π d / (2 eps))) between.
double maskValue(double d, double eps);

/// Half the largest extent of the body (its bounding radius), m.
double boundingRadius(const Body2Def& b);

}  // namespace samara::fluid
