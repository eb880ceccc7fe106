#pragma once
// Reads the current framebuffer and writes it as a PNG (stb_image_write).
#include <string>

namespace samara::app {

/// Reads `width` × `height` RGB pixels of the bound read buffer (call before swapping),
/// flips them to top-down and writes a PNG. Returns "" on success, else the reason.
std::string saveScreenshot(const std::string& path, int width, int height);

/// Mean per-channel variance of an RGB image (0 for a blank one), for the headless check.
double pixelVariance(const unsigned char* rgb, int width, int height);

}  // namespace samara::app
