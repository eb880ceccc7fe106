#pragma once
// The pictures of a frame: the P key's screenshots, the last frame's --screenshot and every
// frame of a --video. Each is the 3D view rendered offscreen at the picture size (when one
// is set) or the window as shown, panels included; one frame's picture is taken once for
// all of them.
#include <iosfwd>
#include <string>
#include <vector>

#include "app/render/camera.h"
#include "app/render/offscreen.h"
#include "app/render/renderer.h"
#include "app/video.h"

struct GLFWwindow;

namespace samara::app {

/// What a picture is drawn from.
struct CaptureSource {
  GLFWwindow* window = nullptr;
  Renderer* renderer = nullptr;
  const OrbitCamera* camera = nullptr;
  const RenderSettings* render = nullptr;
  int msaa = 4;  ///< samples of the offscreen picture
};

/// What a frame asks for.
struct CaptureRequest {
  bool screenshot = false;     ///< P: samara_screenshot_N.png in the working directory
  std::string finalPath;       ///< the last frame's picture (--screenshot); "" = none
  const char* videoPath = "";  ///< for error messages
};

/// What became of them.
struct CaptureResult {
  std::string notice;   ///< the screenshot's "saved …" or why not ("" = no screenshot)
  bool failed = false;  ///< a picture could not be written (the reason went to `err`)
  bool stop = false;    ///< the video failed: stop the viewer
};

class Capture {
 public:
  /// `shotWidth` × `shotHeight` px pictures of the 3D view alone (0 × 0 = the window).
  Capture(int shotWidth, int shotHeight);
  /// The picture size (the View panel's "picture size" edits it).
  int* shotSize() { return shotSize_; }

  /// Starts a video at the picture size (or the window's) at `fps`. Returns "" or why not.
  std::string openVideo(const std::string& path, GLFWwindow* window, double fps);
  /// The pictures of this frame (before swapping buffers).
  CaptureResult frame(const CaptureSource& source, const CaptureRequest& request,
                      std::ostream& err);
  /// Finishes the video if one is being written. Returns "" or why not.
  std::string finishVideo();
  /// Deletes the GL objects (while the context is still current).
  void release() { offscreen_.release(); }

 private:
  /// The picture of this frame. Returns "" or why not.
  std::string take(const CaptureSource& source, std::vector<unsigned char>* rgb, int* width,
                   int* height);

  int shotSize_[2] = {0, 0};
  int screenshotCount_ = 0;
  OffscreenTarget offscreen_;
  VideoWriter video_;
};

}  // namespace samara::app
