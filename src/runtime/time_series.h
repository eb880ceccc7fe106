#pragma once
// Plot history on the UI side: every PlotSample of the current run, per body, in a ring
// buffer of channels (the plotted quantities), searchable by time. GL- and ImGui-free.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/snapshot.h"

namespace samara::runtime {

/// The quantities kept per sample (world frame, SI units).
enum Channel : int {
  kPx,                  ///< linear momentum x, kg·m/s
  kPy,                  ///< linear momentum y, kg·m/s
  kPz,                  ///< linear momentum z, kg·m/s
  kPNorm,               ///< |linear momentum|, kg·m/s
  kLx,                  ///< angular momentum about the world origin x, kg·m²/s
  kLy,                  ///< angular momentum y, kg·m²/s
  kLz,                  ///< angular momentum z, kg·m²/s
  kLNorm,               ///< |angular momentum|, kg·m²/s
  kFallSpeed,           ///< COM velocity along gravity, m/s
  kSpinRate,            ///< ω about the up axis, rad/s
  kOmegaNorm,           ///< |ω|, rad/s
  kKineticEnergy,       ///< ½ Yᵀ𝒦Y, J
  kKineticEnergyBody,   ///< body part, J
  kKineticEnergyFluid,  ///< fluid (added-mass) part, J
  kComX,                ///< centre of mass x, m
  kComY,                ///< centre of mass y, m
  kComZ,                ///< centre of mass z, m
  kNewtonIterations,    ///< of the step that produced the sample
  kNumChannels
};

/// One body's samples, oldest first, at most `capacity` (the oldest are dropped).
class TimeSeries {
 public:
  using Row = std::array<double, kNumChannels>;

  explicit TimeSeries(std::size_t capacity = 1u << 16);
  void clear();
  /// Appends a sample (times must not decrease).
  void append(double t, const core::BodyDiagnostics& d);

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  /// Time of sample i (0 = oldest), s.
  double time(std::size_t i) const { return times_[index(i)]; }
  /// Channel c of sample i.
  double value(std::size_t i, int c) const { return rows_[index(i)][static_cast<std::size_t>(c)]; }
  const Row& row(std::size_t i) const { return rows_[index(i)]; }
  /// First sample with time ≥ t (size() if none).
  std::size_t lowerBound(double t) const;
  /// Sample nearest to time t (size() if empty).
  std::size_t nearest(double t) const;
  /// Samples dropped because the buffer was full.
  std::uint64_t dropped() const { return dropped_; }

 private:
  std::size_t index(std::size_t i) const { return (start_ + i) % capacity_; }

  std::size_t capacity_;
  std::vector<double> times_;
  std::vector<Row> rows_;
  std::size_t start_ = 0;
  std::size_t size_ = 0;
  std::uint64_t dropped_ = 0;
};

/// The histories of every body of the current run, and of every body of its ghost run
/// (PlotSample::ghost) in a second set of series with the same indices: feed it what
/// Runner::takeSamples gives.
class PlotHistory {
 public:
  /// `totalCapacity` samples are shared among the bodies and ghost bodies (at least 4096
  /// each).
  explicit PlotHistory(std::size_t totalCapacity = 1u << 17) : totalCapacity_(totalCapacity) {}
  /// Adds samples; a sample of a new generation (a new run) clears the history first.
  void consume(const std::vector<PlotSample>& samples);
  void clear();
  std::uint64_t generation() const { return generation_; }
  int numBodies() const { return static_cast<int>(series_.size()); }
  const TimeSeries& body(int i) const { return series_[static_cast<std::size_t>(i)]; }
  /// Bodies of the ghost run (0 when the run has no ghost).
  int numGhostBodies() const { return static_cast<int>(ghostSeries_.size()); }
  /// The ghost of body i (i < numGhostBodies()).
  const TimeSeries& ghostBody(int i) const { return ghostSeries_[static_cast<std::size_t>(i)]; }
  /// Samples consumed since the last clear (all bodies, ghost ones included).
  std::uint64_t received() const { return received_; }

 private:
  void ensureBodies(std::vector<TimeSeries>* series, int n);

  std::size_t totalCapacity_;
  std::size_t perBody_ = 4096;  // capacity of each series of the current run
  std::uint64_t generation_ = 0;
  std::uint64_t received_ = 0;
  std::vector<TimeSeries> series_;
  std::vector<TimeSeries> ghostSeries_;
};

}  // namespace samara::runtime
