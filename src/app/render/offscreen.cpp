#include "app/render/offscreen.h"

#include <algorithm>

#include "app/screenshot.h"

namespace samara::app {

OffscreenTarget::~OffscreenTarget() { release(); }

void OffscreenTarget::release() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (resolveFbo_) glDeleteFramebuffers(1, &resolveFbo_);
  const GLuint buffers[] = {color_, depth_, resolveColor_};
  for (const GLuint b : buffers) {
    if (b) glDeleteRenderbuffers(1, &b);
  }
  fbo_ = color_ = depth_ = resolveFbo_ = resolveColor_ = 0;
  width_ = height_ = 0;
  samples_ = -1;
}

std::string OffscreenTarget::prepare(int width, int height, int samples) {
  GLint maxSize = 0, maxSamples = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
  glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
  samples = std::clamp(samples, 0, std::max(0, static_cast<int>(maxSamples)));
  if (width <= 0 || height <= 0 || width > maxSize || height > maxSize) {
    return "a picture of " + std::to_string(width) + "x" + std::to_string(height) +
           " px is beyond this OpenGL's limit of " + std::to_string(maxSize) + " px a side";
  }
  if (fbo_ && width == width_ && height == height_ && samples == samples_) return "";
  release();
  auto storage = [&](GLuint* rb, GLenum format, int n) {
    glGenRenderbuffers(1, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, *rb);
    if (n > 0) {
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, format, width, height);
    } else {
      glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
    }
  };
  storage(&color_, GL_RGBA8, samples);
  storage(&depth_, GL_DEPTH_COMPONENT24, samples);
  storage(&resolveColor_, GL_RGBA8, 0);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glGenFramebuffers(1, &resolveFbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, resolveFbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolveColor_);
  const GLenum resolveStatus = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE || resolveStatus != GL_FRAMEBUFFER_COMPLETE) {
    release();
    return "cannot make an offscreen framebuffer of " + std::to_string(width) + "x" +
           std::to_string(height) + " px";
  }
  width_ = width;
  height_ = height;
  samples_ = samples;
  return "";
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, fbo_); }

std::vector<unsigned char> OffscreenTarget::read() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolveFbo_);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolveFbo_);
  std::vector<unsigned char> rgb = readPixels(width_, height_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return rgb;
}

}  // namespace samara::app
