#include "analysis/pattern.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "geometry/types.h"

namespace samara::analysis {
namespace {

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
                                           "autorotation", "chaotic",        "horizontal travel"};
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
    const double h = s.t - last_.t;
    const double w0 = last_.omega.dot(up_), w1 = s.omega.dot(up_);
    r.spin = last_.spin + 0.5 * (w0 + w1) * h;
    r.spinAbs = last_.spinAbs + 0.5 * (std::abs(w0) + std::abs(w1)) * h;
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

/// Not falling (H < kMinFallBodyLengths L): horizontal travel or undetermined.
void decideNotFalling(PatternResult* res, double H, double L) {
  const double travel = res->horizontalTravel;
  const double drop = std::abs(H) / L;
  if (travel >= kMinTravelBodyLengths && drop <= kMaxTravelDropBodyLengths &&
      drop <= kMaxTravelSlope * travel) {
    res->pattern = FallPattern::kHorizontalTravel;
    res->reason = format(
        "swims/travels horizontally at %.3g m/s (%.3g body lengths after the transient; fell "
        "%.3g body lengths)",
        res->horizontalSpeed, travel, H / L);
    return;
  }
  res->reason = format(
      "fell %.3g body lengths after the transient (need %.3g) and travelled %.3g "
      "horizontally (need %.3g)",
      H / L, kMinFallBodyLengths, travel, kMinTravelBodyLengths);
}

/// Tumbled (a one-sense run ≥ kTumbleRunTurns): chaotic, autorotation or undetermined.
void decideTumbled(PatternResult* res) {
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
    res->reason = format("tumbles only %.2f turns (need %.2f) without reversing", res->tumbleTurns,
                         kMinAutorotationTurns);
  }
}

/// A sustained, fast, one-signed spin about the vertical: helicopter-like autorotation.
bool spinsLikeHelicopter(const PatternResult& res, double H, double L) {
  const double turns = std::abs(res.spinTurns);
  return turns >= kMinSpinTurns && turns >= kMinSpinPerLength * H / L &&
         turns >= kMinSpinPerSwing * 0.5 * res.swingReversals &&
         res.spinSteadiness >= kMinSpinSteadiness && res.spinHalfShare >= kMinSpinHalfShare;
}

/// Neither tumbling nor autorotating: zigzag, steady descent or undetermined.
void decideUpright(PatternResult* res) {
  const bool swings =
      res->tiltAmplitude >= kMinZigzagTilt && res->tiltSignChanges >= kMinTiltSignChanges;
  if (swings && res->lateralExcursion >= kMinZigzagExcursion) {
    res->pattern = FallPattern::kZigzag;
    res->reason = format(
        "no tumbling (%.2f turns at most); tilt swings to %.1f° with %.0f sign changes; "
        "sways %.3g body lengths sideways",
        res->longestRunTurns, res->tiltAmplitude * kDeg, res->tiltSignChanges,
        res->lateralExcursion);
    return;
  }
  if (res->horizontalSpread <= kMaxSteadySpread) {
    res->pattern = FallPattern::kSteadyDescent;
    res->reason = format(
        "falls straight: horizontal spread %.3f per fallen height, lateral excursion %.2g body "
        "lengths, tilt up to %.1f° with %.0f sign changes",
        res->horizontalSpread, res->lateralExcursion, res->tiltAmplitude * kDeg,
        res->tiltSignChanges);
    if (swings) {
      res->reason += format(" (a zigzag also needs a lateral excursion ≥ %.2g body lengths)",
                            kMinZigzagExcursion);
    }
    return;
  }
  if (res->tiltAmplitude >= kMinZigzagTilt && !swings) {
    res->reason = format(
        "tilted up to %.1f° with %.0f tilt sign changes (need %.0f) and drifts %.2f per fallen "
        "height: a glide, not a zigzag",
        res->tiltAmplitude * kDeg, res->tiltSignChanges, kMinTiltSignChanges,
        res->horizontalSpread);
  } else {
    res->reason = format(
        "tilt up to %.1f°, lateral excursion %.2g body lengths, but drifts %.2f per fallen "
        "height (steady descent needs ≤ %.2f)",
        res->tiltAmplitude * kDeg, res->lateralExcursion, res->horizontalSpread, kMaxSteadySpread);
  }
}

/// The pattern from the window's measures (fallen height H, body length L).
void decide(PatternResult* res, double H, double L) {
  if (!(H >= kMinFallBodyLengths * L)) {
    decideNotFalling(res, H, L);
    return;
  }
  if (res->longestRunTurns >= kTumbleRunTurns) {
    decideTumbled(res);
    return;
  }
  if (spinsLikeHelicopter(*res, H, L)) {
    const double spinTurns = std::abs(res->spinTurns);
    res->pattern = FallPattern::kAutorotation;
    res->reason = format(
        "spins %.1f turns about the vertical (%.2f per fallen body length, %.0f swing "
        "reversals), coning tilt up to %.1f°: helicopter-like autorotation",
        spinTurns, spinTurns * L / H, res->swingReversals, res->tiltAmplitude * kDeg);
    return;
  }
  decideUpright(res);
}

