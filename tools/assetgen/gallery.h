#pragma once
// Gallery assets (the paper's phenomena): each group of models writes its meshes into
// OUTDIR/meshes and its scenes into OUTDIR/scenes. Called by samara_assetgen's main.
// Each function returns false after printing the reason on stderr.
#include <filesystem>

namespace samara::assetgen {

/// Maple seed and paper copter (gallery_flyers.cpp).
bool writeGalleryFlyers(const std::filesystem::path& out);
/// Coin, propeller, blob, parachute, ellipses (air to water), Kirchhoff lessons
/// (gallery_sinking.cpp).
bool writeGallerySinking(const std::filesystem::path& out);
/// Leaves and falling plates (gallery_leaves.cpp).
bool writeGalleryLeaves(const std::filesystem::path& out);
/// Crowds: leaf_storm (and its low-poly leaves) and maple_rain (gallery_crowds.cpp).
bool writeGalleryCrowds(const std::filesystem::path& out);

}  // namespace samara::assetgen
