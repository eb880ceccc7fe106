#pragma once
// Small helpers shared by the generator's writers (main.cpp, scenes.cpp, gallery_*.cpp).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "geometry/types.h"

namespace samara::assetgen {

/// Writes `text` to `path` (binary) and prints "wrote PATH"; false (with the reason on
/// stderr) if it cannot.
bool writeText(const std::filesystem::path& path, const std::string& text);

/// Rounds to 9 significant digits so the files stay readable (and deterministic).
double r9(double x);

/// [x, y, z] rounded with r9.
nlohmann::ordered_json jsonVec3(const Vec3& v);

/// [w, x, y, z] rounded with r9.
nlohmann::ordered_json jsonQuat(const Quat& q);

}  // namespace samara::assetgen
