#include "app/view3d.h"

#include <epoxy/gl.h>
// GLFW after the GL loader.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/render/glm_eigen.h"
#include "app/widgets/ticks.h"
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
    if (p.zoom < 0.95f) label += strf("  x%.2g", 1.0 / p.zoom);
    const ImVec2 at(p.rect.x + pad, p.rect.y + pad);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    dl->PushClipRect(ImVec2(p.rect.x, p.rect.y), ImVec2(p.rect.right(), p.rect.bottom()), true);
    dl->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 3.0f),
                      ImVec2(at.x + box + 6.0f + size.x + 4.0f, at.y + size.y + 3.0f),
                      IM_COL32(255, 255, 255, 200), 4.0f);
    dl->AddRectFilled(ImVec2(at.x, at.y + 0.5f * (size.y - box)),
                      ImVec2(at.x + box, at.y + 0.5f * (size.y + box)),
                      ImGui::ColorConvertFloat4ToU32(toImVec4(c)), 2.0f);
    dl->AddText(ImVec2(at.x + box + 6.0f, at.y), IM_COL32(20, 20, 20, 255), label.c_str());
    dl->PopClipRect();
    if (i > 0) {
      dl->AddLine(ImVec2(p.rect.x - 1.0f, p.rect.y), ImVec2(p.rect.x - 1.0f, p.rect.bottom()),
                  IM_COL32(60, 60, 70, 255), 2.0f);
    }
  }
}

namespace {

/// Screen position (ImGui units) of world point `p` in `r` seen by `cam`; false if behind.
bool project(const OrbitCamera& cam, const Rect& r, const glm::vec3& p, ImVec2* out) {
  const glm::vec4 c = cam.projection(r.w / std::max(r.h, 1.0f)) * cam.view() * glm::vec4(p, 1.0f);
  if (c.w <= 1e-6f) return false;
  *out = ImVec2(r.x + (0.5f + 0.5f * c.x / c.w) * r.w, r.y + (0.5f - 0.5f * c.y / c.w) * r.h);
  return true;
}

std::string lengthLabel(double metres) {
  if (metres >= 1.0) return strf("%g m", metres);
  if (metres >= 0.01) return strf("%g cm", metres * 100.0);
  return strf("%g mm", metres * 1000.0);
}

/// A tag with a pale background (over the sky or the water).
void tag(ImDrawList* dl, ImVec2 at, const std::string& text,
         ImU32 col = IM_COL32(20, 20, 20, 255)) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  dl->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 2.0f),
                    ImVec2(at.x + size.x + 4.0f, at.y + size.y + 2.0f),
                    IM_COL32(255, 255, 255, 190), 4.0f);
  dl->AddText(at, col, text.c_str());
}

void heightRuler(ImDrawList* dl, const OrbitCamera& cam, const Rect& r) {
  const float half = cam.distance * std::tan(0.5f * cam.fovY);
  const Ticks t = computeTicks(cam.target.y - half, cam.target.y + half, 7);
  const ImU32 col = IM_COL32(40, 40, 50, 220);
  for (double v : t.values) {
    ImVec2 p;
    if (!project(cam, r, glm::vec3(cam.target.x, static_cast<float>(v), cam.target.z), &p))
      continue;
    if (p.y < r.y + 4.0f || p.y > r.bottom() - 4.0f) continue;
    const float x1 = r.right() - 2.0f;
    dl->AddLine(ImVec2(x1 - 10.0f, p.y), ImVec2(x1, p.y), col, 2.0f);
    const std::string label = formatTick(v, t.step) + " m";
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(x1 - 14.0f - size.x, p.y - 0.5f * size.y), col, label.c_str());
  }
  dl->AddLine(ImVec2(r.right() - 2.0f, r.y), ImVec2(r.right() - 2.0f, r.bottom()), col, 2.0f);
}

void scaleBar(ImDrawList* dl, const OrbitCamera& cam, const Rect& r) {
  const double metresPerPx = 2.0 * cam.distance * std::tan(0.5 * cam.fovY) / std::max(r.h, 1.0f);
  const double length = niceStep(0.18 * r.w * metresPerPx);
  const float px = static_cast<float>(length / metresPerPx);
  const float pad = ImGui::GetStyle().WindowPadding.x;
  const ImVec2 a(r.x + pad, r.bottom() - pad);
  const ImU32 col = IM_COL32(30, 30, 40, 230);
  dl->AddLine(a, ImVec2(a.x + px, a.y), col, 3.0f);
  dl->AddLine(ImVec2(a.x, a.y - 5.0f), ImVec2(a.x, a.y + 1.0f), col, 2.0f);
  dl->AddLine(ImVec2(a.x + px, a.y - 5.0f), ImVec2(a.x + px, a.y + 1.0f), col, 2.0f);
  const std::string label = lengthLabel(length) + " (at the body)";
  dl->AddText(ImVec2(a.x, a.y - 6.0f - ImGui::GetTextLineHeight()), col, label.c_str());
}

