#include "analysis/pattern.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace samara::analysis {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = 180.0 / kPi;

/// Rotation vector (axis × angle) taking unit vector a to unit vector b along the great
/// circle (zero for parallel vectors).
Vec3 rotationBetween(const Vec3& a, const Vec3& b) {
  const Vec3 axis = a.cross(b);
  const double s = axis.norm();
  if (!(s > 0.0)) return Vec3::Zero();
  return axis * (std::atan2(s, a.dot(b)) / s);
}

/// Direction angle of the major axis of the symmetric 2×2 matrix [[xx, xy], [xy, yy]].
double majorAxisAngle(double xx, double xy, double yy) {
  return 0.5 * std::atan2(2.0 * xy, xx - yy);
}

std::string format(const char* fmt, double a = 0.0, double b = 0.0, double c = 0.0,
                   double d = 0.0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

}  // namespace

const char* patternName(FallPattern p) {
  // In FallPattern's order.
  static constexpr const char* kNames[] = {"undetermined", "steady descent", "zigzag",
                                           "autorotation", "chaotic"};
  const auto i = static_cast<std::size_t>(p);
  return i < std::size(kNames) ? kNames[i] : kNames[0];
}

PatternTracker::PatternTracker(const Vec3& up, double bodyLength, const Vec3& normalBody)
    : bodyLength_(bodyLength) {
  assert(up.norm() > 0.0 && bodyLength > 0.0 && normalBody.norm() > 0.0);
  up_ = up.normalized();
  normalBody_ = normalBody.normalized();
  // A horizontal basis: h₁ ⊥ up from the coordinate axis least aligned with up.
  Eigen::Index k = 0;
  up_.cwiseAbs().minCoeff(&k);
  h1_ = up_.cross(Vec3::Unit(k)).normalized();
  h2_ = up_.cross(h1_);
}

void PatternTracker::reset() {
  records_.clear();
  last_ = Record{};
  stride_ = 1;
  count_ = 0;
  release_.setZero();
  mean_[0] = mean_[1] = 0.0;
  m2_[0] = m2_[1] = m2_[2] = 0.0;
}

void PatternTracker::add(const TrajectorySample& s) {
  Record r;
  r.index = count_;
  r.t = s.t;
  r.com = s.com;
  r.n = (s.q.normalized() * normalBody_).normalized();
  r.omega = s.omega;
  if (count_ == 0) {
    release_ = s.com;
  } else {
    r.spin = last_.spin + 0.5 * (last_.omega + s.omega).dot(up_) * (s.t - last_.t);
    const Vec3 delta = rotationBetween(last_.n, r.n);
    const double dx = delta.dot(h1_);
    const double dy = delta.dot(h2_);
    r.theta[0] = last_.theta[0] + dx;
    r.theta[1] = last_.theta[1] + dy;
    r.S[0] = last_.S[0] + dx * dx;
    r.S[1] = last_.S[1] + dx * dy;
    r.S[2] = last_.S[2] + dy * dy;
  }
  // Welford update of the horizontal position statistics (relative to the release point).
  const Vec3 rel = s.com - release_;
  const double x = rel.dot(h1_);
  const double y = rel.dot(h2_);
  ++count_;
  const double n = static_cast<double>(count_);
  const double dx = x - mean_[0];
  const double dy = y - mean_[1];
  mean_[0] += dx / n;
  mean_[1] += dy / n;
  m2_[0] += dx * (x - mean_[0]);
  m2_[1] += dx * (y - mean_[1]);
  m2_[2] += dy * (y - mean_[1]);

  last_ = r;
  if (r.index % stride_ == 0) {
    records_.push_back(r);
    if (static_cast<int>(records_.size()) >= kMaxRecords) {
      // Keep every other record (multiples of 2·stride, the first included).
      size_t j = 0;
      for (size_t i = 0; i < records_.size(); i += 2) records_[j++] = records_[i];
      records_.resize(j);
      stride_ *= 2;
    }
  }
}

