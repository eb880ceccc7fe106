#pragma once
// The scene key "model" of a body (issue 6): a name ("gwtf", "vacuum", "mujoco-inertia",
// "mujoco-ellipsoid", "xie-miyata", "gross-dissipative", "gross-inertial") or an object
// {"type": NAME, …parameters}. Internal to io/.
#include "core/body.h"
#include "io/json_util.h"

namespace samara::io {

/// Sets body->model from the "model" value (the registry's model, which reads its own
/// parameters through a reader over the scene file). Throws
/// Error naming the file and field.
void readFluidModel(const Node& m, core::BodyDef* body);
/// A body's "added_mass": "model" | "local" | "local-per-part" | "exact".
core::AddedMassSource readAddedMassSource(const Node& n);

/// The "model" value that reads back as `model`: null for the scene default (GwtF with its
/// parameters), the name when the parameters are the model's defaults, else {"type": NAME,
/// …every parameter}.
Json modelJson(const core::FluidModel& model);

}  // namespace samara::io
