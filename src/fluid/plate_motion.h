#pragma once
// What a falling plate in the plane did (issue 19): the four regimes of Field et al. (1997)
// and Andersen, Pesavento & Wang (2005), with the measures the README's tables compare
// between the fluid reference and samara's reduced model.
#include <string>
#include <vector>

namespace samara::fluid {

/// One sample of a plate's motion: time (s), centre (m), angle (rad, unwrapped), ω (rad/s).
struct PlateSample {
  double t = 0.0;
  double x = 0.0;
  double y = 0.0;
  double angle = 0.0;
  double omega = 0.0;
};

enum class PlateRegime { kSteady, kFluttering, kTumbling, kChaotic };

struct PlateMotion {
  PlateRegime regime = PlateRegime::kSteady;
  double turns = 0.0;         ///< net rotation over the window, turns (signed)
  double swing = 0.0;         ///< half the range of the angle over the window, rad
  double oneSigned = 0.0;     ///< share of samples with ω of the window's majority sign
  double period = 0.0;        ///< flutter: period of the angle's swing, s (0 if none)
  double rotationRate = 0.0;  ///< |net turns| / duration, turns/s
  double descentSpeed = 0.0;  ///< mean vertical speed (down positive), m/s
  double drift = 0.0;         ///< mean horizontal speed, m/s (signed)
  double descentAngle = 0.0;  ///< path below the horizontal, deg (90: straight down)
};

/// Classifies the samples with t ≥ `from` (y up): tumbling when the plate turns at least
/// 1.5 times over the window with ω of one sign ≥ 90 % of the time; fluttering when the
/// angle never strays more than 90° from its mean and swings by ≥ 5°; steady when it swings
/// by less; chaotic otherwise (it turns over, but not one way).
PlateMotion classifyPlate(const std::vector<PlateSample>& samples, double from);

/// "steady descent", "fluttering", "tumbling", "chaotic".
std::string regimeName(PlateRegime r);

}  // namespace samara::fluid
