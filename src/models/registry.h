#pragma once
// Every fluid model by scene-file name: the one place a name becomes a model. The viewer's
// model combo box, ghost runs, `--set bodies.N.model=NAME` and the scene key "model" all
// come through here; everything else asks the model itself (core::FluidModel), never its
// name.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/body.h"

namespace samara::models {

/// A registered model: its scene-file name, a one-line description and a factory of an
/// instance with default parameters.
struct ModelEntry {
  std::string name;
  std::string summary;
  std::function<std::shared_ptr<core::FluidModel>()> make;
};

/// Every registered model, in the order the viewer's combo box lists them; "samara" first.
/// makeModel also accepts "gwtf", the earlier name of "gwtf-2024".
const std::vector<ModelEntry>& registry();

/// Adds a model (e.g. a test-only one). Replaces an entry of the same name. Call before
/// any thread reads the registry (at start-up, or in a test).
void registerModel(ModelEntry entry);

/// Every model name, in registry order.
std::vector<std::string> modelNames();

/// True if `name` is a registered model.
bool isModelName(const std::string& name);

/// A new instance of model `name` with its default parameters, or null for an unknown name.
std::shared_ptr<core::FluidModel> makeModel(const std::string& name);

/// Gives `body` the model `name` with its default parameters (what the viewer's combo box
/// and ghost runs use). A model that brings its own added mass drops the body's
/// "added_mass" choice (back to the model's). Returns false (body unchanged) for an unknown
/// name.
bool setModel(core::BodyDef* body, const std::string& name);

}  // namespace samara::models
