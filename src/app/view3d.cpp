#include "app/view3d.h"

#include <epoxy/gl.h>
// GLFW after the GL loader.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cmath>
#include <string>

#include "app/widgets/widgets.h"

namespace samara::app {

Renderer::Viewport toPixels(const Rect& v, GLFWwindow* window) {
  int fbw = 0, fbh = 0, ww = 0, wh = 0;
  glfwGetFramebufferSize(window, &fbw, &fbh);
  glfwGetWindowSize(window, &ww, &wh);
  if (ww <= 0 || wh <= 0 || v.empty()) return {0, 0, fbw, fbh};
  const float sx = static_cast<float>(fbw) / static_cast<float>(ww);
  const float sy = static_cast<float>(fbh) / static_cast<float>(wh);
  Renderer::Viewport p;
  p.x = static_cast<int>(std::lround(v.x * sx));
  p.width = static_cast<int>(std::lround(v.right() * sx)) - p.x;
  const int top = static_cast<int>(std::lround(v.y * sy));
  const int bottom = static_cast<int>(std::lround(v.bottom() * sy));
  p.y = fbh - bottom;
  p.height = bottom - top;
  return p;
}

OrbitCamera paneCamera(const OrbitCamera& shared, const Pane& p) {
  OrbitCamera c = shared;
  c.target = p.target;
  c.distance *= p.zoom;
  return c;
}

void drawPaneLabels(const runtime::Snapshot& s, const std::vector<Pane>& panes) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const float pad = ImGui::GetStyle().WindowPadding.x;
  const float box = ImGui::GetFontSize() * 0.8f;
  for (std::size_t i = 0; i < panes.size(); ++i) {
    const Pane& p = panes[i];
    const auto k = static_cast<std::size_t>(p.body);
    if (k >= s.bodies.size()) continue;
    const glm::vec3 c = p.ghost ? Renderer::ghostColor(p.body) : Renderer::bodyColor(p.body);
    std::string label = p.ghost ? s.bodies[k].name + " (" + s.ghostModel + ")" : s.bodies[k].name;
    if (p.zoom < 0.99f) label += strf("  (magnified %.2gx)", 1.0 / p.zoom);
    const ImVec2 at(p.rect.x + pad, p.rect.y + pad);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    dl->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 3.0f),
                      ImVec2(at.x + box + 6.0f + size.x + 4.0f, at.y + size.y + 3.0f),
                      IM_COL32(255, 255, 255, 200), 4.0f);
    dl->AddRectFilled(ImVec2(at.x, at.y + 0.5f * (size.y - box)),
                      ImVec2(at.x + box, at.y + 0.5f * (size.y + box)),
                      ImGui::ColorConvertFloat4ToU32(toImVec4(c)), 2.0f);
    dl->AddText(ImVec2(at.x + box + 6.0f, at.y), IM_COL32(20, 20, 20, 255), label.c_str());
    if (i > 0) {
      dl->AddLine(ImVec2(p.rect.x - 1.0f, p.rect.y), ImVec2(p.rect.x - 1.0f, p.rect.bottom()),
                  IM_COL32(60, 60, 70, 255), 2.0f);
    }
  }
}

void renderView(Renderer& renderer, const ViewerContext& ctx, const std::vector<Pane>& panes,
                GLFWwindow* window) {
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(window, &fbw, &fbh);
  if (panes.empty()) {
    renderer.draw(ctx.camera, fbw, fbh, toPixels(ctx.layout.view, window), ctx.render);
    return;
  }
  for (std::size_t i = 0; i < panes.size(); ++i) {
    renderer.draw(paneCamera(ctx.camera, panes[i]), fbw, fbh, toPixels(panes[i].rect, window),
                  ctx.render, i == 0);
  }
}

}  // namespace samara::app
