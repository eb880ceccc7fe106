#pragma once
// The scene key "model" of a body (issue 6): a name ("gwtf", "vacuum", "mujoco-inertia",
// "mujoco-ellipsoid", "xie-miyata", "gross-dissipative", "gross-inertial") or an object
// {"type": NAME, …parameters}. Internal to io/.
#include "core/body.h"
#include "io/json_util.h"

namespace samara::io {

/// Sets body->fluidModel (and the first-order settings) from the "model" value. Throws
/// Error naming the file and field.
void readFluidModel(const Node& m, core::BodyDef* body);

}  // namespace samara::io