void windCue(ImDrawList* dl, const OrbitCamera& cam, const Rect& r, const Vec3& wind) {
  const double speed = wind.norm();
  if (speed < 1e-9) return;
  const float pad = ImGui::GetStyle().WindowPadding.x;
  const std::string text = strf("wind %.3g m/s", speed);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float arrow = 2.5f * ImGui::GetTextLineHeight();
  const ImVec2 at(r.right() - pad - size.x - arrow - 60.0f, r.y + pad);
  tag(dl, at, text);
  // The wind's direction as seen: project a short step along it from the target.
  ImVec2 p0, p1;
  const glm::vec3 dir(static_cast<float>(wind.x() / speed), static_cast<float>(wind.y() / speed),
                      static_cast<float>(wind.z() / speed));
  if (!project(cam, r, cam.target, &p0) ||
      !project(cam, r, cam.target + 0.1f * cam.distance * dir, &p1)) {
    return;
  }
  ImVec2 d(p1.x - p0.x, p1.y - p0.y);
  const float len = std::sqrt(d.x * d.x + d.y * d.y);
  if (len < 1e-3f) return;  // straight at or away from the camera
  d = ImVec2(d.x / len, d.y / len);
  const ImVec2 c(at.x + size.x + 14.0f + 0.5f * arrow, at.y + 0.5f * size.y);
  const ImVec2 tail(c.x - 0.5f * arrow * d.x, c.y - 0.5f * arrow * d.y);
  const ImVec2 head(c.x + 0.5f * arrow * d.x, c.y + 0.5f * arrow * d.y);
  const ImU32 col = IM_COL32(20, 60, 160, 255);
  dl->AddLine(tail, head, col, 3.0f);
  const ImVec2 n(-d.y, d.x);
  dl->AddTriangleFilled(
      head, ImVec2(head.x - 8.0f * d.x + 5.0f * n.x, head.y - 8.0f * d.y + 5.0f * n.y),
      ImVec2(head.x - 8.0f * d.x - 5.0f * n.x, head.y - 8.0f * d.y - 5.0f * n.y), col);
}

/// Bodies whose trails all get time ticks; beyond that only the selected body's.
constexpr std::size_t kTickedBodies = 12;

/// Time ticks on body `i`'s trail: a dot at every whole second of the trail's length and
/// its time ("3 s") beside it, behind the body.
void trailTicks(ImDrawList* dl, const ViewerContext& ctx, const runtime::Snapshot& s, int i,
                const OrbitCamera& cam, const Rect& r) {
  if (!ctx.render.trails || i < 0 || i >= ctx.history.numBodies()) return;
  const runtime::TimeSeries& ts = ctx.history.body(i);
  if (ts.empty()) return;
  const double tLast = s.scrubbing ? s.time : ts.time(ts.size() - 1);
  const ImU32 col = ImGui::ColorConvertFloat4ToU32(toImVec4(Renderer::bodyColor(i) * 0.6f));
  dl->PushClipRect(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), true);
  // (not the last quarter second: that tick would sit on the body itself)
  for (double t = std::ceil(std::max(tLast - ctx.render.trailSeconds, 0.0)); t <= tLast - 0.25;
       t += 1.0) {
    const std::size_t k = ts.nearest(t);
    if (std::abs(ts.time(k) - t) > 0.05) continue;
    ImVec2 p;
    const glm::vec3 c(static_cast<float>(ts.value(k, runtime::kComX)),
                      static_cast<float>(ts.value(k, runtime::kComY)),
                      static_cast<float>(ts.value(k, runtime::kComZ)));
    if (!project(cam, r, c, &p)) continue;
    dl->AddCircleFilled(p, 3.5f, col);
    dl->AddText(ImVec2(p.x + 6.0f, p.y - 0.5f * ImGui::GetTextLineHeight()), col,
                strf("%g s", t).c_str());
  }
  dl->PopClipRect();
}

}  // namespace

void drawViewCues(const runtime::Snapshot& s, const ViewerContext& ctx,
                  const std::vector<Pane>& panes, bool hasFloor) {
  if (s.status == runtime::RunStatus::kEmpty || ctx.layout.view.empty()) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  std::vector<std::pair<OrbitCamera, Rect>> views;
  if (panes.empty()) {
    views.emplace_back(ctx.camera, ctx.layout.view);
  } else {
    for (const Pane& p : panes) views.emplace_back(paneCamera(ctx.camera, p), p.rect);
  }
  for (const auto& [cam, rect] : views) {
    if (!hasFloor) heightRuler(dl, cam, rect);
    scaleBar(dl, cam, rect);
  }
  if (panes.empty() && s.bodies.size() > kTickedBodies) {
    // A crowd: the selected body's ticks only (hundreds of "3 s" would hide the bodies).
    trailTicks(dl, ctx, s, ctx.selected, ctx.camera, ctx.layout.view);
  } else if (panes.empty()) {
    for (int i = 0; i < static_cast<int>(s.bodies.size()); ++i) {
      trailTicks(dl, ctx, s, i, ctx.camera, ctx.layout.view);
    }
  } else {
    for (const Pane& p : panes) {
      if (!p.ghost) trailTicks(dl, ctx, s, p.body, paneCamera(ctx.camera, p), p.rect);
    }
  }
  windCue(dl, ctx.camera, ctx.layout.view, s.params.wind);
  if (s.duration > 0.0 && s.time > s.duration + 1e-9) {
    const std::string text = strf("past the scene's duration (%g s): the run goes on", s.duration);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const Rect& v = ctx.layout.view;
    tag(dl, ImVec2(v.x + 0.5f * (v.w - size.x), v.y + 2.0f * ImGui::GetTextLineHeight()), text,
        IM_COL32(150, 60, 0, 255));
  }
}

