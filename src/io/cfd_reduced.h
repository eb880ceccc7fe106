#pragma once
// The reduced model beside the fluid reference (issue 19): the 2D body of a CFD scene as a
// long sheet under samara's own model, so the two trajectories can be plotted together.
// An ellipse or rectangle of chord 2a, thickness 2b and density ρ_b becomes a sheet of chord
// 2a and span 10 chords with the same mass and displaced volume per metre of span (areal
// density ρ_b·A/(2a)), released at the same place, angle and velocity in the same fluid.
// A swimmer's sheet carries the same travelling wave on its midline (a wave animation).
#include <string>
#include <vector>

#include "fluid/plate_motion.h"
#include "io/cfd_scene.h"

namespace samara::io {

/// Span of the reduced model's sheet, in chords.
inline constexpr double kReducedSpanChords = 10.0;

/// True if the scene has a reduced counterpart (a free ellipse or rectangle).
bool hasReducedModel(const CfdScene& scene);

/// A samara scene file (JSON text) with the reduced counterpart of `scene`, run for its
/// duration at step `dt` (s) under `model` ("samara", "gwtf-2024", …).
std::string reducedSceneText(const CfdScene& scene, double dt, const std::string& model);

/// Runs that scene and returns its trajectory as CSV in `samara run`'s columns, with the
/// extensive columns (momenta, kinetic energy) per metre of span, sampled at the CFD
/// scene's sample interval; the samples (angle about z, unwrapped) in `samples` if not null.
/// Throws io::Error naming `cfdPath` if a step fails.
std::string reducedTrajectory(const CfdScene& scene, const std::string& cfdPath, double dt,
                              const std::string& model,
                              std::vector<fluid::PlateSample>* samples = nullptr);

}  // namespace samara::io
