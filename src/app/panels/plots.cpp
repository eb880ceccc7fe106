#include "app/panels/plots.h"

#include <algorithm>
#include <string>

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
                                            {runtime::kPNorm, "|P|", cn, true, true}});
  plots_.emplace_back("Angular momentum L", "kg\u00b7m\u00b2/s",
                      std::vector<PlotLine>{{runtime::kLx, "x", cx, true},
                                            {runtime::kLy, "y", cy, true},
                                            {runtime::kLz, "z", cz, true},
                                            {runtime::kLNorm, "|L|", cn, true, true}});
  plots_.emplace_back(
      "Fall speed", "m/s",
      std::vector<PlotLine>{{runtime::kFallSpeed, "fall", rgb(250, 170, 60), true, true}});
  plots_.emplace_back(
      "Rotation speed", "rad/s",
      std::vector<PlotLine>{{runtime::kSpinRate, "spin (about up)", rgb(200, 120, 240), true, true},
                            {runtime::kOmegaNorm, "|\u03c9|", cn, true}});
  plots_.emplace_back(
      "Kinetic energy", "J",
      std::vector<PlotLine>{{runtime::kKineticEnergy, "total", cn, true, true},
                            {runtime::kKineticEnergyBody, "body", rgb(250, 170, 60), true},
                            {runtime::kKineticEnergyFluid, "fluid", rgb(90, 170, 245), true}});
}

namespace {

/// The lesson keys of the plots, in the plots' order.
constexpr const char* kPlotKeys[] = {"linear_momentum", "angular_momentum", "fall_speed",
                                     "rotation_speed", "kinetic_energy"};

}  // namespace

void PlotsPanel::setShownPlots(const std::vector<std::string>& keys) {
  shownPlots_.assign(plots_.size(), keys.empty() ? 1 : 0);
  for (const std::string& k : keys) {
    for (std::size_t i = 0; i < plots_.size() && i < std::size(kPlotKeys); ++i) {
      if (k == kPlotKeys[i]) shownPlots_[i] = 1;
    }
  }
}

void PlotsPanel::onNewRun(const runtime::Snapshot& s) {
  view_.tEnd = s.time;
  view_.frozen = false;
  // A new scene: two to four bodies are all plotted (a contrast), more only the selected one.
  if (s.scenePath != scenePath_ || plotted_.size() != s.bodies.size()) {
    scenePath_ = s.scenePath;
    const bool all = s.bodies.size() <= 4;
    plotted_.assign(s.bodies.size(), all ? 1 : 0);
  }
}

std::vector<int> PlotsPanel::plottedBodies(const ViewerContext& ctx) const {
  std::vector<int> out;
  for (std::size_t i = 0; i < plotted_.size(); ++i) {
    if (plotted_[i] != 0) out.push_back(static_cast<int>(i));
  }
  if (out.empty()) out.push_back(ctx.selected);  // never an empty plot
  return out;
}

namespace {

/// Up to this many bodies, their checkboxes form a row (wrapped to the panel); a crowd gets a
/// "bodies" button whose popup lists them.
constexpr std::size_t kInlineBodies = 8;

/// The width of one body's pick: checkbox, colour box and name.
float bodyPickWidth(const std::string& label, float box) {
  return ImGui::GetFrameHeight() + 2.0f + box + 4.0f + ImGui::CalcTextSize(label.c_str()).x;
}

/// One body's pick: a checkbox, its colour and its name. True when toggled.
bool bodyPick(int i, const std::string& label, float box, char* plotted) {
  ImGui::PushID(i);
  bool on = *plotted != 0;
  const bool changed = ImGui::Checkbox("##plotted", &on);
  if (changed) *plotted = on ? 1 : 0;
  ImGui::SameLine(0.0f, 2.0f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float y = p.y + 0.5f * (ImGui::GetFrameHeight() - box);
  ImGui::GetWindowDrawList()->AddRectFilled(
      ImVec2(p.x, y), ImVec2(p.x + box, y + box),
      ImGui::ColorConvertFloat4ToU32(toImVec4(Renderer::bodyColor(i))), 2.0f);
  ImGui::Dummy(ImVec2(box, box));
  ImGui::SameLine(0.0f, 4.0f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label.c_str());
  ImGui::PopID();
  return changed;
}

}  // namespace

void PlotsPanel::drawBodyPicks(const runtime::Snapshot& s) {
  // Which bodies are plotted (each in its colour; one body: all its lines).
  const float box = ImGui::GetFontSize() * 0.7f;
  const std::size_t n = s.bodies.size();
  if (n <= kInlineBodies) {
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) sameLineIfFits(bodyPickWidth(s.bodies[i].name, box));
      bodyPick(static_cast<int>(i), s.bodies[i].name, box, &plotted_[i]);
    }
    return;
  }
  const auto count = std::count(plotted_.begin(), plotted_.end(), char{1});
  std::string button =
      count == 0 ? "bodies (the selected one plotted)..."
                 : "bodies (" + std::to_string(count) + " of " + std::to_string(n) + " plotted)...";
  // A narrow panel (a projector's screen, presenting) gets the short form.
  const float padding = 2.0f * ImGui::GetStyle().FramePadding.x;
  if (ImGui::CalcTextSize(button.c_str()).x + padding > ImGui::GetContentRegionAvail().x) {
    button = count == 0 ? "bodies (selected)..."
                        : "bodies (" + std::to_string(count) + "/" + std::to_string(n) + ")...";
  }
  if (ImGui::SmallButton(button.c_str())) ImGui::OpenPopup("##bodies");
  wrappedTooltip("Choose which bodies the plots show; none chosen: the selected body.");
  if (!ImGui::BeginPopup("##bodies")) return;
  if (ImGui::SmallButton("none")) std::fill(plotted_.begin(), plotted_.end(), char{0});
  float widest = 0.0f;
  for (const auto& b : s.bodies) widest = std::max(widest, bodyPickWidth(b.name, box));
  const float rows = std::min(static_cast<float>(n), 16.0f);
  ImGui::BeginChild("##list", ImVec2(widest + 2.0f * ImGui::GetStyle().ScrollbarSize,
                                     rows * ImGui::GetFrameHeightWithSpacing()));
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(n));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      bodyPick(i, s.bodies[static_cast<std::size_t>(i)].name, box,
               &plotted_[static_cast<std::size_t>(i)]);
    }
  }
  ImGui::EndChild();
  ImGui::EndPopup();
}