namespace {

/// The pattern from the window's measures (fallen height H, body length L).
void decide(PatternResult* res, double H, double L) {
  if (!(H >= kMinFallBodyLengths * L)) {
    res->reason = format("fell %.3g body lengths after the transient (need %.3g)", H / L,
                         kMinFallBodyLengths);
    return;
  }
  const bool tumbled = res->longestRunTurns >= kTumbleRunTurns;
  if (tumbled) {
    if (res->reversals > 0) {
      res->pattern = FallPattern::kChaotic;
      res->reason = format(
          "tumbles (%.2f turns in one sense at most, %.2f net) and reverses "
          "%.0f times",
          res->longestRunTurns, res->tumbleTurns, res->reversals);
    } else if (res->tumbleTurns >= kMinAutorotationTurns) {
      res->pattern = FallPattern::kAutorotation;
      res->reason = format(
          "tumbles %.2f turns in one sense, no reversal; drifts %.2f per "
          "fallen height",
          res->tumbleTurns, res->horizontalSpread);
    } else {
      res->reason = format("tumbles only %.2f turns (need %.2f) without reversing",
                           res->tumbleTurns, kMinAutorotationTurns);
    }
    return;
  }
  const double spinTurns = std::abs(res->spinTurns);
  if (spinTurns >= kMinSpinTurns && spinTurns >= kMinSpinPerLength * H / L) {
    res->pattern = FallPattern::kAutorotation;
    res->reason = format(
        "spins %.1f turns about the vertical (%.2f per fallen body length), coning tilt up "
        "to %.1f°: helicopter-like autorotation",
        spinTurns, spinTurns * L / H, res->tiltAmplitude * kDeg);
    return;
  }
  if (res->tiltAmplitude >= kMinZigzagTilt) {
    if (res->tiltSignChanges >= kMinTiltSignChanges) {
      res->pattern = FallPattern::kZigzag;
      res->reason = format(
          "no tumbling (%.2f turns at most); tilt swings to %.1f° with %.0f "
          "sign changes",
          res->longestRunTurns, res->tiltAmplitude * kDeg, res->tiltSignChanges);
    } else {
      res->reason = format(
          "tilted up to %.1f° with %.0f tilt sign changes (need %.0f): a "
          "glide, not a zigzag",
          res->tiltAmplitude * kDeg, res->tiltSignChanges, kMinTiltSignChanges);
    }
    return;
  }
  if (res->horizontalSpread <= kMaxSteadySpread) {
    res->pattern = FallPattern::kSteadyDescent;
    res->reason = format("tilt below %.1f° (max %.1f°); horizontal spread %.3f per fallen height",
                         kMinZigzagTilt * kDeg, res->tiltAmplitude * kDeg, res->horizontalSpread);
  } else {
    res->reason = format(
        "small tilt (max %.1f°) but drifts %.2f per fallen height (steady "
        "descent needs ≤ %.2f)",
        res->tiltAmplitude * kDeg, res->horizontalSpread, kMaxSteadySpread);
  }
}

}  // namespace

