#include "app/capture.h"

#include <epoxy/gl.h>
// GLFW after the GL loader.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <array>
#include <ostream>

#include "app/screenshot.h"

namespace samara::app {

Capture::Capture(int shotWidth, int shotHeight)
    : shotSize_{std::max(0, shotWidth), std::max(0, shotHeight)} {}

std::string Capture::openVideo(const std::string& path, double fps, bool wholeWindow) {
  if (std::string why = checkVideoPath(path); !why.empty()) return why;
  videoPath_ = path;
  videoFps_ = fps;
  if (shotSize_[0] > 0 && shotSize_[1] > 0) {
    videoKind_ = PictureKind::kShot;
  } else {
    videoKind_ = wholeWindow ? PictureKind::kWindow : PictureKind::kView;
  }
  return "";
}

std::string Capture::startVideo(int width, int height) {
  const std::string path = videoPath_;
  videoPath_.clear();  // once: a failure stops the viewer
  return video_.open(path, width, height, videoFps_);
}

Capture::Picture Capture::take(PictureKind kind, const CaptureSource& source,
                               const Renderer::Viewport& view) {
  Picture p;
  if (kind == PictureKind::kShot) {
    p.error = offscreen_.prepare(shotSize_[0], shotSize_[1], source.msaa);
    if (!p.error.empty()) return p;
    offscreen_.bind();
    source.renderer->draw(*source.camera, shotSize_[0], shotSize_[1],
                          {0, 0, shotSize_[0], shotSize_[1]}, *source.render);
    p.rgb = offscreen_.read();
    p.width = shotSize_[0];
    p.height = shotSize_[1];
    return p;
  }
  if (kind == PictureKind::kView) {
    // Even sizes for yuv420p: the last column and the top row go rather than a padding.
    p.width = view.width & ~1;
    p.height = view.height & ~1;
    if (p.width <= 0 || p.height <= 0) {
      p.error = "the 3D view is empty (give --shot-size WxH)";
      return p;
    }
    p.rgb = readPixels(view.x, view.y, p.width, p.height);
    return p;
  }
  glfwGetFramebufferSize(source.window, &p.width, &p.height);
  p.rgb = readPixels(0, 0, p.width, p.height);
  if (p.width <= 0 || p.height <= 0) p.error = "empty framebuffer";
  return p;
}

CaptureResult Capture::frame(const CaptureSource& source, const CaptureRequest& request,
                             std::ostream& err) {
  CaptureResult result;
  // This frame's pictures, each kind taken once for whichever of screenshot and video wants
  // it.
  std::array<Picture, 3> pictures;
  std::array<bool, 3> taken = {false, false, false};
  auto picture = [&](PictureKind kind) -> const Picture& {
    const auto k = static_cast<std::size_t>(kind);
    if (!taken[k]) pictures[k] = take(kind, source, request.view);
    taken[k] = true;
    return pictures[k];
  };
  const PictureKind shotKind =
      shotSize_[0] > 0 && shotSize_[1] > 0 ? PictureKind::kShot : PictureKind::kWindow;
  if (request.screenshot) {
    const std::string name = "samara_screenshot_" + std::to_string(++screenshotCount_) + ".png";
    const Picture& p = picture(shotKind);
    std::string why = p.error;
    if (why.empty()) why = writePng(name, p.rgb, p.width, p.height);
    result.notice = why.empty() ? "saved " + name + " (" + std::to_string(p.width) + "x" +
                                      std::to_string(p.height) + ")"
                                : name + ": " + why;
  }
  if (!request.finalPath.empty()) {
    const Picture& p = picture(shotKind);
    std::string why = p.error;
    if (why.empty()) why = writePng(request.finalPath, p.rgb, p.width, p.height);
    if (!why.empty()) {
      err << "samara: " << request.finalPath << ": " << why << "\n";
      result.failed = true;
    }
  }
  if (video_.isOpen() || !videoPath_.empty()) {
    const Picture& p = picture(videoKind_);
    std::string why = p.error;
    if (why.empty() && !video_.isOpen()) why = startVideo(p.width, p.height);
    if (why.empty() && (p.width != video_.width() || p.height != video_.height())) {
      why = videoKind_ == PictureKind::kView
                ? "the 3D view changed size during the recording (give --shot-size WxH)"
                : "the window changed size during the recording (give --shot-size WxH)";
    }
    if (why.empty()) why = video_.write(p.rgb);
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
