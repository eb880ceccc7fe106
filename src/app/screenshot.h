#pragma once
// Pictures of the view: reading a framebuffer back and writing it as a PNG (stb_image_write).
#include <string>
#include <vector>

namespace samara::app {

/// Reads `width` × `height` RGB pixels of the bound read framebuffer (call before swapping)
/// as rows from the top down (the order of PNG and of ffmpeg's raw video).
std::vector<unsigned char> readPixels(int width, int height);
/// The same for the `width` × `height` pixels whose bottom left corner is (`left`, `bottom`)
/// in GL coordinates (from the bottom left of the framebuffer).
std::vector<unsigned char> readPixels(int left, int bottom, int width, int height);

/// Writes RGB rows, top row first, as a PNG. Returns "" on success, else the reason.
std::string writePng(const std::string& path, const std::vector<unsigned char>& rgb, int width,
                     int height);

/// readPixels then writePng: the bound read buffer as a PNG. Returns "" or the reason.
std::string saveScreenshot(const std::string& path, int width, int height);

/// Mean per-channel variance of an RGB image (0 for a blank one), for the headless check.
double pixelVariance(const unsigned char* rgb, int width, int height);

}  // namespace samara::app
