#pragma once
// Falling-pattern classifier (issue 6): steady descent, zigzag, autorotation (tumbling),
// chaotic or horizontal travel (swimming), from a body's trajectory, after Xie & Miyata
// (MIG 2015) §5.1 and Fig. 4.
//
// Three kinds of evidence:
//   - the paper's (d, e): PCA of the horizontal COM positions (all samples); d = distance
//     from the release point to the centre of the PCA ellipse, e = its eccentricity;
//   - the orientation of the body's broad normal n after an initial transient (the first
//     kTransientFraction of the time): its rotation about a horizontal axis (tumbling),
//     the reversals of that rotation, its tilt from the vertical and the tilt's sign
//     changes, and its swing seen in a frame turning with the body's spin about the
//     vertical (so a slow spin of the whole body does not hide or fake a swing);
//   - the COM after the transient: its fall, its horizontal travel, its horizontal spread
//     per fallen height and its lateral excursion from a straight path (the least-squares
//     line in time of the horizontal position, so a steady drift is not an excursion).
//
// Decision (thresholds below, all after the transient):
//   not falling = fell < kMinFallBodyLengths body lengths: horizontal travel (a swimmer)
//                 when it moved ≥ kMinTravelBodyLengths horizontally while its rise or fall
//                 stayed negligible (≤ kMaxTravelDropBodyLengths body lengths and
//                 ≤ kMaxTravelSlope of the travel); otherwise undetermined;
//   tumbled     = the normal rotated ≥ ½ turn in one sense without reversing (it went
//                 edge-on and over);
//   chaotic     = tumbled and reversed (a back-swing ≥ kReversalAngle) at least once;
//   autorotation= tumbled, never reversed, net rotation ≥ kMinAutorotationTurns; or, not
//                 tumbled, a sustained, fast, one-signed spin about the vertical (a maple
//                 seed's helicopter-like autorotation; ∫ ω·up dt): ≥ kMinSpinTurns net turns,
//                 ≥ kMinSpinPerLength turns per fallen body length, at least
//                 kMinSpinPerSwing turns per swing of the normal (the spin is as fast as any
//                 swing or faster), |net| ≥ kMinSpinSteadiness ∫|ω·up| dt (it does not
//                 reverse) and ≥ kMinSpinHalfShare of the net spin in each half of the window
//                 (it lasts);
//   zigzag      = not tumbled, tilt amplitude ≥ kMinZigzagTilt, ≥ kMinTiltSignChanges
//                 sign changes of the tilt (the normal swings through the vertical) and a
//                 lateral excursion ≥ kMinZigzagExcursion body lengths (a flutter moves the
//                 body sideways; round-off wobble does not);
//   steady      = none of the above and horizontal spread ≤ kMaxSteadySpread per fallen
//                 height (whatever the body's fixed or tiny-wobbling attitude);
//   otherwise undetermined (a glide, a drift, less than a turn of tumbling), with the
//   reason.
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/types.h"

