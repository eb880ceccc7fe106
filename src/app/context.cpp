#include "app/context.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <glm/glm.hpp>

#include "app/render/glm_eigen.h"

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
  return std::max(1.4f * radius, 0.03f);
}

Bounds bodyBounds(const runtime::Snapshot& s, bool ghosts) {
  if (s.bodies.empty()) return Bounds{glm::vec3(0.0f, 1.0f, 0.0f), 0.0f};
  glm::vec3 lo(1e30f), hi(-1e30f);
  auto add = [&](const runtime::BodySnapshot& b) {
    const glm::vec3 c = toGlm(b.diagnostics.com);
    const float r = static_cast<float>(b.radius);
    lo = glm::min(lo, c - glm::vec3(r));
    hi = glm::max(hi, c + glm::vec3(r));
  };
  for (const auto& b : s.bodies) add(b);
  if (ghosts) {
    for (const auto& b : s.ghostBodies) add(b);
  }
  return Bounds{0.5f * (lo + hi), 0.5f * glm::length(hi - lo)};
}

namespace {

/// How many panes a split view of `s` has (0: not split).
std::size_t paneCount(const ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ctx.split || !ctx.follow) return 0;
  const std::size_t n = s.bodies.size();
  if (n >= 2 && n <= 4) return n;
  if (n == 1 && ctx.render.ghosts && s.ghostBodies.size() == 1) return 2;
  return 0;
}

}  // namespace

float ViewerContext::viewAspect() const {
  if (layout.view.empty()) return 1.0f;
  return layout.view.w / layout.view.h;
}

std::vector<Pane> ViewerContext::panes(const runtime::Snapshot& s) const {
  const std::size_t n = paneCount(*this, s);
  std::vector<Pane> out;
  if (n == 0 || layout.view.empty()) return out;
  const Rect& v = layout.view;
  const float gap = 2.0f;
  const float w = (v.w - gap * static_cast<float>(n - 1)) / static_cast<float>(n);
  float largest = 1e-6f;
  for (const auto& b : s.bodies) largest = std::max(largest, static_cast<float>(b.radius));
  for (std::size_t i = 0; i < n; ++i) {
    Pane p;
    p.rect = Rect{v.x + static_cast<float>(i) * (w + gap), v.y, w, v.h};
    const bool ghost = s.bodies.size() == 1 && i == 1;
    p.body = ghost ? 0 : static_cast<int>(i);
    p.ghost = ghost;
    const runtime::BodySnapshot& b = ghost ? s.ghostBodies[0] : s.bodies[i];
    p.target = toGlm(b.diagnostics.com);
    p.zoom = std::clamp(static_cast<float>(b.radius) / largest, 0.2f, 1.0f);
    out.push_back(p);
  }
  return out;
}

void ViewerContext::resetView(const runtime::Snapshot& s) {
  const std::vector<Pane> parts = panes(s);
  if (!parts.empty()) {
    // Each pane shows its own body: frame one body in one pane.
    camera.frame(parts.front().target, viewRadius(s), parts.front().rect.w / parts.front().rect.h);
    return;
  }
  const Bounds b = bodyBounds(s, false);
  camera.frame(b.center, std::max(1.15f * b.radius, viewRadius(s)), viewAspect());
}

}  // namespace samara::app
