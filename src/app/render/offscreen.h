#pragma once
// An offscreen framebuffer for pictures at a size independent of the window (issue 7):
// colour and depth renderbuffers, multisampled when asked, resolved into a plain one and
// read back. The UI thread's GL context only.
#include <epoxy/gl.h>

#include <string>
#include <vector>

namespace samara::app {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  ~OffscreenTarget();  ///< release(): the context must still be current (or release() done)
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  /// Makes the buffers `width` × `height` px with `samples` samples per pixel (0 = none,
  /// clamped to GL_MAX_SAMPLES); keeps them when they already are. Returns "" or why not:
  /// a size beyond GL_MAX_RENDERBUFFER_SIZE, or an incomplete framebuffer.
  std::string prepare(int width, int height, int samples);
  /// Binds it as the draw framebuffer (the caller sets the viewport or lets the renderer).
  void bind() const;
  /// Resolves the samples and reads the image back as RGB rows, top row first; binds the
  /// window's framebuffer again.
  std::vector<unsigned char> read() const;
  int width() const { return width_; }
  int height() const { return height_; }
  /// Deletes the buffers (while the GL context is still current).
  void release();

 private:
  GLuint fbo_ = 0, color_ = 0, depth_ = 0;  // drawn into (multisampled when samples_ > 0)
  GLuint resolveFbo_ = 0, resolveColor_ = 0;
  int width_ = 0, height_ = 0, samples_ = -1;
};

}  // namespace samara::app
