#include "app/panels/history.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "app/widgets/widgets.h"
#include "app/window.h"

namespace samara::app {

using runtime::RunStatus;

void HistoryPanel::draw(ViewerContext& ctx, const runtime::Snapshot& s, PlotView* plots,
                        const Rect& room, bool compact) {
  plots->cursorT = s.scrubbing ? s.time : -1.0;
  if (s.scrubbing && (s.time < plots->tEnd - plots->window || s.time > plots->tEnd)) {
    // Freeze the plots' window around the scrubbed time so the cursor stays visible.
    plots->frozen = true;
    plots->tEnd = std::max(s.time + 0.5 * plots->window, plots->window);
  }
  if (s.status == RunStatus::kEmpty || room.empty()) return;
  placeDocked(room);
  ImGui::Begin("History", nullptr, kDockedFlags | ImGuiWindowFlags_NoScrollbar);
  drawScrub(ctx, s);
  if (!compact) {
    drawSpeed(ctx, s);
    ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.5f);
    drawState(ctx, s);
  }
  ImGui::End();
}

void HistoryPanel::drawScrub(ViewerContext& ctx, const runtime::Snapshot& s) {
  const bool have = s.historyLast > s.historyFirst;
  // The slider runs over recorded step indices; its label shows the time.
  auto step = static_cast<long long>(s.stepIndex);
  const auto first = static_cast<long long>(s.historyFirst);
  const auto last = static_cast<long long>(s.historyLast);
  const bool paused = s.status != RunStatus::kRunning;
  const char* play = paused ? "play" : "freeze";
  const ImGuiStyle& st = ImGui::GetStyle();
  // Room for the two arrows and the play/freeze button after the slider.
  const float tail = 2.0f * (ImGui::GetFrameHeight() + st.ItemSpacing.x) +
                     ImGui::CalcTextSize("freeze").x + 2.0f * st.FramePadding.x + st.ItemSpacing.x;
  ImGui::BeginDisabled(!have);
  ImGui::SetNextItemWidth(-tail);
  const std::string label = strf("t = %.4f s", s.time);
  if (ImGui::SliderScalar("##scrub", ImGuiDataType_S64, &step, &first, &last, label.c_str())) {
    ctx.post(runtime::Scrub{static_cast<std::int64_t>(step)});
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) {
    ctx.post(runtime::Scrub{(s.scrubbing ? s.stepIndex : s.historyLast) - 1, -1});
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!s.scrubbing);
  if (ImGui::ArrowButton("##fwd", ImGuiDir_Right)) ctx.post(runtime::Scrub{s.stepIndex + 1, 1});
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(play)) {
    ctx.post(paused ? runtime::Command{runtime::Resume{}} : runtime::Command{runtime::Pause{}});
  }
}

void HistoryPanel::drawState(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (s.scrubbing) {
    ImGui::TextColored(ImVec4(1.0f, 0.63f, 0.16f, 1.0f), "step %lld of %lld",
                       static_cast<long long>(s.stepIndex),
                       static_cast<long long>(s.liveStepIndex));
    ImGui::SameLine();
    if (ImGui::SmallButton("back to live")) ctx.post(runtime::Scrub{std::nullopt});
    ImGui::SameLine();
    if (ImGui::SmallButton("resume")) ctx.post(runtime::Resume{});
  } else {
    // Only when it fits (a narrow view leaves no room for it).
    // A crowd's history keeps every stride-th step (its byte budget): say so.
    const double span = s.historyLastTime - s.historyFirstTime;
    std::string text = strf("recorded %.3g s", span);
    if (s.historyStride > 1) text += ", every " + std::to_string(s.historyStride) + " steps";
    if (ImGui::CalcTextSize(text.c_str()).x <= ImGui::GetContentRegionAvail().x) {
      ImGui::TextDisabled("%s", text.c_str());
    }
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
}

}  // namespace samara::app
