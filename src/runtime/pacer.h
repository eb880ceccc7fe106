#pragma once
// Real-time pacing (MuJoCo `simulate` style): an anchor (wall₀, sim₀) maps wall time to a
// target simulated time sim₀ + speed·(wall − wall₀). A tick steps while the next step's end
// is not past the target and while it has spent less than `stepFraction` of a display
// frame; when the simulation falls more than `maxLag` wall seconds behind, the pacer
// re-anchors instead of catching up, so a slow machine degrades to slow motion.
#include <cstdint>

namespace samara::runtime {

struct PacerSettings {
  double frameBudget = 1.0 / 60.0;  ///< display frame, wall s; default 1/60
  double stepFraction = 0.7;        ///< share of a frame a tick may spend stepping; default 0.7
  double maxLag = 0.1;              ///< wall s behind the target before re-anchoring; default 0.1
};

class Pacer {
 public:
  static constexpr double kMinSpeed = 0.01;  ///< slowest playback, simulated s per wall s
  static constexpr double kMaxSpeed = 4.0;   ///< fastest paced playback

  explicit Pacer(PacerSettings settings = {}) : settings_(settings) {}

  /// Sets the anchor: simulated time `sim` (s) corresponds to wall time `wall` (s).
  void anchor(double wall, double sim);
  /// Speed factor, clamped to [kMinSpeed, kMaxSpeed]; takes effect from the next anchor.
  void setSpeed(double speed);
  /// As fast as possible: steps whenever the tick's budget allows.
  void setUnlimited(bool unlimited) { unlimited_ = unlimited; }
  double speed() const { return speed_; }
  bool unlimited() const { return unlimited_; }
  const PacerSettings& settings() const { return settings_; }

  /// Starts a tick at wall time `wall` with the world at `sim` (s) and step `dt` (s):
  /// re-anchors if the simulation is more than maxLag behind the target.
  void beginTick(double wall, double sim, double dt);
  /// Whether to take one more step now (wall s, world time s, step s).
  bool shouldStep(double wall, double sim, double dt) const;
  /// How many of the next `most` steps are due at wall time `wall` (their ends not past the
  /// target), `most` when unlimited; the frame budget is shouldStep()'s to check.
  int dueSteps(double wall, double sim, double dt, int most) const;
  /// Wall seconds until the next step is due (0 if due now or unlimited).
  double waitTime(double wall, double sim, double dt) const;
  /// Target simulated time at wall time `wall`, s.
  double target(double wall) const { return sim0_ + speed_ * (wall - wall0_); }
  /// How many times the pacer gave up catching up.
  std::int64_t reanchors() const { return reanchors_; }

 private:
  PacerSettings settings_;
  double wall0_ = 0.0;
  double sim0_ = 0.0;
  double tickStart_ = 0.0;
  double speed_ = 1.0;
  bool unlimited_ = false;
  std::int64_t reanchors_ = 0;
};

}  // namespace samara::runtime
