// BodyImpl's flow at its centre and its faces: the gusts' velocity with its memo, and the
// per-face offsets a step's face kernel reads.
#include <algorithm>
#include <cstring>

#include "core/body_impl.h"

namespace samara::core {

Vec3 BodyImpl::gustVelocity(const FluidDef& fluid, const Vec3& x, double t) const {
  if (!fluid.gusts) return Vec3::Zero();
  const double key[4] = {x.x(), x.y(), x.z(), t};
  FlowMemo& m = gustMemo;
  if (m.field != fluid.gusts) {
    m.field = fluid.gusts;
    m.count = 0;
  }
  for (int j = 0; j < m.count; ++j) {
    if (std::memcmp(key, m.key[j], sizeof key) == 0) return m.u[j];
  }
  const int slot = m.count < 2 ? m.count++ : 1 - m.newest;  // the older one goes
  std::memcpy(m.key[slot], key, sizeof key);
  m.u[slot] = fluid.gusts->velocity(x, t);
  m.newest = slot;
  return m.u[slot];
}

void BodyImpl::packFaceOffsets(const Pose& g, double t, const Vec3& offset, const Vec3& shift,
                               bool gusts, const WorldDef& world) {
  // Each face's offset in drag's layout (padding zero): the common one plus the face's shape
  // velocity, minus the gusts' flow at the face in the body frame, o −= Rᵀ (u_f + shift)
  // (all faces in one vectorised pass).
  const size_t nf = drag.size();
  const auto p = static_cast<size_t>(drag.padded);
  std::vector<double>& o = packOffsets.o;
  o.resize(3 * p);
  for (size_t j = 0; j < 3; ++j) {  // the padding
    std::fill(o.begin() + static_cast<std::ptrdiff_t>(j * p + nf),
              o.begin() + static_cast<std::ptrdiff_t>((j + 1) * p), 0.0);
  }
  if (faceShapeVel.empty()) {  // one offset for every face
    for (size_t j = 0; j < 3; ++j) {
      std::fill(o.begin() + static_cast<std::ptrdiff_t>(j * p),
                o.begin() + static_cast<std::ptrdiff_t>(j * p + nf), offset[static_cast<int>(j)]);
    }
  } else {
    for (size_t f = 0; f < nf; ++f) {
      const Vec3 v = offset + faceShapeVel[f];
      o[f] = v.x();
      o[p + f] = v.y();
      o[2 * p + f] = v.z();
    }
  }
  if (!gusts) return;
  if (!faceBoxValid && nf > 0) {
    pointBox(nf, drag.x.data(), drag.y.data(), drag.z.data(), &faceBox.lo, &faceBox.hi);
    faceBoxValid = true;
  }
  world.fluid.gusts->subtractInBody(nf, drag.x.data(), drag.y.data(), drag.z.data(),
                                    g.q.toRotationMatrix(), g.b, t, shift, o.data(), o.data() + p,
                                    o.data() + 2 * p, nf > 0 ? &faceBox : nullptr);
}

}  // namespace samara::core
