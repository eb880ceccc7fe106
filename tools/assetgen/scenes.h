#pragma once
// Scene files (JSON with a comment header) for the generated models, written by the
// generator next to the meshes so the shipped scenes and the models can never disagree.
#include <string>

#include "assetgen.h"

namespace samara::assetgen {

/// The "parts" animation object for `anim`, naming each part's vertices by the model's group
/// when they coincide (else by index). Angles in degrees, as the scene format wants them.
std::string partsAnimationJson(const core::RigidPartsAnimation& anim, const Model& model,
                               int indent);

/// Complete scene texts (with a leading // comment) for the shipped examples.
std::string eelScene(const Model& eel, const WaveParams& wave);
std::string turtleScene(const TurtleModel& turtle, const core::RigidPartsAnimation& stroke);
std::string zeppelinScene(const ZeppelinModel& zep, const core::RigidPartsAnimation& controls);
std::string seaSnakeScene();

}  // namespace samara::assetgen
