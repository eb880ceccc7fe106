#include "runtime/time_series.h"

#include <algorithm>

namespace samara::runtime {

TimeSeries::TimeSeries(std::size_t capacity)
    : capacity_(std::max<std::size_t>(capacity, 1)),
      times_(capacity_, 0.0),
      rows_(capacity_, Row{}) {}

void TimeSeries::clear() {
  start_ = 0;
  size_ = 0;
  dropped_ = 0;
}

void TimeSeries::append(double t, const core::BodyDiagnostics& d) {
  std::size_t slot;
  if (size_ < capacity_) {
    slot = index(size_);
    ++size_;
  } else {
    slot = start_;
    start_ = (start_ + 1) % capacity_;
    ++dropped_;
  }
  times_[slot] = t;
  Row& r = rows_[slot];
  r[kPx] = d.linearMomentum.x();
  r[kPy] = d.linearMomentum.y();
  r[kPz] = d.linearMomentum.z();
  r[kPNorm] = d.linearMomentum.norm();
  r[kLx] = d.angularMomentum.x();
  r[kLy] = d.angularMomentum.y();
  r[kLz] = d.angularMomentum.z();
  r[kLNorm] = d.angularMomentum.norm();
  r[kFallSpeed] = d.fallSpeed;
  r[kSpinRate] = d.spinRate;
  r[kOmegaNorm] = d.omega.norm();
  r[kKineticEnergy] = d.kineticEnergy;
  r[kKineticEnergyBody] = d.kineticEnergyBody;
  r[kKineticEnergyFluid] = d.kineticEnergyFluid;
  r[kComX] = d.com.x();
  r[kComY] = d.com.y();
  r[kComZ] = d.com.z();
  r[kNewtonIterations] = d.newtonIterations;
}

std::size_t TimeSeries::lowerBound(double t) const {
  std::size_t lo = 0, hi = size_;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (time(mid) < t) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

std::size_t TimeSeries::nearest(double t) const {
  if (size_ == 0) return 0;
  const std::size_t i = lowerBound(t);
  if (i == 0) return 0;
  if (i == size_) return size_ - 1;
  return (t - time(i - 1) <= time(i) - t) ? i - 1 : i;
}

void PlotHistory::clear() {
  series_.clear();
  ghostSeries_.clear();
  received_ = 0;
}

void PlotHistory::ensureBodies(std::vector<TimeSeries>* series, int n) {
  while (static_cast<int>(series->size()) < n) series->emplace_back(perBody_);
}

void PlotHistory::consume(const std::vector<PlotSample>& samples) {
  for (const PlotSample& s : samples) {
    if (s.generation != generation_) {
      if (s.generation < generation_) continue;  // a stale sample of an older run
      clear();
      generation_ = s.generation;
      // A run starts with one sample per body and ghost body (their initial states): size
      // the buffers for all.
      int n = 0, ng = 0;
      for (const PlotSample& o : samples) {
        if (o.generation != generation_) continue;
        int& count = o.ghost ? ng : n;
        count = std::max(count, o.body + 1);
      }
      perBody_ = std::max<std::size_t>(
          4096, totalCapacity_ / static_cast<std::size_t>(std::max(n + ng, 1)));
      ensureBodies(&series_, n);
      ensureBodies(&ghostSeries_, ng);
    }
    if (s.body < 0) continue;
    std::vector<TimeSeries>& series = s.ghost ? ghostSeries_ : series_;
    ensureBodies(&series, s.body + 1);
    series[static_cast<std::size_t>(s.body)].append(s.time, s.d);
    ++received_;
  }
}

}  // namespace samara::runtime