void orbitPanZoom(ViewerContext* ctx) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool panButton = io.MouseDown[1] || io.MouseDown[2] || (io.MouseDown[0] && io.KeyShift);
  if (panButton && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
    // A drag moves the scene with the pointer: metres per pixel of the 3D view's height.
    const float h = ctx->layout.view.empty() ? io.DisplaySize.y : ctx->layout.view.h;
    ctx->camera.pan(io.MouseDelta.x, io.MouseDelta.y, h);
    ctx->follow = false;
  } else if (io.MouseDown[0] && !io.KeyShift) {
    ctx->camera.orbit(io.MouseDelta.x, io.MouseDelta.y);
  }
  if (io.MouseWheel != 0.0f) ctx->camera.zoom(io.MouseWheel);
}

void followBodies(ViewerContext* ctx, const runtime::Snapshot& s) {
  if (!ctx->follow || ctx->selected >= static_cast<int>(s.bodies.size())) return;
  const auto sel = static_cast<std::size_t>(ctx->selected);
  OrbitCamera& camera = ctx->camera;
  const glm::vec3 own = toGlm(s.bodies[sel].diagnostics.com);
  if (!ctx->panes(s).empty()) {
    camera.target = own;  // each pane follows its own body
    return;
  }
  // Every body (and the ghosts, when shown and asked for) in view, around their common
  // centre, as long as that keeps the selected body at least 1/25 of the view across;
  // beyond that (a vacuum ghost metres away, bodies that drifted apart) the camera follows
  // the selected body alone rather than shrinking it to a few pixels. A crowd (a storm of
  // leaves: its subject is the whole group, not one member) is always framed whole.
  const bool ghosts = ctx->frameGhost && ctx->render.ghosts && !s.ghostBodies.empty();
  const Bounds group = bodyBounds(s, ghosts);
  const float radius = std::max(static_cast<float>(s.bodies[sel].radius), 1e-4f);
  const bool crowd = s.bodies.size() >= kCrowdBodies;
  if ((s.bodies.size() > 1 || ghosts) && (crowd || group.radius <= 25.0f * radius)) {
    camera.distance =
        std::max(camera.distance,
                 camera.fitDistance(1.1f * group.radius, ctx->viewAspect()) / ctx->framingZoom);
    camera.target = group.center;
    return;
  }
  camera.target = own;
}

void renderView(Renderer& renderer, const ViewerContext& ctx, const std::vector<Pane>& panes,
                GLFWwindow* window) {
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(window, &fbw, &fbh);
  // Multisampling costs 2.6-5.4x the frame time on software rendering: the View panel's
  // switch turns it off (the window keeps its samples; rasterisation uses one).
  if (ctx.antiAliasing) {
    glEnable(GL_MULTISAMPLE);
  } else {
    glDisable(GL_MULTISAMPLE);
  }
  if (panes.empty()) {
    renderer.draw(ctx.camera, fbw, fbh, toPixels(ctx.layout.view, window), ctx.render);
    return;
  }
  for (std::size_t i = 0; i < panes.size(); ++i) {
    renderer.draw(paneCamera(ctx.camera, panes[i]), fbw, fbh, toPixels(panes[i].rect, window),
                  ctx.render, i == 0);
  }
}

void showReference(Renderer& renderer, const runtime::ReferenceGhost& reference, double t) {
  const int k = reference.pictureAt(t);
  if (k < 0) {
    renderer.setBackdrop(nullptr);
    return;
  }
  const io::CfdPicture& p = reference.reference().pictures[static_cast<std::size_t>(k)];
  Renderer::Backdrop b;
  b.id = k;
  b.rgb = p.rgb.data();
  b.pixelsX = p.pixelsX;
  b.pixelsY = p.pixelsY;
  b.lowerLeft = glm::vec3(static_cast<float>(p.x0), static_cast<float>(p.y0),
                          static_cast<float>(reference.planeZ()));
  b.size = glm::vec2(static_cast<float>(reference.reference().width),
                     static_cast<float>(reference.reference().height));
  renderer.setBackdrop(&b);
}

}  // namespace samara::app
