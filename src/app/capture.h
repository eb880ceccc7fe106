#pragma once
// The pictures of a frame: the P key's screenshots, the last frame's --screenshot and every
// frame of a --video. With a picture size set, each is the 3D view rendered offscreen at
// that size. Without one, screenshots are the window as shown, panels included, and the
// video is the 3D view as shown (split panes and overlays included, no panels) at its size
// in pixels rounded down to even ones, or the whole window when asked. Each kind of picture
// is taken at most once a frame for all that want it.
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

/// What a picture shows.
enum class PictureKind {
  kWindow,  ///< the window's framebuffer as shown, panels included
  kView,    ///< the 3D view's rectangle of it (even width and height), no panels
  kShot,    ///< the 3D view rendered offscreen at the picture size
};

/// What a frame asks for.
struct CaptureRequest {
  bool screenshot = false;     ///< P: samara_screenshot_N.png in the working directory
  std::string finalPath;       ///< the last frame's picture (--screenshot); "" = none
  const char* videoPath = "";  ///< for error messages
  /// The 3D view in framebuffer pixels (toPixels of the layout's view) for PictureKind::kView.
  Renderer::Viewport view;
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

  /// A video of every frame at `fps` into `path`: at the picture size when one is set, else
  /// the whole window (`wholeWindow`) or the 3D view alone. ffmpeg starts at the first
  /// frame, when the 3D view's size is known. Returns "" or why the path is unusable.
  std::string openVideo(const std::string& path, double fps, bool wholeWindow);
  /// The pictures of this frame (before swapping buffers).
  CaptureResult frame(const CaptureSource& source, const CaptureRequest& request,
                      std::ostream& err);
  /// What the video shows (set by openVideo).
  PictureKind videoKind() const { return videoKind_; }
  /// Finishes the video if one is being written. Returns "" or why not.
  std::string finishVideo();
  /// Deletes the GL objects (while the context is still current).
  void release() { offscreen_.release(); }

 private:
  /// A picture of this frame.
  struct Picture {
    std::vector<unsigned char> rgb;  ///< rows from the top down
    int width = 0, height = 0;       ///< px
    std::string error;               ///< why there is none ("" = taken)
  };
  /// The picture of this frame of `kind`.
  Picture take(PictureKind kind, const CaptureSource& source, const Renderer::Viewport& view);
  /// Starts ffmpeg for the first picture's size. Returns "" or why not.
  std::string startVideo(int width, int height);

  int shotSize_[2] = {0, 0};
  std::string videoPath_;  // a video asked for ("" = none)
  double videoFps_ = 60.0;
  PictureKind videoKind_ = PictureKind::kView;
  int screenshotCount_ = 0;
  OffscreenTarget offscreen_;
  VideoWriter video_;
};

}  // namespace samara::app
