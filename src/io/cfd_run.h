#pragma once
// Running a CFD scene (`samara cfd`) and writing what it produced into a folder:
//   trajectory.csv   the body's motion in `samara run`'s columns (per metre of span: the 2D
//                    plane is the world's x–y plane, y up, z = 0; rotation about z)
//   forces.csv       t, fx, fy, torque (the flow's force on the body, N/m, and torque about
//                    its centre, N·m/m, buoyancy not included), cfl
//   vorticity_NNNN.png / .npy   snapshots of ω (PNG: blue negative, red positive, the body
//                    grey; .npy: float64, shape (ny, nx), row 0 at the window's bottom)
//   snapshots.json   each snapshot's time, window origin and cell size
//   reduced.csv, reduced_scene.json   for a free plate or swimmer: the same body as a long sheet
//                    under one of samara's own models (io/cfd_reduced.h), to compare
// Every file is written to a temporary and renamed at the end: a run that fails, stops or is
// cancelled leaves nothing (nor a folder made for it).
#include <atomic>
#include <functional>
#include <string>

#include "fluid/plate_motion.h"
#include "io/cfd_scene.h"

namespace samara::io {

struct CfdRunOptions {
  std::string outDir;  ///< folder of the outputs (made if missing)
  /// Called every step with the time reached and the fraction done.
  std::function<void(double t, double fraction)> progress;
  const std::atomic<bool>* cancel = nullptr;  ///< stops the run (nothing written) when set
  std::string reducedModel = "samara";        ///< model of reduced.csv ("" = none)
};

struct CfdRunResult {
  long long steps = 0;
  fluid::Body2State body;  ///< at the end
  double wallSeconds = 0.0;
  double cellStepsPerSecond = 0.0;
  int snapshots = 0;
  bool cancelled = false;  ///< the cancel flag stopped the run (nothing written)
  bool failed = false;     ///< the solver stopped (nothing written); see message
  std::string message;     ///< why the solver stopped
  /// A free body's motion over the run's second half, in the reference and (hasReduced) in
  /// the reduced model.
  fluid::PlateMotion motion;
  bool hasReduced = false;
  fluid::PlateMotion reducedMotion;
};

/// Runs the scene and writes its outputs. A solver that stops (with its reason and time) or
/// a cancel leaves nothing written; throws io::Error when a file cannot be written.
CfdRunResult runCfd(const CfdScene& scene, const std::string& scenePath, const CfdRunOptions& opt);

/// The .npy bytes of a float64 field of ny rows of nx values.
std::string npyBytes(const std::vector<double>& field, int nx, int ny);

/// An RGB image (rows top to bottom) of the vorticity, clipped at ±scale, with the mask
/// (χ ∈ [0, 1]) blended in grey.
std::vector<unsigned char> vorticityImage(const std::vector<double>& omega,
                                          const std::vector<double>& mask, int nx, int ny,
                                          double scale);

}  // namespace samara::io
