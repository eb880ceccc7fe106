#pragma once
// The fluid models a body can use, by scene-file name (issue 6).
#include <string>
#include <vector>

#include "core/body.h"

namespace samara::models {

/// Every model name, in the order the viewer's combo box lists them; "gwtf" first.
const std::vector<std::string>& modelNames();

/// True if `name` is one of modelNames().
bool isModelName(const std::string& name);

/// Gives `body` the model `name` with its default parameters (what the viewer's combo box
/// and ghost runs use): sets BodyDef::fluidModel and BodyDef::firstOrder. Returns false
/// (body unchanged) for an unknown name.
bool setModel(core::BodyDef* body, const std::string& name);

}  // namespace samara::models
