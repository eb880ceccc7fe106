#pragma once
// The body colours: the viewer draws body i in kBodyColors[i mod 12] and the glb export gives
// its material the same colour, so that a render after import looks like the viewer.
#include <array>
#include <cstddef>

namespace samara::io {

/// Twelve body colours (linear RGB), distinguishable side by side and against the sky and
/// the ground.
inline constexpr std::array<std::array<float, 3>, 12> kBodyColors{{{0.85f, 0.36f, 0.08f},
                                                                   {0.16f, 0.45f, 0.80f},
                                                                   {0.20f, 0.62f, 0.22f},
                                                                   {0.70f, 0.18f, 0.55f},
                                                                   {0.80f, 0.65f, 0.10f},
                                                                   {0.25f, 0.65f, 0.65f},
                                                                   {0.75f, 0.10f, 0.10f},
                                                                   {0.40f, 0.25f, 0.78f},
                                                                   {0.45f, 0.50f, 0.10f},
                                                                   {0.92f, 0.45f, 0.62f},
                                                                   {0.42f, 0.24f, 0.10f},
                                                                   {0.10f, 0.22f, 0.48f}}};

/// The colour of body i (any i ≥ 0).
inline const std::array<float, 3>& bodyColor(std::size_t i) {
  return kBodyColors[i % kBodyColors.size()];
}

}  // namespace samara::io