void PlotsPanel::drawHeader(const runtime::Snapshot& s) {
  const float w = ImGui::GetFontSize() * 6.0f;
  ImGui::SetNextItemWidth(w);
  auto window = static_cast<float>(view_.window);
  if (ImGui::SliderFloat("window", &window, 0.1f, 120.0f, "%.2g s", ImGuiSliderFlags_Logarithmic)) {
    view_.window = window;
  }
  sameLineIfFits(checkboxWidth("freeze"));
  ImGui::Checkbox("freeze", &view_.frozen);
  sameLineIfFits(buttonWidth("plots..."));
  if (ImGui::SmallButton("plots...")) ImGui::OpenPopup("##which");
  if (ImGui::BeginPopup("##which")) {
    if (shownPlots_.size() != plots_.size()) shownPlots_.assign(plots_.size(), 1);
    for (std::size_t i = 0; i < plots_.size(); ++i) {
      bool on = shownPlots_[i] != 0;
      if (ImGui::MenuItem(plots_[i].title().c_str(), nullptr, &on)) shownPlots_[i] = on ? 1 : 0;
    }
    ImGui::EndPopup();
  }
  if (!s.ghostModel.empty()) {
    sameLineIfFits(checkboxWidth("fit ghost"));
    ImGui::Checkbox("fit ghost", &view_.fitGhosts);
    wrappedTooltip(
        "Let the ghost run set the y axes too. Off: the axes fit the bodies and a ghost far off "
        "scale (a body falling in vacuum) is clipped.");
  }
  if (s.bodies.size() > 1 && plotted_.size() == s.bodies.size()) drawBodyPicks(s);
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
  drawHeader(s);
  const runtime::PlotHistory& history = ctx.history;
  // The plotted bodies (one: all its lines in their colours; several: each body's summary
  // line in its colour), each with its ghost if a ghost run is on.
  const std::vector<int> bodies = plottedBodies(ctx);
  const bool several = bodies.size() > 1;
  std::vector<PlotSeries> runs;
  for (int i : bodies) {
    const auto k = static_cast<std::size_t>(i);
    if (i >= history.numBodies() || k >= s.bodies.size()) continue;
    const ImU32 color =
        several ? ImGui::ColorConvertFloat4ToU32(toImVec4(Renderer::bodyColor(i))) : 0;
    const bool ghost = !s.ghostModel.empty() && i < history.numGhostBodies();
    const std::string name =
        ghost ? s.bodies[k].name + " (" + s.bodies[k].model + ")" : s.bodies[k].name;
    runs.push_back({&history.body(i), several || ghost ? name : "", false, color});
    if (ghost) {
      runs.push_back(
          {&history.ghostBody(i), s.bodies[k].name + " (" + s.ghostModel + ")", true, color});
    }
  }
  if (runs.empty()) runs.push_back({nullptr, "", false, 0});
  const runtime::TimeSeries* series = runs.front().series;
  const int selected = bodies.front();
  const auto sel = static_cast<std::size_t>(selected);
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
  if (shownPlots_.size() != plots_.size()) shownPlots_.assign(plots_.size(), 1);
  const auto shown = static_cast<float>(
      std::max<std::ptrdiff_t>(std::count(shownPlots_.begin(), shownPlots_.end(), 1), 1));
  // One legend of the runs for all plots (each plot would repeat it).
  view_.runLegends = false;
  drawRunLegend(runs);
  view_.hoverT = view_.nextHoverT;
  view_.nextHoverT = -1.0;
  // The shown plots share the height left under the header and the runs' legend.
  const float each =
      std::max(ImGui::GetContentRegionAvail().y / shown - ImGui::GetStyle().ItemSpacing.y,
               ImGui::GetTextLineHeight() * 6.0f);
  for (std::size_t i = 0; i < plots_.size(); ++i) {
    if (shownPlots_[i] == 0) continue;
    plots_[i].draw(runs, &view_, ImVec2(ImGui::GetContentRegionAvail().x, each));
  }
  ImGui::End();
}

}  // namespace samara::app
