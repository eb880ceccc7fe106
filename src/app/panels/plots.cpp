#include "app/panels/plots.h"

#include <algorithm>

#include "app/widgets/ticks.h"
#include "app/widgets/widgets.h"
#include "app/window.h"

namespace samara::app {

PlotsPanel::PlotsPanel() {
  const ImU32 cx = rgb(235, 90, 80), cy = rgb(110, 200, 90), cz = rgb(90, 150, 245),
              cn = rgb(240, 240, 240);
  plots_.emplace_back("Linear momentum P", "kg\u00b7m/s",
                      std::vector<PlotLine>{{runtime::kPx, "x", cx, true},
                                            {runtime::kPy, "y", cy, true},
                                            {runtime::kPz, "z", cz, true},
                                            {runtime::kPNorm, "|P|", cn, true}});
  plots_.emplace_back("Angular momentum L", "kg\u00b7m\u00b2/s",
                      std::vector<PlotLine>{{runtime::kLx, "x", cx, true},
                                            {runtime::kLy, "y", cy, true},
                                            {runtime::kLz, "z", cz, true},
                                            {runtime::kLNorm, "|L|", cn, true}});
  plots_.emplace_back(
      "Fall speed", "m/s",
      std::vector<PlotLine>{{runtime::kFallSpeed, "fall", rgb(250, 170, 60), true}});
  plots_.emplace_back(
      "Rotation speed", "rad/s",
      std::vector<PlotLine>{{runtime::kSpinRate, "spin (about up)", rgb(200, 120, 240), true},
                            {runtime::kOmegaNorm, "|\u03c9|", cn, true}});
  plots_.emplace_back(
      "Kinetic energy", "J",
      std::vector<PlotLine>{{runtime::kKineticEnergy, "total", cn, true},
                            {runtime::kKineticEnergyBody, "body", rgb(250, 170, 60), true},
                            {runtime::kKineticEnergyFluid, "fluid", rgb(90, 170, 245), true}});
}

void PlotsPanel::onNewRun(const runtime::Snapshot& s) {
  view_.tEnd = s.time;
  view_.frozen = false;
}

void PlotsPanel::drawHeader(ViewerContext& ctx, const runtime::Snapshot& s) {
  const float w = ImGui::GetFontSize() * 6.0f;
  ImGui::SetNextItemWidth(w);
  auto window = static_cast<float>(view_.window);
  if (ImGui::SliderFloat("window", &window, 0.1f, 120.0f, "%.2g s", ImGuiSliderFlags_Logarithmic)) {
    view_.window = window;
  }
  ImGui::SameLine();
  ImGui::Checkbox("freeze", &view_.frozen);
  if (s.bodies.size() > 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("body", s.bodies[static_cast<std::size_t>(ctx.selected)].name.c_str())) {
      for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        if (ImGui::Selectable(s.bodies[i].name.c_str(), ctx.selected == static_cast<int>(i))) {
          ctx.selected = static_cast<int>(i);
        }
      }
      ImGui::EndCombo();
    }
  }
  if (view_.frozen) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("frozen: hover to read values, drag to pan, wheel to zoom");
    ImGui::PopStyleColor();
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("world frame, SI units; hover to read, click a legend entry to hide it");
    ImGui::PopStyleColor();
  }
}

void PlotsPanel::draw(ViewerContext& ctx, const runtime::Snapshot& s, const Rect& room) {
  placeDocked(room);
  ImGui::Begin("Plots", nullptr, kDockedFlags);
  drawHeader(ctx, s);
  const int selected = ctx.selected;
  const runtime::PlotHistory& history = ctx.history;
  const runtime::TimeSeries* series =
      selected < history.numBodies() ? &history.body(selected) : nullptr;
  // The selected body, and its ghost if a ghost run is on: "name (model)" legends.
  std::vector<PlotSeries> runs{{series, "", false}};
  const auto sel = static_cast<std::size_t>(selected);
  if (!s.ghostModel.empty() && sel < s.bodies.size() && selected < history.numGhostBodies()) {
    runs[0].label = s.bodies[sel].name + " (" + s.bodies[sel].model + ")";
    runs.push_back(
        {&history.ghostBody(selected), s.bodies[sel].name + " (" + s.ghostModel + ")", true});
  }
  if (!view_.frozen) {
    view_.tEnd = series && !series->empty() ? series->time(series->size() - 1) : s.time;
    view_.tEnd = std::max(view_.tEnd, view_.window);
  }
  // Natural scales of the plotted body (velocity √(g r)): round-off far below them is drawn
  // as 0 and never blown up into an axis (a resting card's 1e-14 m/s).
  if (sel < s.bodies.size()) {
    const runtime::BodySnapshot& b = s.bodies[sel];
    const std::array<double, 5> scales =
        naturalScales(b.mass, b.radius, s.params.gravity.norm(), b.diagnostics.velocity.norm(),
                      b.diagnostics.omega.norm());
    for (std::size_t k = 0; k < plots_.size() && k < scales.size(); ++k) {
      plots_[k].setNaturalScale(scales[k]);
    }
  }
  const float avail = ImGui::GetContentRegionAvail().y;
  const float each =
      std::max(avail / static_cast<float>(plots_.size()) - ImGui::GetStyle().ItemSpacing.y,
               ImGui::GetTextLineHeight() * 6.0f);
  view_.hoverT = view_.nextHoverT;
  view_.nextHoverT = -1.0;
  for (PlotWidget& p : plots_) {
    p.draw(runs, &view_, ImVec2(ImGui::GetContentRegionAvail().x, each));
  }
  ImGui::End();
}

}  // namespace samara::app
