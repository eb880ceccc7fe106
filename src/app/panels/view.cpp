#include "app/panels/view.h"

#include <algorithm>

#include "app/render/glm_eigen.h"
#include "app/widgets/widgets.h"
#include "app/window.h"

namespace samara::app {

namespace {

/// Points over a trail's length at most, and of all trails together (many bodies: fewer
/// each, so a crowd's trails cost what 15 bodies' do). llvmpipe draws a segment in about
/// 0.07 µs, the viewer keeps and uploads them: `leaf_storm` (510 leaves) 44 → 33 ms of
/// rendering per frame over 600 frames when this went from 200 000 to 60 000 (a point
/// every 0.085 s of a 10 s trail: a leaf's swing of about a second keeps a dozen).
constexpr double kTrailPoints = 4000.0;
constexpr double kAllTrailPoints = 60000.0;

}  // namespace

void ViewPanel::advance(TrailState* st, const runtime::TimeSeries& ts, const runtime::Snapshot& s,
                        double seconds, double spacing) {
  if (ts.empty()) return;
  // Scrubbing: the trail ends at the recorded step shown.
  const std::size_t end = s.scrubbing ? ts.lowerBound(s.time) : ts.size();
  if (end == 0) return;
  const double tLast = ts.time(end - 1);
  const std::uint64_t dropped = ts.dropped();
  std::size_t from = st->next > dropped ? static_cast<std::size_t>(st->next - dropped) : 0;
  if (st->head == st->points.size()) from = std::max(from, ts.lowerBound(tLast - seconds));
  for (std::size_t k = from; k < end; ++k) {
    const double t = ts.time(k);
    if (st->head < st->times.size() && t < st->times.back() + spacing) continue;
    st->points.emplace_back(ts.value(k, runtime::kComX), ts.value(k, runtime::kComY),
                            ts.value(k, runtime::kComZ));
    st->times.push_back(t);
  }
  st->next = dropped + end;
  // Older than the trail's length: dropped (the storage compacted now and then).
  while (st->head < st->times.size() && st->times[st->head] < tLast - seconds) ++st->head;
  if (st->head > 1024 && 2 * st->head > st->times.size()) {
    const auto h = static_cast<std::ptrdiff_t>(st->head);
    st->points.erase(st->points.begin(), st->points.begin() + h);
    st->times.erase(st->times.begin(), st->times.begin() + h);
    st->head = 0;
  }
}

void ViewPanel::onNewRun(const runtime::Snapshot& s) {
  trails_.assign(s.bodies.size(), {});
  ghostTrails_.assign(s.ghostBodies.size(), {});
  trailKey_ = TrailKey{};
}

void ViewPanel::updateTrails(ViewerContext& ctx, const runtime::Snapshot& s) {
  const runtime::PlotHistory& h = ctx.history;
  const double seconds = ctx.render.trailSeconds;
  TrailKey key{h.generation(),  seconds,
               s.scrubbing,     s.scrubbing ? s.time : 0.0,
               s.bodies.size(), s.ghostBodies.size()};
  if (!(key == trailKey_)) {
    // Another run, trail length or scrubbed step: built again from the history.
    states_.assign(s.bodies.size(), {});
    ghostStates_.assign(s.ghostBodies.size(), {});
    trailKey_ = key;
  }
  const double count =
      static_cast<double>(std::max<std::size_t>(states_.size() + ghostStates_.size(), 1));
  // Time between kept samples, s.
  const double spacing = seconds * std::max(1.0 / kTrailPoints, count / kAllTrailPoints);
  auto build = [&](std::vector<TrailState>& states, std::vector<Trail>& trails, int n,
                   const std::vector<runtime::BodySnapshot>& bodies, bool ghost) {
    trails.resize(bodies.size());
    for (int i = 0; i < n && i < static_cast<int>(states.size()); ++i) {
      const auto k = static_cast<std::size_t>(i);
      TrailState& st = states[k];
      const runtime::TimeSeries& ts = ghost ? h.ghostBody(i) : h.body(i);
      advance(&st, ts, s, seconds, spacing);
      Trail& tr = trails[k];
      tr.assign(st.points.begin() + static_cast<std::ptrdiff_t>(st.head), st.points.end());
      if (!ts.empty()) tr.push_back(toGlm(bodies[k].diagnostics.com));
    }
  };
  build(states_, trails_, h.numBodies(), s.bodies, false);
  build(ghostStates_, ghostTrails_, h.numGhostBodies(), s.ghostBodies, true);
  ctx.renderer->setTrails(trails_, ghostTrails_);
}

void ViewPanel::draw(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("View")) return;
  ImGui::Checkbox("follow selected (F)", &ctx.follow);
  sameLineIfFits(buttonWidth("reset view (V)"));
  if (ImGui::SmallButton("reset view (V)")) ctx.resetView(s);
  if (ImGui::Checkbox("split view: a pane per body", &ctx.split)) ctx.resetView(s);
  wrappedTooltip(
      "While following, a scene of two to four bodies (or one body and its ghost) shows each "
      "body in its own pane, side by side, at the same scale and from the same direction.");
  RenderSettings& r = ctx.render;
  ImGui::Checkbox("shadows", &r.shadows);
  sameLineIfFits(checkboxWidth("grid"));
  ImGui::Checkbox("grid", &r.grid);
  sameLineIfFits(checkboxWidth("water"));
  ImGui::Checkbox("water", &r.water);
  ImGui::Checkbox("trails", &r.trails);
  sameLineIfFits(checkboxWidth("anti-aliasing"));
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
    const std::string label = strf("%gx##ui", preset);
    if (preset != 1.0f) sameLineIfFits(buttonWidth(label.c_str()));
    if (ImGui::SmallButton(label.c_str())) ctx.window->requestUiScale(preset);
  }
  if (ImGui::InputInt2("picture size", shotSize_)) {
    for (int k = 0; k < 2; ++k) shotSize_[k] = std::clamp(shotSize_[k], 0, 16384);
  }
  wrappedTooltip(
      "Width and height of screenshots in pixels: the 3D view alone, rendered offscreen at "
      "this size whatever the window's. 0 0: the window as shown, panels included.");
  if (ImGui::Button("Screenshot (P)")) ctx.screenshotRequested = true;
}

}  // namespace samara::app
