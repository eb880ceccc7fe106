#pragma once
// glTF 2.0 output of a skinned model (io::gltf::Builder), part of the samara_assetgen executable.
#include <string>

#include "assetgen.h"

namespace samara::assetgen {

/// Writes `<dir>/<stem>.gltf` and `<dir>/<stem>.bin`: one skinned mesh (POSITION, JOINTS_0,
/// WEIGHTS_0, indices), its skin (joints, inverse bind matrices), the joint nodes with their
/// rest TRS, and one animation "swim" with the model's rotation channels. Reads the files
/// back as a check (io::gltf::Builder::writeGltf). Returns false and sets `error` on failure.
bool writeSkinnedGltf(const SkinnedModel& model, const std::string& dir, const std::string& stem,
                      std::string* error);

}  // namespace samara::assetgen
