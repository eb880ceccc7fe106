#include "core/animation.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cassert>
#include <cmath>

namespace samara::core {

double keyframeCoordinate(double t, double fps, int frames, LoopMode mode, double timeOffset) {
  if (frames <= 1) return 0.0;
  const double u = (t + timeOffset) * fps;
  const double last = frames - 1;
  switch (mode) {
    case LoopMode::kHold:
      return std::clamp(u, 0.0, last);
    case LoopMode::kLoop: {
      // Period of `frames` intervals: frame n−1 is followed by frame 0.
      const double period = frames;
      double w = std::fmod(u, period);
      if (w < 0.0) w += period;
      return w;
    }
    case LoopMode::kPingPong: {
      const double period = 2.0 * last;
      double w = std::fmod(u, period);
      if (w < 0.0) w += period;
      return w <= last ? w : period - w;
    }
  }
  return 0.0;
}

namespace {

/// Catmull–Rom weights for the points p(i−1), p(i), p(i+1), p(i+2) at fraction x ∈ [0, 1].
void catmullRomWeights(double x, double w[4]) {
  const double x2 = x * x, x3 = x2 * x;
  w[0] = 0.5 * (-x3 + 2.0 * x2 - x);
  w[1] = 0.5 * (3.0 * x3 - 5.0 * x2 + 2.0);
  w[2] = 0.5 * (-3.0 * x3 + 4.0 * x2 + x);
  w[3] = 0.5 * (x3 - x2);
}

}  // namespace

MeshSequence::MeshSequence(std::vector<geometry::VertexMatrix> frames, Settings settings)
    : frames_(std::move(frames)), s_(settings) {
  assert(!frames_.empty());
}

int MeshSequence::numVertices() const { return static_cast<int>(frames_.front().rows()); }

void MeshSequence::evaluate(double t, geometry::VertexMatrix* V) const {
  const int n = numFrames();
  if (n == 1) {
    *V = frames_[0];
    return;
  }
  const double u = keyframeCoordinate(s_.timeScale * t, s_.fps, n, s_.mode, s_.timeOffset);
  int i = static_cast<int>(std::floor(u));
  double x = u - i;
  auto frame = [&](int k) -> const geometry::VertexMatrix& {
    if (s_.mode == LoopMode::kLoop) return frames_[static_cast<size_t>(((k % n) + n) % n)];
    return frames_[static_cast<size_t>(std::clamp(k, 0, n - 1))];
  };
  if (s_.mode != LoopMode::kLoop && i >= n - 1) {
    i = n - 2;
    x = 1.0;
  }
  if (!s_.smooth) {
    *V = (1.0 - x) * frame(i) + x * frame(i + 1);
    return;
  }
  double w[4];
  catmullRomWeights(x, w);
  *V = w[0] * frame(i - 1) + w[1] * frame(i) + w[2] * frame(i + 1) + w[3] * frame(i + 2);
}

double ScalarTrack::evaluate(double t) const {
  const size_t n = times.size();
  if (n == 0) return 0.0;
  if (n == 1) return values[0];
  const double t0 = times.front(), t1 = times.back();
  if (loop) {
    const double period = t1 - t0;
    t = std::fmod(t - t0, period);
    if (t < 0.0) t += period;
    t += t0;
  } else {
    if (t <= t0) return values.front();
    if (t >= t1) return values.back();
  }
  const size_t i = static_cast<size_t>(std::clamp<std::ptrdiff_t>(
      std::upper_bound(times.begin(), times.end(), t) - times.begin() - 1, 0,
      static_cast<std::ptrdiff_t>(n) - 2));
  const double x = (t - times[i]) / (times[i + 1] - times[i]);
  if (!smooth) return (1.0 - x) * values[i] + x * values[i + 1];
  // Catmull–Rom on a (possibly non-uniform) grid via finite-difference tangents; for a
  // looped track the neighbours wrap (the last key equals the first).
  auto value = [&](std::ptrdiff_t k) {
    const auto last = static_cast<std::ptrdiff_t>(n) - 1;
    if (loop) {
      if (k < 0) k += last;
      if (k > last) k -= last;
      return values[static_cast<size_t>(k)];
    }
    // Past the ends: reflect through the end key (linear extrapolation), so the tangent at
    // the end is the one-sided slope rather than half of it.
    if (k < 0) return 2.0 * values[0] - values[1];
    if (k > last) return 2.0 * values[n - 1] - values[n - 2];
    return values[static_cast<size_t>(k)];
  };
  auto time = [&](std::ptrdiff_t k) {
    const auto last = static_cast<std::ptrdiff_t>(n) - 1;
    const double period = t1 - t0;
    if (k < 0) return loop ? times[static_cast<size_t>(k + last)] - period : 2 * t0 - times[1];
    if (k > last)
      return loop ? times[static_cast<size_t>(k - last)] + period : 2 * t1 - times[n - 2];
    return times[static_cast<size_t>(k)];
  };
  const auto ii = static_cast<std::ptrdiff_t>(i);
  const double h = times[i + 1] - times[i];
  const double m0 = (value(ii + 1) - value(ii - 1)) / (time(ii + 1) - time(ii - 1)) * h;
  const double m1 = (value(ii + 2) - value(ii)) / (time(ii + 2) - time(ii)) * h;
  const double x2 = x * x, x3 = x2 * x;
  return (2 * x3 - 3 * x2 + 1) * values[i] + (x3 - 2 * x2 + x) * m0 +
         (-2 * x3 + 3 * x2) * values[i + 1] + (x3 - x2) * m1;
}

void TravellingWave::prepare() {
  const Eigen::VectorXd s = rest * axis;
  sMin_ = s.minCoeff();
  sMax_ = s.maxCoeff();
  if (sMax_ <= sMin_) sMax_ = sMin_ + 1.0;
}

void TravellingWave::evaluate(double t, geometry::VertexMatrix* V) const {
  *V = rest;
  double ramp = 1.0;
  if (rampTime > 0.0 && t < rampTime) {
    const double x = std::max(t, 0.0) / rampTime;
    ramp = x * x * (3.0 - 2.0 * x);  // smoothstep
  }
  const double k = 2.0 * M_PI / wavelength;
  const double w = 2.0 * M_PI * frequency;
  for (Eigen::Index i = 0; i < rest.rows(); ++i) {
    const Eigen::Vector3d x = rest.row(i).transpose();
    const double s = x.dot(axis);
    const double sh = (s - sMin_) / (sMax_ - sMin_);
    const double A = a0 + a1 * sh + a2 * sh * sh;
    const double d = ramp * A * std::sin(k * s - w * t + phase);
    V->row(i) += d * lateral.transpose();
  }
}

void RigidPartsAnimation::partTransform(int i, double t, Eigen::Matrix3d* R,
                                        Eigen::Vector3d* p) const {
  const RigidPart& part = parts[static_cast<size_t>(i)];
  const double angle = part.spinRate * t + part.angle.evaluate(t);
  const Eigen::Matrix3d Ri = Eigen::AngleAxisd(angle, part.axis).toRotationMatrix();
  // x ↦ Ri (x − pivot) + pivot.
  Eigen::Matrix3d Rl = Ri;
  Eigen::Vector3d pl = part.pivot - Ri * part.pivot;
  if (part.parent >= 0) {
    Eigen::Matrix3d Rp;
    Eigen::Vector3d pp;
    partTransform(part.parent, t, &Rp, &pp);
    pl = Rp * pl + pp;
    Rl = Rp * Rl;
  }
  *R = Rl;
  *p = pl;
}

void RigidPartsAnimation::evaluate(double t, geometry::VertexMatrix* V) const {
  *V = rest;
  for (size_t i = 0; i < parts.size(); ++i) {
    Eigen::Matrix3d R;
    Eigen::Vector3d p;
    partTransform(static_cast<int>(i), t, &R, &p);
    for (int v : parts[i].vertices) {
      V->row(v) = (R * rest.row(v).transpose() + p).transpose();
    }
  }
}

RootMotionRemoved::RootMotionRemoved(std::shared_ptr<const ShapeAnimation> a)
    : inner(std::move(a)) {
  geometry::VertexMatrix V;
  inner->evaluate(0.0, &V);
  centroid0 = V.colwise().mean();
}

void RootMotionRemoved::evaluate(double t, geometry::VertexMatrix* V) const {
  inner->evaluate(t, V);
  const Eigen::RowVector3d c = V->colwise().mean();
  V->rowwise() -= c - centroid0;
}

namespace {

double channelTime(const std::vector<double>& times, double t, size_t* i, double* x) {
  const size_t n = times.size();
  if (n == 1 || t <= times.front()) {
    *i = 0;
    *x = 0.0;
    return 0.0;
  }
  if (t >= times.back()) {
    *i = n - 2;
    *x = 1.0;
    return times[n - 1] - times[n - 2];
  }
  *i = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin() - 1);
  const double dt = times[*i + 1] - times[*i];
  *x = (t - times[*i]) / dt;
  return dt;
}

/// Samples a glTF channel (glTF 2.0 §3.11 Animations, Appendix C for cubic splines).
Eigen::VectorXd sampleChannel(const SkinnedAnimation::Channel& c, double t, int comps) {
  using Interp = SkinnedAnimation::Interp;
  const size_t n = c.times.size();
  const int stride = c.interp == Interp::kCubicSpline ? 3 * comps : comps;
  const int off = c.interp == Interp::kCubicSpline ? comps : 0;  // value within the triple
  auto key = [&](size_t k, int part) {
    return Eigen::Map<const Eigen::VectorXd>(&c.values[k * stride + part * comps], comps);
  };
  if (n == 1) return key(0, off == 0 ? 0 : 1);
  size_t i = 0;
  double x = 0.0;
  const double dt = channelTime(c.times, t, &i, &x);
  Eigen::VectorXd out(comps);
  switch (c.interp) {
    case Interp::kStep:
      out = key(x >= 1.0 ? i + 1 : i, 0);
      break;
    case Interp::kLinear:
      if (comps == 4) {
        Eigen::Quaterniond a(key(i, 0)[3], key(i, 0)[0], key(i, 0)[1], key(i, 0)[2]);
        Eigen::Quaterniond b(key(i + 1, 0)[3], key(i + 1, 0)[0], key(i + 1, 0)[1],
                             key(i + 1, 0)[2]);
        const Eigen::Quaterniond q = a.normalized().slerp(x, b.normalized());
        out << q.x(), q.y(), q.z(), q.w();
      } else {
        out = (1.0 - x) * key(i, 0) + x * key(i + 1, 0);
      }
      break;
    case Interp::kCubicSpline: {
      const double x2 = x * x, x3 = x2 * x;
      // p(x) = (2x³−3x²+1) v_i + dt (x³−2x²+x) b_i + (−2x³+3x²) v_{i+1} + dt (x³−x²) a_{i+1}
      out = (2 * x3 - 3 * x2 + 1) * key(i, 1) + dt * (x3 - 2 * x2 + x) * key(i, 2) +
            (-2 * x3 + 3 * x2) * key(i + 1, 1) + dt * (x3 - x2) * key(i + 1, 0);
      if (comps == 4) out.normalize();
      break;
    }
  }
  return out;
}

}  // namespace

