#include "app/panels/run.h"

#include <algorithm>
#include <iterator>
#include <thread>

#include "app/window.h"
#include "runtime/current_scene.h"

namespace samara::app {

namespace {

using runtime::RunStatus;

const char* statusText(RunStatus st) {
  // In RunStatus's order.
  static constexpr const char* kTexts[] = {"no scene", "running", "paused", "FAILED (paused)"};
  const auto i = static_cast<std::size_t>(st);
  return i < std::size(kTexts) ? kTexts[i] : "";
}

/// The scene's name and body count, status, time, rates, messages and the notice.
void drawStatusLines(const ViewerContext& ctx, const runtime::Snapshot& s) {
  ImGui::Text("%s", s.sceneName.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(%zu bod%s)", s.bodies.size(), s.bodies.size() == 1 ? "y" : "ies");
  const ImVec4 statusColor = s.status == RunStatus::kFailed   ? ImVec4(1.0f, 0.35f, 0.3f, 1.0f)
                             : s.status == RunStatus::kPaused ? kColorPaused
                                                              : kColorGood;
  ImGui::TextColored(statusColor, "%s", statusText(s.status));
  ImGui::SameLine();
  ImGui::Text("t = %.3f s  step %lld", s.time, static_cast<long long>(s.stepIndex));
  if (s.status == RunStatus::kRunning && !s.rateMeasured) {
    ImGui::TextDisabled("real-time factor: measuring...");
  } else {
    ImGui::Text("real-time factor %.2f  (%.0f steps/s)", s.realTimeFactor, s.stepsPerSecond);
  }
  if (ctx.frameMs > 0.0) {
    const std::string frame = strf("frame %.0f ms", ctx.frameMs);
    sameLineIfFits(ImGui::CalcTextSize(frame.c_str()).x);
    ImGui::TextDisabled("%s", frame.c_str());
  }
  if (s.status == RunStatus::kRunning && !s.params.unlimited &&
      s.realTimeFactor < 0.9 * s.params.speed && s.reanchors > 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, kColorPaused);  // wrapped: a narrow panel clipped it
    ImGui::TextWrapped("slower than requested: the machine can't keep up");
    ImGui::PopStyleColor();
  }
  if (!s.message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kColorError);
    ImGui::TextWrapped("%s", s.message.c_str());
    ImGui::PopStyleColor();
  }
  if (const std::string* notice = ctx.notice.current()) ImGui::TextWrapped("%s", notice->c_str());
}

}  // namespace

void RunPanel::drawStatus(ViewerContext& ctx, const runtime::Snapshot& s) {
  drawStatusLines(ctx, s);
  ImGui::Separator();

  const bool running = s.status == RunStatus::kRunning;
  if (ImGui::Button(running ? "Pause" : "Run", ImVec2(70.0f * ctx.window->uiScale(), 0))) {
    ctx.post(running ? runtime::Command(runtime::Pause{}) : runtime::Command(runtime::Resume{}));
  }
  ImGui::SameLine();
  if (ImGui::Button("Step")) ctx.post(runtime::Step{1});
  ImGui::SameLine();
  if (ImGui::Button("x10")) ctx.post(runtime::Step{10});
  ImGui::SameLine();
  if (ImGui::Button("Reset")) ctx.post(runtime::Reset{});
  if (ImGui::Button("Restart with these parameters")) {
    ctx.post(runtime::Restart{runtime::overridesOf(s)});
  }
  auto commandLine = [&] { return runtime::runCommandLine(runtime::currentSceneOf(s)); };
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted("From t = 0 with the current parameters; the same bits as");
    ImGui::TextUnformatted(commandLine().c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  sameLineIfFits(buttonWidth("copy cmd"));
  if (ImGui::SmallButton("copy cmd")) ImGui::SetClipboardText(commandLine().c_str());
}

void RunPanel::drawThreads(ViewerContext& ctx, const runtime::Snapshot& s) {
  threads_.sync(s.params.threads);
  int threads = static_cast<int>(threads_.value);
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (ImGui::SliderInt("threads", &threads, 1, std::max(cores, s.params.threads))) {
    threads_.value = threads;
    ctx.post(runtime::SetThreads{threads});
  }
  threads_.active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Simulation threads: they step the bodies (%d cores here), and the ghost beside the\n"
        "scene; the results are the same bits for any number.",
        cores);
  }
}

void RunPanel::drawSimulation(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  bool unlimited = s.params.unlimited;
  speed_.sync(s.params.speed);
  const double speedMin = 0.01, speedMax = 4.0;
  ImGui::BeginDisabled(unlimited);
  if (ImGui::SliderScalar("speed", ImGuiDataType_Double, &speed_.value, &speedMin, &speedMax,
                          "%.2fx", ImGuiSliderFlags_Logarithmic)) {
    ctx.post(runtime::SetSpeed{speed_.value, false});
  }
  speed_.active = ImGui::IsItemActive();
  ImGui::EndDisabled();
  bool first = true;
  for (double preset : {0.1, 0.25, 1.0, 4.0}) {
    const std::string label = strf("%gx", preset);
    if (!first) sameLineIfFits(buttonWidth(label.c_str()));
    first = false;
    ImGui::PushID(static_cast<int>(preset * 100));
    if (ImGui::SmallButton(label.c_str())) ctx.post(runtime::SetSpeed{preset, false});
    ImGui::PopID();
  }
  sameLineIfFits(checkboxWidth("as fast as possible"));
  if (ImGui::Checkbox("as fast as possible", &unlimited)) {
    ctx.post(runtime::SetSpeed{s.params.speed, unlimited});
  }
  dt_.sync(s.params.dt);
  const double dtMin = 1e-5, dtMax = 0.05;
  if (ImGui::SliderScalar("h (time step)", ImGuiDataType_Double, &dt_.value, &dtMin, &dtMax,
                          "%.3g s", ImGuiSliderFlags_Logarithmic)) {
    ctx.post(runtime::SetDt{dt_.value});
  }
  dt_.active = ImGui::IsItemActive();
  drawThreads(ctx, s);
  const runtime::SolverStats& st = s.solver;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "Newton: %d iterations (mean %.1f, max %d of %d over the last %d steps); "
      "%d sub-stepped",
      st.lastIterations, st.meanIterations, st.maxIterations, st.iterationLimit, st.recentSteps,
      st.substeppedSteps);
  ImGui::PopStyleColor();
  // Struggling: steps that had to be split, or iterations that are high on average. A
  // crowd's step reports its slowest body, so one leaf's worst step (16 of 25 in
  // leaf_storm, never split) is not a reason to shrink h.
  const bool struggles = st.substeppedSteps > 0 || st.meanIterations > st.iterationLimit / 2 ||
                         s.status == RunStatus::kFailed;
  if (struggles) {
    ImGui::PushStyleColor(ImGuiCol_Text, kColorCaution);
    ImGui::TextWrapped("Newton struggles at this h: reduce the time step");
    ImGui::PopStyleColor();
  }
}

}  // namespace samara::app
