#pragma once
// A `samara cfd` run read back for the viewer: the reference trajectory and the vorticity
// pictures beside a reduced_scene.json, so that the viewer can show the Navier–Stokes run
// as a ghost with its vorticity on a plane behind the body.
#include <optional>
#include <string>
#include <vector>

#include "geometry/types.h"
#include "io/states_csv.h"

namespace samara::io {

/// One vorticity picture of the run: RGB, rows top to bottom, covering the window
/// [x0, x0 + width] × [y0, y0 + height] (world, m) at time t.
struct CfdPicture {
  double t = 0.0;
  double x0 = 0.0, y0 = 0.0;
  std::string file;  ///< the PNG's path
  int pixelsX = 0, pixelsY = 0;
  std::vector<unsigned char> rgb;
};

struct CfdReference {
  std::string dir;                   ///< the run's folder
  std::string sceneName;             ///< snapshots.json's "scene"
  std::vector<StateRow> states;      ///< trajectory.csv, in time order
  double width = 0.0;                ///< the window, m (nx · dx)
  double height = 0.0;               ///< m (ny · dx)
  std::vector<CfdPicture> pictures;  ///< in time order
};

/// The reference run beside `scenePath` when the scene is a run's reduced_scene.json (its
/// folder holds trajectory.csv and snapshots.json); nullopt for any other scene. Throws
/// Error naming the file and the field or line when the run's files are malformed.
std::optional<CfdReference> findCfdReference(const std::string& scenePath);
/// Reads the run in `dir` (trajectory.csv, snapshots.json and the PNGs it lists).
CfdReference loadCfdReference(const std::string& dir);

/// The reference's pose at time t: position linear and orientation spherical between the
/// two samples around t; the first or last sample outside the run.
struct CfdPose {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
};
CfdPose cfdPoseAt(const CfdReference& r, double t);
/// The picture nearest in time to t (-1 when the run has none).
int cfdPictureAt(const CfdReference& r, double t);

}  // namespace samara::io