std::vector<Eigen::Matrix4d> SkinnedAnimation::globalTransforms(double t) const {
  double tt = t * timeScale;
  if (loop && duration > 0.0) {
    tt = std::fmod(tt, duration);
    if (tt < 0.0) tt += duration;
  }
  std::vector<Node> local = nodes;
  for (const Channel& c : channels) {
    Node& nd = local[static_cast<size_t>(c.node)];
    switch (c.path) {
      case Path::kTranslation:
        nd.t = sampleChannel(c, tt, 3);
        break;
      case Path::kScale:
        nd.s = sampleChannel(c, tt, 3);
        break;
      case Path::kRotation: {
        const Eigen::VectorXd q = sampleChannel(c, tt, 4);
        nd.r = Eigen::Quaterniond(q[3], q[0], q[1], q[2]).normalized();
        break;
      }
    }
  }
  std::vector<Eigen::Matrix4d> global(local.size());
  for (size_t i = 0; i < local.size(); ++i) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = local[i].r.toRotationMatrix() * local[i].s.asDiagonal();
    m.topRightCorner<3, 1>() = local[i].t;
    const int parent = local[i].parent;
    global[i] = parent >= 0 ? Eigen::Matrix4d(global[static_cast<size_t>(parent)] * m) : m;
  }
  return global;
}

void SkinnedAnimation::evaluate(double t, geometry::VertexMatrix* V) const {
  const std::vector<Eigen::Matrix4d> global = globalTransforms(t);
  std::vector<Eigen::Matrix4d> skin(joints.size());
  for (size_t j = 0; j < joints.size(); ++j) {
    skin[j] = meshToBody * global[static_cast<size_t>(joints[j])] * inverseBind[j];
  }
  V->resize(rest.rows(), 3);
  for (Eigen::Index i = 0; i < rest.rows(); ++i) {
    const Eigen::Vector4d x(rest(i, 0), rest(i, 1), rest(i, 2), 1.0);
    Eigen::Vector4d y = Eigen::Vector4d::Zero();
    for (int k = 0; k < 4; ++k) {
      const double w = vertexWeights(i, k);
      if (w != 0.0) y += w * (skin[static_cast<size_t>(vertexJoints(i, k))] * x);
    }
    V->row(i) = y.head<3>().transpose();
  }
}

}  // namespace samara::core
