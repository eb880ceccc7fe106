#include "app/layout_report.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <glm/glm.hpp>

#include "app/view3d.h"

namespace samara::app {

namespace {

std::string rect4(float a, float b, float c, float d) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "[%.2f, %.2f, %.2f, %.2f]", a, b, c, d);
  return buf;
}

std::string rectJson(const Rect& r) { return rect4(r.x, r.y, r.w, r.h); }

/// A JSON string literal (names are the scene's: escape quotes, backslashes, controls).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string bodyJson(const runtime::BodySnapshot& b, bool ghost, const OrbitCamera& camera,
                     const Rect& pane) {
  const glm::mat4 vp = camera.projection(pane.w / std::max(pane.h, 1.0f)) * camera.view();
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  bool behind = false;
  for (Eigen::Index i = 0; i < b.vertices.rows(); ++i) {
    const glm::vec4 c =
        vp * glm::vec4(static_cast<float>(b.vertices(i, 0)), static_cast<float>(b.vertices(i, 1)),
                       static_cast<float>(b.vertices(i, 2)), 1.0f);
    if (c.w <= 1e-6f) {
      behind = true;
      continue;
    }
    const float x = pane.x + (0.5f + 0.5f * c.x / c.w) * pane.w;
    const float y = pane.y + (0.5f - 0.5f * c.y / c.w) * pane.h;
    x0 = std::min(x0, x);
    x1 = std::max(x1, x);
    y0 = std::min(y0, y);
    y1 = std::max(y1, y);
  }
  return "{\"name\": " + quoted(b.name) + ", \"ghost\": " + (ghost ? "true" : "false") +
         ", \"pane\": " + rectJson(pane) + ", \"bbox\": " + rect4(x0, y0, x1, y1) +
         ", \"behind\": " + (behind ? "true" : "false") + "}";
}

}  // namespace

std::string layoutReport(const runtime::Snapshot& s, const ViewerContext& ctx,
                         const std::vector<Pane>& panes) {
  const ImGuiIO& io = ImGui::GetIO();
  std::string out = "{\n  \"window\": [" + std::to_string(io.DisplaySize.x) + ", " +
                    std::to_string(io.DisplaySize.y) +
                    "],\n  \"view\": " + rectJson(ctx.layout.view) + ",\n  \"panels\": [";
  // Every ImGui window drawn this frame (panels, popups, tooltips; not the menu bar, which
  // lies above the work area, not child windows, which lie inside their parents, and not
  // ImGui's implicit "Debug" window, which is never shown when empty).
  bool first = true;
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!w->Active || w->Hidden || w->IsFallbackWindow ||
        (w->Flags & ImGuiWindowFlags_ChildWindow) || std::string(w->Name) == "##MainMenuBar") {
      continue;
    }
    // How wide its items reach (last frame's extent) against the width they have: an item
    // past the edge of a window without a horizontal scroll bar is cut.
    const float room = w->InnerRect.GetWidth() - 2.0f * w->WindowPadding.x;
    char widths[96];
    std::snprintf(widths, sizeof widths,
                  "\"content_width\": %.2f, \"room\": %.2f, \"scroll_x\": %s", w->ContentSize.x,
                  room, w->ScrollbarX ? "true" : "false");
    out += std::string(first ? "\n" : ",\n") + "    {\"name\": " + quoted(w->Name) +
           ", \"rect\": " + rect4(w->Pos.x, w->Pos.y, w->Size.x, w->Size.y) + ", " + widths + "}";
    first = false;
  }
  out += "\n  ],\n  \"bodies\": [";
  first = true;
  auto add = [&](const std::string& json) {
    out += std::string(first ? "\n    " : ",\n    ") + json;
    first = false;
  };
  if (panes.empty()) {
    for (const auto& b : s.bodies) add(bodyJson(b, false, ctx.camera, ctx.layout.view));
  } else {
    for (const Pane& p : panes) {
      const auto k = static_cast<std::size_t>(p.body);
      const auto& list = p.ghost ? s.ghostBodies : s.bodies;
      if (k < list.size()) add(bodyJson(list[k], p.ghost, paneCamera(ctx.camera, p), p.rect));
    }
  }
  out += "\n  ]\n}\n";
  return out;
}

}  // namespace samara::app
