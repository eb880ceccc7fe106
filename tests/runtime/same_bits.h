#pragma once
// Bitwise comparisons of states for the runtime's determinism tests (the ghost run, history
// scrubbing): equal bits, not equal values (−0 ≠ +0, NaN = NaN with the same payload).
#include <cstring>

#include "core/world.h"

namespace samara::runtime::test {

inline bool sameBits(const double* a, const double* b, Eigen::Index n) {
  return std::memcmp(a, b, static_cast<std::size_t>(n) * sizeof(double)) == 0;
}

/// Pose, Y, μ, the carried momentum and the continuous flag.
inline bool sameBits(const core::BodyState& a, const core::BodyState& b) {
  return sameBits(a.g.q.coeffs().data(), b.g.q.coeffs().data(), 4) &&
         sameBits(a.g.b.data(), b.g.b.data(), 3) && sameBits(a.Y.data(), b.Y.data(), 6) &&
         sameBits(a.mu.data(), b.mu.data(), 6) &&
         sameBits(a.carriedMomentum.data(), b.carriedMomentum.data(), 6) &&
         sameBits(a.frame.data(), b.frame.data(), 3) && a.continuous == b.continuous;
}

/// The CSV's quantities: COM, q, v, ω, momenta and the kinetic energy.
inline bool sameBits(const core::BodyDiagnostics& a, const core::BodyDiagnostics& b) {
  return sameBits(a.com.data(), b.com.data(), 3) &&
         sameBits(a.q.coeffs().data(), b.q.coeffs().data(), 4) &&
         sameBits(a.velocity.data(), b.velocity.data(), 3) &&
         sameBits(a.omega.data(), b.omega.data(), 3) &&
         sameBits(a.linearMomentum.data(), b.linearMomentum.data(), 3) &&
         sameBits(a.angularMomentum.data(), b.angularMomentum.data(), 3) &&
         sameBits(&a.kineticEnergy, &b.kineticEnergy, 1);
}

}  // namespace samara::runtime::test
