#pragma once
// What the runner publishes, built from its worlds: per-body snapshots (with what does not
// change during a run cached at load), the teaching overlays' data, the recent Newton
// statistics and the measured rates.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/world.h"
#include "runtime/history.h"
#include "runtime/snapshot.h"

namespace samara::runtime {

/// What a body's snapshot needs and does not change during a run (computed at load).
struct BodyCache {
  double deltaAuto = 0.0;  ///< m
  double radius = 0.0;     ///< m
  double mass = 0.0;       ///< kg
  Vec3 broadNormalBody = Vec3::UnitZ();
  std::shared_ptr<const geometry::FaceMatrix> faces;
  std::shared_ptr<const geometry::VertexMatrix> restVertices;  ///< null: shape-changing
};

/// The cache of every body of `world`.
std::vector<BodyCache> cacheBodies(const core::World& world);

/// Every body of `world` into `out` (resized); `modelOverride` per body (may be shorter).
void fillBodies(const core::World& world, const std::vector<BodyCache>& cache,
                const std::vector<std::optional<std::string>>& modelOverride,
                std::vector<BodySnapshot>* out);

/// The teaching overlays' data of body i (BodyTeaching), with `maxFaces` per-face forces.
/// With `exactGhost` (the exact-added-mass ghost's world), also the body's exact added mass.
BodyTeaching teachingOf(const core::World& world, int i, int maxFaces,
                        const core::World* exactGhost = nullptr);

/// The recorded step `f` in place of the live one: vertices from the recorded poses, shapes
/// at the recorded time; the ghost's too when it was recorded with it (`ghost` non-null).
void showRecorded(const HistoryFrame& f, const core::World& world, const core::World* ghost,
                  Snapshot* s);

/// The Newton statistics of the recent steps (a ring of the last kRecent) and the last
/// step's report.
class SolverWindow {
 public:
  static constexpr int kRecent = 256;
  SolverWindow() { recent_.reserve(kRecent); }
  void clear();
  /// A good step.
  void add(core::StepReport report);
  /// A failed step: its report is the last one, the ring is unchanged.
  void fail(core::StepReport report) { last_ = std::move(report); }
  /// The statistics, with the solver's `iterationLimit`.
  SolverStats stats(int iterationLimit) const;

 private:
  struct StepRecord {
    int iterations = 0;
    int substeps = 1;
  };
  std::vector<StepRecord> recent_;
  std::size_t next_ = 0;
  core::StepReport last_;
};

/// The real-time factor and steps per second, measured over windows of wall time.
class RateMeter {
 public:
  explicit RateMeter(double window) : window_(window) {}
  void start(double wall) { wall0_ = wall; }
  /// One step of `dt` simulated seconds.
  void step(double dt) {
    ++steps_;
    ++stepsWindow_;
    sim_ += dt;
  }
  /// Closes the window when it has lasted long enough.
  void update(double wall);
  std::int64_t steps() const { return steps_; }  ///< since construction
  double realTimeFactor() const { return rtf_; }
  double stepsPerSecond() const { return sps_; }
  /// Whether a window has closed yet (before that the rates are not known).
  bool measured() const { return measured_; }

 private:
  double window_;
  double wall0_ = 0.0;
  std::int64_t steps_ = 0;
  std::int64_t stepsWindow_ = 0;
  double sim_ = 0.0;
  double rtf_ = 0.0;
  double sps_ = 0.0;
  bool measured_ = false;
};

}  // namespace samara::runtime
