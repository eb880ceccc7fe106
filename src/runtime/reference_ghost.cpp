#include "runtime/reference_ghost.h"

#include <algorithm>

#include "io/error.h"

namespace samara::runtime {

std::string ReferenceGhost::onNewRun(const Snapshot& s) {
  if (s.scenePath == path_) return "";
  path_ = s.scenePath;
  reference_.reset();
  planeZ_ = 0.0;
  if (!s.sceneFromFile) return "";
  try {
    reference_ = io::findCfdReference(s.scenePath);
  } catch (const io::Error& e) {
    return std::string("the Navier-Stokes run beside the scene cannot be shown: ") + e.what();
  }
  if (reference_ && !s.bodies.empty()) {
    // Through the middle of the span: the run's section of the plate (grey in the
    // picture) lies on the ghost's own, and the near half of the span stands in front.
    const auto& b = s.bodies.front();
    planeZ_ = 0.5 * (b.boundsLo.z() + b.boundsHi.z());
  }
  return "";
}

core::BodyDiagnostics referenceDiagnostics(const io::CfdReference& r, double t,
                                           const Vec3& gravity) {
  // Velocities of the sample at or before t (the trajectory's own, not differences).
  const auto after = std::upper_bound(r.states.begin(), r.states.end(), t,
                                      [](double v, const io::StateRow& row) { return v < row.t; });
  const io::StateRow& row = after == r.states.begin() ? r.states.front() : *(after - 1);
  core::BodyDiagnostics d;
  d.com = cfdPoseAt(r, t).position;
  d.velocity = row.velocity;
  d.omega = row.omega;
  if (gravity.norm() > 0.0) {
    const Vec3 down = gravity.normalized();
    d.fallSpeed = row.velocity.dot(down);
    d.spinRate = -row.omega.dot(down);
  }
  return d;
}

BodySnapshot referenceBody(const BodySnapshot& b, const io::CfdReference& r, double t,
                           const Vec3& gravity) {
  BodySnapshot g = b;
  const io::CfdPose pose = cfdPoseAt(r, t);
  // Snapshots place a rigid body by its origin; the trajectory gives the COM.
  const Vec3 offset = b.position - b.diagnostics.com;  // origin − COM, world, at b's pose
  const Vec3 offsetBody = b.orientation.conjugate() * offset;
  g.orientation = pose.orientation;
  g.position = pose.position + pose.orientation * offsetBody;
  if (b.restVertices) {
    g.vertices = (*b.restVertices * g.orientation.toRotationMatrix().transpose()).rowwise() +
                 g.position.transpose();
  }
  if (g.vertices.rows() > 0) {
    g.boundsLo = g.vertices.colwise().minCoeff().transpose();
    g.boundsHi = g.vertices.colwise().maxCoeff().transpose();
  }
  g.diagnostics = referenceDiagnostics(r, t, gravity);
  g.model = kReferenceGhostModel;
  g.modelOverride.reset();
  g.teaching.reset();
  return g;
}

const Snapshot& ReferenceGhost::apply(const Snapshot& s) {
  if (!reference_ || s.bodies.empty() || !s.ghostBodies.empty()) return s;
  shown_ = s;
  shown_.ghostModel = kReferenceGhostModel;
  shown_.ghostBodies = {referenceBody(s.bodies.front(), *reference_, s.time, s.params.gravity)};
  shown_.ghostStepIndex = s.stepIndex;
  return shown_;
}

void ReferenceGhost::addSamples(std::vector<PlotSample>* samples, const Snapshot& s) const {
  if (!reference_ || s.bodies.empty()) return;
  if (!s.ghostModel.empty() && s.ghostModel != kReferenceGhostModel) return;
  const double end = reference_->states.back().t;
  const std::size_t n = samples->size();
  for (std::size_t k = 0; k < n; ++k) {
    const PlotSample main = (*samples)[k];
    if (main.ghost || main.body != 0 || main.time > end + 1e-9) continue;
    PlotSample g = main;
    g.ghost = true;
    g.d = referenceDiagnostics(*reference_, main.time, s.params.gravity);
    samples->push_back(g);
  }
}

int ReferenceGhost::pictureAt(double t) const {
  return reference_ ? io::cfdPictureAt(*reference_, t) : -1;
}

}  // namespace samara::runtime
