#include "app/panels/history.h"

#include <algorithm>
#include <cmath>

#include "app/widgets/widgets.h"
#include "app/window.h"

namespace samara::app {

using runtime::RunStatus;

void HistoryPanel::draw(ViewerContext& ctx, const runtime::Snapshot& s, PlotView* plots) {
  plots->cursorT = s.scrubbing ? s.time : -1.0;
  if (s.scrubbing && (s.time < plots->tEnd - plots->window || s.time > plots->tEnd)) {
    // Freeze the plots' window around the scrubbed time so the cursor stays visible.
    plots->frozen = true;
    plots->tEnd = std::max(s.time + 0.5 * plots->window, plots->window);
  }
  if (s.status == RunStatus::kEmpty) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = 520.0f * ctx.window->uiScale();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 0.5f * (vp->WorkSize.x - width),
                                 vp->WorkPos.y + vp->WorkSize.y - 8.0f),
                          ImGuiCond_FirstUseEver, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("History");
  drawScrub(ctx, s);
  drawSpeed(ctx, s);
  ImGui::End();
}

void HistoryPanel::drawScrub(ViewerContext& ctx, const runtime::Snapshot& s) {
  const bool have = s.historyLast > s.historyFirst;
  // The slider runs over recorded step indices; its label shows the time.
  auto step = static_cast<long long>(s.stepIndex);
  const auto first = static_cast<long long>(s.historyFirst);
  const auto last = static_cast<long long>(s.historyLast);
  ImGui::BeginDisabled(!have);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4.0f);
  const std::string label = strf("t = %.4f s", s.time);
  if (ImGui::SliderScalar("##scrub", ImGuiDataType_S64, &step, &first, &last, label.c_str())) {
    ctx.post(runtime::Scrub{static_cast<std::int64_t>(step)});
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) {
    ctx.post(runtime::Scrub{(s.scrubbing ? s.stepIndex : s.historyLast) - 1});
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!s.scrubbing);
  if (ImGui::ArrowButton("##fwd", ImGuiDir_Right)) ctx.post(runtime::Scrub{s.stepIndex + 1});
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  if (s.scrubbing) {
    ImGui::TextColored(
        ImVec4(1.0f, 0.63f, 0.16f, 1.0f), "scrubbing: step %lld of %lld (live t = %.4f s)",
        static_cast<long long>(s.stepIndex), static_cast<long long>(s.liveStepIndex), s.liveTime);
    if (ImGui::Button("back to live")) ctx.post(runtime::Scrub{std::nullopt});
    ImGui::SameLine();
    if (ImGui::Button("resume (from live)")) ctx.post(runtime::Resume{});
  } else {
    ImGui::TextDisabled("recorded %.3g s (%lld steps); pause and drag, or press <-",
                        s.historyLastTime - s.historyFirstTime,
                        static_cast<long long>(s.historyLast - s.historyFirst));
  }
}

void HistoryPanel::drawSpeed(ViewerContext& ctx, const runtime::Snapshot& s) {
  // Slow motion and freeze frame (the plots stop with the run: no new samples while paused).
  ImGui::TextUnformatted("slow motion");
  for (double preset : {0.01, 0.05, 0.1}) {
    ImGui::SameLine();
    ImGui::PushID(static_cast<int>(preset * 1000));
    const bool on = !s.params.unlimited && std::abs(s.params.speed - preset) < 1e-9;
    if (ImGui::RadioButton(strf("%gx", preset).c_str(), on)) {
      ctx.post(runtime::SetSpeed{preset, false});
    }
    ImGui::PopID();
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("1x", !s.params.unlimited && s.params.speed == 1.0)) {
    ctx.post(runtime::SetSpeed{1.0, false});
  }
  ImGui::SameLine();
  const bool paused = s.status != RunStatus::kRunning;
  if (ImGui::Button(paused ? "play" : "freeze")) {
    ctx.post(paused ? runtime::Command{runtime::Resume{}} : runtime::Command{runtime::Pause{}});
  }
}

}  // namespace samara::app
