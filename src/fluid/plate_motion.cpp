#include "fluid/plate_motion.h"

#include <algorithm>
#include <cmath>

#include "geometry/types.h"

namespace samara::fluid {

namespace {}

std::string regimeName(PlateRegime r) {
  switch (r) {
    case PlateRegime::kSteady:
      return "steady descent";
    case PlateRegime::kFluttering:
      return "fluttering";
    case PlateRegime::kTumbling:
      return "tumbling";
    case PlateRegime::kChaotic:
      return "chaotic";
  }
  return "?";
}

PlateMotion classifyPlate(const std::vector<PlateSample>& all, double from) {
  std::vector<PlateSample> s;
  for (const PlateSample& p : all) {
    if (p.t >= from) s.push_back(p);
  }
  PlateMotion m;
  if (s.size() < 3) return m;
  const PlateSample& a = s.front();
  const PlateSample& b = s.back();
  const double span = b.t - a.t;
  m.turns = (b.angle - a.angle) / (2.0 * kPi);
  m.rotationRate = std::abs(m.turns) / span;
  m.descentSpeed = -(b.y - a.y) / span;
  m.drift = (b.x - a.x) / span;
  m.descentAngle = std::atan2(std::abs(b.y - a.y), std::abs(b.x - a.x)) * 180.0 / kPi;
  double lo = a.angle, hi = a.angle, mean = 0.0;
  int positive = 0;
  for (const PlateSample& p : s) {
    lo = std::min(lo, p.angle);
    hi = std::max(hi, p.angle);
    mean += p.angle / static_cast<double>(s.size());
    positive += p.omega > 0.0;
  }
  m.swing = 0.5 * (hi - lo);
  m.oneSigned =
      std::max(positive, static_cast<int>(s.size()) - positive) / static_cast<double>(s.size());
  double stray = 0.0;
  for (const PlateSample& p : s) stray = std::max(stray, std::abs(p.angle - mean));
  // Flutter period: the mean interval between upward crossings of the mean angle.
  std::vector<double> ups;
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i - 1].angle < mean && s[i].angle >= mean) ups.push_back(s[i].t);
  }
  if (ups.size() >= 2) m.period = (ups.back() - ups.front()) / static_cast<double>(ups.size() - 1);
  if (std::abs(m.turns) >= 1.5 && m.oneSigned >= 0.9) {
    m.regime = PlateRegime::kTumbling;
  } else if (stray < 0.5 * kPi) {
    m.regime = m.swing >= 5.0 * kPi / 180.0 ? PlateRegime::kFluttering : PlateRegime::kSteady;
  } else {
    m.regime = PlateRegime::kChaotic;
  }
  return m;
}

}  // namespace samara::fluid