/// Counts sign changes of x with hysteresis h: x must cross from > h to < −h or back.
class SignChanges {
 public:
  explicit SignChanges(double h) : h_(h) {}
  void add(double x) {
    const int sign = x > h_ ? 1 : (x < -h_ ? -1 : 0);
    if (sign != 0 && sign != sign_) {
      if (sign_ != 0) ++changes_;
      sign_ = sign;
    }
  }
  int changes() const { return changes_; }

 private:
  double h_;
  int sign_ = 0;
  int changes_ = 0;
};

}  // namespace

void PatternTracker::measureTranslation(const Window& win, double H, PatternResult* res) const {
  const Record& first = *win.front();
  const double L = bodyLength_;
  // Horizontal position relative to the window start, and a least-squares line in time.
  const auto horizontal = [&](const Record* r) {
    const Vec3 d = r->com - first.com;
    return Eigen::Vector2d(d.dot(h1_), d.dot(h2_));
  };
  double st = 0.0, stt = 0.0;
  Eigen::Vector2d sp = Eigen::Vector2d::Zero(), stp = Eigen::Vector2d::Zero();
  double spread = 0.0;
  for (const Record* r : win) {
    const double t = r->t - first.t;
    const Eigen::Vector2d p = horizontal(r);
    st += t;
    stt += t * t;
    sp += p;
    stp += t * p;
    spread = std::max(spread, p.norm());
  }
  const double n = static_cast<double>(win.size());
  const double den = n * stt - st * st;
  const Eigen::Vector2d slope = den > 0.0 ? Eigen::Vector2d((n * stp - st * sp) / den)
                                          : Eigen::Vector2d(Eigen::Vector2d::Zero());
  const Eigen::Vector2d icept = (sp - slope * st) / n;
  double excursion = 0.0;
  for (const Record* r : win) {
    const Eigen::Vector2d line = icept + slope * (r->t - first.t);
    excursion = std::max(excursion, (horizontal(r) - line).norm());
  }
  const double travel = horizontal(win.back()).norm();
  const double duration = win.back()->t - first.t;
  res->horizontalSpread = H > 0.0 ? spread / H : 0.0;
  res->lateralExcursion = excursion / L;
  res->horizontalTravel = travel / L;
  res->horizontalSpeed = duration > 0.0 ? travel / duration : 0.0;
}

void PatternTracker::measureRotation(const Window& win, PatternResult* res) const {
  const Record& first = *win.front();
  const Record& lastR = *win.back();
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
  SignChanges tiltChanges(kTiltSignHysteresis);
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
    tiltChanges.add(s);
  }
  longest = std::max(longest, std::abs(ext - runStart));
  res->tumbleTurns = std::abs(psi) / (2.0 * kPi);
  res->longestRunTurns = longest / (2.0 * kPi);
  res->reversals = reversals;
  res->tiltAmplitude = tiltMax;
  res->tiltSignChanges = tiltChanges.changes();
}

void PatternTracker::measureSpin(const Window& win, PatternResult* res) const {
  const Record& first = *win.front();
  const Record& lastR = *win.back();
  const double net = lastR.spin - first.spin;
  const double total = lastR.spinAbs - first.spinAbs;
  res->spinTurns = net / (2.0 * kPi);
  res->spinSteadiness = total > 0.0 ? std::abs(net) / total : 0.0;
  // Each half's share of the net spin (the record nearest the middle splits the window).
  const double tMid = 0.5 * (first.t + lastR.t);
  const Record* mid = win.front();
  for (const Record* r : win) {
    if (std::abs(r->t - tMid) < std::abs(mid->t - tMid)) mid = r;
  }
  res->spinHalfShare =
      net != 0.0 ? std::min(mid->spin - first.spin, lastR.spin - mid->spin) / net : 0.0;

  // The normal in a frame turning with the spin: n' = Rz(−Δspin) n (Rz about up). Its
  // horizontal part's principal direction u (about the mean), then the sign changes of
  // (n' − mean)·u.
  std::vector<Eigen::Vector2d> p;
  p.reserve(win.size());
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (const Record* r : win) {
    const Vec3 nr = Eigen::AngleAxisd(-(r->spin - first.spin), up_) * r->n;
    p.emplace_back(nr.dot(h1_), nr.dot(h2_));
    mean += p.back();
  }
  mean /= static_cast<double>(p.size());
  double xx = 0.0, xy = 0.0, yy = 0.0;
  for (const Eigen::Vector2d& v : p) {
    const Eigen::Vector2d d = v - mean;
    xx += d.x() * d.x();
    xy += d.x() * d.y();
    yy += d.y() * d.y();
  }
  const double phi = majorAxisAngle(xx, xy, yy);
  const Eigen::Vector2d u(std::cos(phi), std::sin(phi));
  SignChanges swings(std::sin(kTiltSignHysteresis));
  for (const Eigen::Vector2d& v : p) swings.add((v - mean).dot(u));
  res->swingReversals = swings.changes();
}

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
  Window win;
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
  const double H = up_.dot(win.front()->com - win.back()->com);
  res.fallenHeight = H;
  measureTranslation(win, H, &res);
  measureRotation(win, &res);
  measureSpin(win, &res);
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