namespace samara::analysis {

enum class FallPattern {
  kUndetermined,
  kSteadyDescent,
  kZigzag,
  kAutorotation,
  kChaotic,
  kHorizontalTravel,  ///< moves horizontally without falling: a swimmer, an airship
};

/// "undetermined", "steady descent", "zigzag", "autorotation", "chaotic", "horizontal travel".
const char* patternName(FallPattern p);

/// One trajectory sample, world frame.
struct TrajectorySample {
  double t = 0.0;             ///< time, s
  Vec3 com = Vec3::Zero();    ///< centre of mass, m
  Quat q = Quat::Identity();  ///< body → world rotation
  Vec3 omega = Vec3::Zero();  ///< angular velocity, world, rad/s (its ·up is the spin)
};

struct PatternResult {
  FallPattern pattern = FallPattern::kUndetermined;
  /// The paper's d: horizontal distance from the release point (first sample) to the mean
  /// horizontal COM position, in body lengths.
  double d = 0.0;
  /// The paper's e: eccentricity √(1 − λ₂/λ₁) of the PCA ellipse of the horizontal COM
  /// positions (λ = covariance eigenvalues), [0, 1]; 0 when the positions do not spread.
  double e = 0.0;
  /// Net rotation of the broad normal about the dominant horizontal axis after the
  /// transient, turns (absolute value).
  double tumbleTurns = 0.0;
  /// Longest rotation of the normal in one sense without a reversal, turns.
  double longestRunTurns = 0.0;
  /// Largest angle between the normal's line and the vertical after the transient, rad,
  /// [0, π/2].
  double tiltAmplitude = 0.0;
  /// Net rotation about the vertical after the transient (∫ ω·up dt), turns, signed.
  double spinTurns = 0.0;
  /// |net spin| / ∫|ω·up| dt over the window, [0, 1]: 1 when the spin never reverses.
  double spinSteadiness = 0.0;
  /// The smaller share of the net spin made in either half of the window (negative when a
  /// half spins the other way), turns per net turn; ½ for a constant spin rate.
  double spinHalfShare = 0.0;
  int reversals = 0;        ///< reversals of the normal's rotation sense (≥ kReversalAngle)
  int tiltSignChanges = 0;  ///< sign changes of the tilt about the dominant axis
  /// Sign changes (hysteresis kTiltSignHysteresis) of the normal's swing about its mean in a
  /// frame turning with the spin about the vertical: 2 per swing of a flutter, none for a
  /// body coning steadily as it spins.
  int swingReversals = 0;
  /// Largest horizontal distance of the COM from its position at the window start, per
  /// fallen height over the window, dimensionless.
  double horizontalSpread = 0.0;
  /// Largest horizontal distance of the COM from its least-squares straight path (linear in
  /// time) over the window, body lengths: the sideways swing of a flutter.
  double lateralExcursion = 0.0;
  /// Horizontal distance between the COM at the window's start and end, body lengths.
  double horizontalTravel = 0.0;
  double horizontalSpeed = 0.0;  ///< horizontalTravel over the window's duration, m/s
  double fallenHeight = 0.0;     ///< fall over the window, m (negative when rising)
  double windowStart = 0.0;      ///< start of the analysis window, s
  std::int64_t samples = 0;      ///< samples seen
  std::string reason;            ///< why this pattern (numbers with units)
};

// Thresholds (documented in the header comment).
inline constexpr double kTransientFraction = 0.15;  ///< of the duration, ignored
inline constexpr double kTumbleRunTurns = 0.5;      ///< one-sense run that counts as tumbling
inline constexpr double kReversalAngle = 0.5235987755982988;        ///< 30°, rad
inline constexpr double kMinAutorotationTurns = 1.0;                ///< net turns for autorotation
inline constexpr double kMinZigzagTilt = 0.17453292519943295;       ///< 10°, rad
inline constexpr int kMinTiltSignChanges = 2;                       ///< a full swing back and forth
inline constexpr double kTiltSignHysteresis = 0.05235987755982988;  ///< 3°, rad
inline constexpr double kMaxSteadySpread = 0.2;           ///< horizontal per fallen height
inline constexpr double kMinFallBodyLengths = 2.0;        ///< fall over the window, body lengths
inline constexpr int kMinSamples = 10;                    ///< in the window
inline constexpr double kMinSpinTurns = 3.0;              ///< spin about up for autorotation
inline constexpr double kMinSpinPerLength = 0.25;         ///< spin turns per fallen body length
inline constexpr double kMinSpinPerSwing = 1.0;           ///< spin turns per swing (2 reversals)
inline constexpr double kMinSpinSteadiness = 0.9;         ///< |net spin| / ∫|ω·up| dt
inline constexpr double kMinSpinHalfShare = 0.25;         ///< of the net spin in each window half
inline constexpr double kMinZigzagExcursion = 0.02;       ///< lateral excursion, body lengths
inline constexpr double kMinTravelBodyLengths = 1.0;      ///< horizontal travel of a swimmer
inline constexpr double kMaxTravelDropBodyLengths = 0.5;  ///< |fall| of a swimmer
inline constexpr double kMaxTravelSlope = 0.2;            ///< |fall| per horizontal travel

/// Incremental classifier (viewer's live display, `samara run --classify`). add() is O(1);
/// the tracker keeps the (d, e) sums exactly and at most kMaxRecords orientation records
/// (every 2^k-th sample once the fall is long; the rotation sums are accumulated at full
/// resolution). result() is O(kMaxRecords). Samples must be in time order and dense enough
/// that the normal turns by less than a quarter turn between two of them.
class PatternTracker {
 public:
  static constexpr int kMaxRecords = 16384;

  /// `up`: the vertical (−gravity direction, any length > 0); `bodyLength`: the length
  /// unit of d, m (> 0); `normalBody`: the broad normal in body coordinates (for a flat
  /// body, the principal axis of largest moment); default z.
  PatternTracker(const Vec3& up, double bodyLength, const Vec3& normalBody = Vec3::UnitZ());

  void add(const TrajectorySample& s);
  PatternResult result() const;
  void reset();
  std::int64_t numSamples() const { return count_; }

 private:
  struct Record {
    std::int64_t index = 0;
    double t = 0.0;
    Vec3 com = Vec3::Zero();
    Vec3 n = Vec3::Zero();          ///< broad normal, world
    double theta[2] = {0.0, 0.0};   ///< Σ horizontal rotation vector of n, rad (h₁, h₂)
    double S[3] = {0.0, 0.0, 0.0};  ///< Σ δδᵀ of the increments (xx, xy, yy), rad²
    Vec3 omega = Vec3::Zero();      ///< angular velocity, rad/s
    double spin = 0.0;              ///< ∫ ω·up dt since the first sample, rad
    double spinAbs = 0.0;           ///< ∫ |ω·up| dt since the first sample, rad
  };
  using Window = std::vector<const Record*>;

  /// Spread, lateral excursion and travel of the COM over `win` (fallen height H, m).
  void measureTranslation(const Window& win, double H, PatternResult* res) const;
  /// Tumbling runs, reversals, tilt and its sign changes of the normal over `win`.
  void measureRotation(const Window& win, PatternResult* res) const;
  /// Spin about the vertical and the swing in the frame turning with it over `win`.
  void measureSpin(const Window& win, PatternResult* res) const;

  Vec3 up_;
  Vec3 h1_;
  Vec3 h2_;
  double bodyLength_;
  Vec3 normalBody_;
  std::vector<Record> records_;
  Record last_;
  std::int64_t stride_ = 1;
  std::int64_t count_ = 0;
  // (d, e): running mean and co-moments of the horizontal COM relative to the release.
  Vec3 release_ = Vec3::Zero();
  double mean_[2] = {0.0, 0.0};
  double m2_[3] = {0.0, 0.0, 0.0};
};

/// Classifies a whole trajectory (a PatternTracker fed every sample).
PatternResult classifyFall(const std::vector<TrajectorySample>& samples, const Vec3& up,
                           double bodyLength, const Vec3& normalBody = Vec3::UnitZ());

}  // namespace samara::analysis