PatternResult PatternTracker::result() const {
  PatternResult res;
  res.samples = count_;
  if (count_ == 0) {
    res.reason = "no samples";
    return res;
  }
  const double L = bodyLength_;

  // --- the paper's (d, e) over every sample --------------------------------------------------
  res.d = std::hypot(mean_[0], mean_[1]) / L;
  {
    const double n = static_cast<double>(count_);
    const double xx = m2_[0] / n, xy = m2_[1] / n, yy = m2_[2] / n;
    const double mid = 0.5 * (xx + yy);
    const double rad = std::hypot(0.5 * (xx - yy), xy);
    const double l1 = mid + rad;
    const double l2 = std::max(0.0, mid - rad);
    const double tiny = 1e-9 * L;
    res.e = l1 > tiny * tiny ? std::sqrt(std::max(0.0, 1.0 - l2 / l1)) : 0.0;
  }

  // --- the analysis window: after the transient -------------------------------------------
  std::vector<const Record*> win;
  const double tFirst = records_.front().t;
  const double tw = tFirst + kTransientFraction * (last_.t - tFirst);
  res.windowStart = tw;
  for (const Record& r : records_) {
    if (r.t >= tw) win.push_back(&r);
  }
  if (win.empty() || win.back()->index != last_.index) win.push_back(&last_);
  if (static_cast<int>(win.size()) < kMinSamples) {
    res.reason = format("only %.0f samples after the transient (need %.0f)",
                        static_cast<double>(win.size()), kMinSamples);
    return res;
  }
  const Record& first = *win.front();
  const Record& lastR = *win.back();
  const double H = up_.dot(first.com - lastR.com);
  res.fallenHeight = H;

  // Horizontal spread per fallen height.
  double spread = 0.0;
  for (const Record* r : win) {
    Vec3 dh = r->com - first.com;
    dh -= up_.dot(dh) * up_;
    spread = std::max(spread, dh.norm());
  }
  res.horizontalSpread = H > 0.0 ? spread / H : 0.0;

  // Dominant horizontal rotation axis k of the normal's increments in the window.
  const double Sxx = lastR.S[0] - first.S[0];
  const double Sxy = lastR.S[1] - first.S[1];
  const double Syy = lastR.S[2] - first.S[2];
  const double phi = majorAxisAngle(Sxx, Sxy, Syy);
  const double kx = std::cos(phi), ky = std::sin(phi);
  const Vec3 k3 = kx * h1_ + ky * h2_;
  const Vec3 swing = k3.cross(up_);  // n ≈ up + θ swing for a small rotation θ about k

  // Rotation about k (unwrapped, from the window start): runs and reversals.
  double runStart = 0.0, ext = 0.0, longest = 0.0, psi = 0.0;
  int dir = 0, reversals = 0;
  // Tilt from the vertical and its sign about k.
  double tiltMax = 0.0;
  int tiltSign = 0, tiltChanges = 0;
  for (const Record* r : win) {
    psi = (r->theta[0] - first.theta[0]) * kx + (r->theta[1] - first.theta[1]) * ky;
    if (dir == 0) {
      if (psi - runStart > kReversalAngle) {
        dir = 1;
      } else if (runStart - psi > kReversalAngle) {
        dir = -1;
      }
      ext = psi;
    } else if (dir * (psi - ext) >= 0.0) {
      ext = psi;
    } else if (dir * (ext - psi) > kReversalAngle) {
      longest = std::max(longest, std::abs(ext - runStart));
      runStart = ext;
      ext = psi;
      dir = -dir;
      ++reversals;
    }
    const double c = std::min(1.0, std::abs(r->n.dot(up_)));
    tiltMax = std::max(tiltMax, std::acos(c));
    double s = std::atan2(r->n.dot(swing), r->n.dot(up_));  // the line: fold to (−π/2, π/2]
    if (s > 0.5 * kPi) s -= kPi;
    if (s <= -0.5 * kPi) s += kPi;
    const int sign = s > kTiltSignHysteresis ? 1 : (s < -kTiltSignHysteresis ? -1 : 0);
    if (sign != 0 && sign != tiltSign) {
      if (tiltSign != 0) ++tiltChanges;
      tiltSign = sign;
    }
  }
  longest = std::max(longest, std::abs(ext - runStart));
  res.tumbleTurns = std::abs(psi) / (2.0 * kPi);
  res.longestRunTurns = longest / (2.0 * kPi);
  res.reversals = reversals;
  res.tiltAmplitude = tiltMax;
  res.tiltSignChanges = tiltChanges;
  res.spinTurns = (lastR.spin - first.spin) / (2.0 * kPi);

  decide(&res, H, L);
  return res;
}

PatternResult classifyFall(const std::vector<TrajectorySample>& samples, const Vec3& up,
                           double bodyLength, const Vec3& normalBody) {
  PatternTracker tracker(up, bodyLength, normalBody);
  for (const TrajectorySample& s : samples) tracker.add(s);
  return tracker.result();
}

}  // namespace samara::analysis
