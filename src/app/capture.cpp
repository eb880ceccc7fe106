#include "app/capture.h"

#include <epoxy/gl.h>
// GLFW after the GL loader.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <ostream>

#include "app/screenshot.h"

namespace samara::app {

Capture::Capture(int shotWidth, int shotHeight)
    : shotSize_{std::max(0, shotWidth), std::max(0, shotHeight)} {}

std::string Capture::openVideo(const std::string& path, GLFWwindow* window, double fps) {
  int w = shotSize_[0], h = shotSize_[1];
  if (w <= 0 || h <= 0) glfwGetFramebufferSize(window, &w, &h);
  return video_.open(path, w, h, fps);
}

std::string Capture::take(const CaptureSource& source, std::vector<unsigned char>* rgb, int* width,
                          int* height) {
  if (shotSize_[0] > 0 && shotSize_[1] > 0) {
    std::string why = offscreen_.prepare(shotSize_[0], shotSize_[1], source.msaa);
    if (!why.empty()) return why;
    offscreen_.bind();
    source.renderer->draw(*source.camera, shotSize_[0], shotSize_[1],
                          {0, 0, shotSize_[0], shotSize_[1]}, *source.render);
    *rgb = offscreen_.read();
    *width = shotSize_[0];
    *height = shotSize_[1];
    return "";
  }
  glfwGetFramebufferSize(source.window, width, height);
  *rgb = readPixels(*width, *height);
  return *width > 0 && *height > 0 ? "" : "empty framebuffer";
}

CaptureResult Capture::frame(const CaptureSource& source, const CaptureRequest& request,
                             std::ostream& err) {
  CaptureResult result;
  // This frame's picture, taken once for whichever of screenshot and video wants it.
  std::vector<unsigned char> picture;
  int pw = 0, ph = 0;
  std::string pictureError;
  bool taken = false;
  auto takeOnce = [&] {
    if (!taken) pictureError = take(source, &picture, &pw, &ph);
    taken = true;
    return pictureError;
  };
  if (request.screenshot) {
    const std::string name = "samara_screenshot_" + std::to_string(++screenshotCount_) + ".png";
    std::string why = takeOnce();
    if (why.empty()) why = writePng(name, picture, pw, ph);
    result.notice =
        why.empty() ? "saved " + name + " (" + std::to_string(pw) + "x" + std::to_string(ph) + ")"
                    : name + ": " + why;
  }
  if (!request.finalPath.empty()) {
    std::string why = takeOnce();
    if (why.empty()) why = writePng(request.finalPath, picture, pw, ph);
    if (!why.empty()) {
      err << "samara: " << request.finalPath << ": " << why << "\n";
      result.failed = true;
    }
  }
  if (video_.isOpen()) {
    std::string why = takeOnce();
    if (why.empty() && (pw != video_.width() || ph != video_.height())) {
      why = "the window changed size during the recording (give --shot-size WxH)";
    }
    if (why.empty()) why = video_.write(picture);
    if (!why.empty()) {
      err << "samara: " << request.videoPath << ": " << why << "\n";
      video_.abandon();  // no half-made video
      result.failed = true;
      result.stop = true;
    }
  }
  return result;
}

std::string Capture::finishVideo() { return video_.isOpen() ? video_.finish() : ""; }

}  // namespace samara::app
