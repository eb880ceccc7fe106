#pragma once
// The Navier–Stokes reference of a reduced scene in the viewer: when the scene is the
// reduced_scene.json of a `samara cfd` run (io::findCfdReference), the run's body is shown as
// the ghost of body 0 (while no model ghost runs) at the snapshot's time, and its vorticity
// picture nearest in time is put on a plane through the middle of its span (the ghost's
// section on it, the near half of the span in front). Read on the UI thread only;
// the simulation thread and its bits know nothing of it.
#include <optional>
#include <string>
#include <vector>

#include "io/cfd_reference.h"
#include "runtime/snapshot.h"

namespace samara::runtime {

/// The label of the reference ghost (Snapshot::ghostModel while it is shown).
inline constexpr const char* kReferenceGhostModel = "Navier-Stokes 2D";

class ReferenceGhost {
 public:
  /// On a new run: reads the reference beside `s.scenePath` when the scene changed (kept
  /// across resets and restarts of the same file). Returns "" or why the run beside the
  /// scene cannot be read (there is then no reference).
  std::string onNewRun(const Snapshot& s);
  bool active() const { return reference_.has_value(); }
  const io::CfdReference& reference() const { return *reference_; }

  /// `s` with the reference's body as ghost body 0 at `s.time`, when `s` has one body or
  /// more and no ghost of its own; otherwise `s` itself. The result lives until the next
  /// call.
  const Snapshot& apply(const Snapshot& s);

  /// Appends to `samples`, for each of body 0's (not a ghost's) up to the run's end, the
  /// reference's sample at its time, marked as the ghost's, so that the plots, trails and
  /// falling patterns show the reference beside body 0. Nothing while `s` has a model ghost.
  void addSamples(std::vector<PlotSample>* samples, const Snapshot& s) const;

  /// The picture of the run to show at time t (-1 = none) and the plane it lies on: the
  /// window's lower-left corner at depth z, the middle of body 0's span (world, m).
  int pictureAt(double t) const;
  double planeZ() const { return planeZ_; }

 private:
  std::string path_;
  std::optional<io::CfdReference> reference_;
  double planeZ_ = 0.0;
  Snapshot shown_;
};

/// The reference's diagnostics at time t: COM, velocities, fall speed and spin along
/// `gravity` (the other fields zero).
core::BodyDiagnostics referenceDiagnostics(const io::CfdReference& r, double t,
                                           const Vec3& gravity);
/// Body `b` moved rigidly to the reference's pose at time t (vertices, bounds, COM and
/// velocities from the trajectory, fall speed and spin along `gravity`; its model named
/// kReferenceGhostModel).
BodySnapshot referenceBody(const BodySnapshot& b, const io::CfdReference& r, double t,
                           const Vec3& gravity);

}  // namespace samara::runtime
