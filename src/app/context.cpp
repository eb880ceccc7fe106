#include "app/context.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace samara::app {

void Notice::show(const std::string& text, double seconds) {
  text_ = text;
  until_ = glfwGetTime() + seconds;
}

const std::string* Notice::current() const {
  return !text_.empty() && glfwGetTime() < until_ ? &text_ : nullptr;
}

float viewRadius(const runtime::Snapshot& s) {
  float radius = 0.0f;
  for (const auto& b : s.bodies) radius = std::max(radius, static_cast<float>(b.radius));
  return std::max(4.0f * radius, 0.03f);
}

void ViewerContext::resetView(const runtime::Snapshot& s) {
  camera.frame(renderer->boundsCenter(), viewRadius(s));
}

}  // namespace samara::app
