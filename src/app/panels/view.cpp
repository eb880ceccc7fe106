#include "app/panels/view.h"

#include <algorithm>

#include "app/render/glm_eigen.h"
#include "app/widgets/widgets.h"
#include "app/window.h"

namespace samara::app {

namespace {

/// The COM trail of a body (or ghost body) `b` from its recorded samples `ts`.
void buildTrail(const runtime::TimeSeries& ts, const runtime::BodySnapshot& b,
                const runtime::Snapshot& s, double seconds, Trail* tr) {
  tr->clear();
  if (ts.empty()) return;
  // Scrubbing: the trail ends at the recorded step shown.
  const std::size_t end = s.scrubbing ? ts.lowerBound(s.time) : ts.size();
  const double tLast = end > 0 ? ts.time(end - 1) : s.time;
  const std::size_t from = std::min(ts.lowerBound(tLast - seconds), end);
  const std::size_t n = end - from;
  const std::size_t stride = std::max<std::size_t>(1, n / 2000);
  for (std::size_t k = from; k < end; k += stride) {
    tr->emplace_back(ts.value(k, runtime::kComX), ts.value(k, runtime::kComY),
                     ts.value(k, runtime::kComZ));
  }
  tr->push_back(toGlm(b.diagnostics.com));
}

}  // namespace

void ViewPanel::onNewRun(const runtime::Snapshot& s) {
  trails_.assign(s.bodies.size(), {});
  ghostTrails_.assign(s.ghostBodies.size(), {});
}

void ViewPanel::updateTrails(ViewerContext& ctx, const runtime::Snapshot& s) {
  const runtime::PlotHistory& h = ctx.history;
  trails_.resize(s.bodies.size());
  for (int i = 0; i < h.numBodies() && i < static_cast<int>(trails_.size()); ++i) {
    const auto k = static_cast<std::size_t>(i);
    buildTrail(h.body(i), s.bodies[k], s, ctx.render.trailSeconds, &trails_[k]);
  }
  ghostTrails_.resize(s.ghostBodies.size());
  for (int i = 0; i < h.numGhostBodies() && i < static_cast<int>(ghostTrails_.size()); ++i) {
    const auto k = static_cast<std::size_t>(i);
    buildTrail(h.ghostBody(i), s.ghostBodies[k], s, ctx.render.trailSeconds, &ghostTrails_[k]);
  }
  ctx.renderer->setTrails(trails_, ghostTrails_);
}

void ViewPanel::draw(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("View")) return;
  ImGui::Checkbox("follow selected (F)", &ctx.follow);
  ImGui::SameLine();
  if (ImGui::SmallButton("reset view (V)")) ctx.resetView(s);
  if (ImGui::Checkbox("split view: a pane per body", &ctx.split)) ctx.resetView(s);
  wrappedTooltip(
      "While following, a scene of two to four bodies (or one body and its ghost) shows each "
      "body in its own pane, side by side, at the same scale and from the same direction.");
  RenderSettings& r = ctx.render;
  ImGui::Checkbox("shadows", &r.shadows);
  ImGui::SameLine();
  ImGui::Checkbox("grid", &r.grid);
  ImGui::SameLine();
  ImGui::Checkbox("water", &r.water);
  ImGui::Checkbox("trails", &r.trails);
  ImGui::SameLine();
  ImGui::Checkbox("anti-aliasing", &ctx.antiAliasing);
  wrappedTooltip(
      "Multisampled edges (the window's --msaa samples). Off: faster on software rendering "
      "(a laptop without a GPU, a projector PC), jagged edges.");
  auto trail = static_cast<float>(ctx.render.trailSeconds);
  if (ImGui::SliderFloat("trail length", &trail, 0.5f, 60.0f, "%.1f s",
                         ImGuiSliderFlags_Logarithmic)) {
    ctx.render.trailSeconds = trail;
  }
  float scale = ctx.window->uiScale();
  ImGui::SliderFloat("UI scale", &scale, 0.75f, 3.0f, "%.2f");
  if (ImGui::IsItemDeactivatedAfterEdit()) ctx.window->requestUiScale(scale);
  for (float preset : {1.0f, 1.5f, 2.0f, 2.5f}) {
    if (ImGui::SmallButton(strf("%gx##ui", preset).c_str())) ctx.window->requestUiScale(preset);
    ImGui::SameLine();
  }
  ImGui::NewLine();
  if (ImGui::InputInt2("picture size", shotSize_)) {
    for (int k = 0; k < 2; ++k) shotSize_[k] = std::clamp(shotSize_[k], 0, 16384);
  }
  wrappedTooltip(
      "Width and height of screenshots in pixels: the 3D view alone, rendered offscreen at "
      "this size whatever the window's. 0 0: the window as shown, panels included.");
  if (ImGui::Button("Screenshot (P)")) ctx.screenshotRequested = true;
}

}  // namespace samara::app
