#include "app/panels/presentation.h"

#include "app/window.h"

namespace samara::app {

namespace {

bool shown(const ViewerContext& ctx, bool chosen) { return !ctx.window->presenting() || chosen; }

}  // namespace

bool PresentationPanel::controls(const ViewerContext& ctx) const { return shown(ctx, controls_); }
bool PresentationPanel::plots(const ViewerContext& ctx) const { return shown(ctx, plots_); }
bool PresentationPanel::history(const ViewerContext& ctx) const { return shown(ctx, history_); }
bool PresentationPanel::lesson(const ViewerContext& ctx) const { return shown(ctx, lesson_); }
bool PresentationPanel::patterns(const ViewerContext& ctx) const { return shown(ctx, patterns_); }

void PresentationPanel::draw(ViewerContext& ctx) {
  if (!ctx.window->presenting()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 8.0f, vp->WorkPos.y + 8.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  ImGui::Begin("Presentation", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::Checkbox("controls", &controls_);
  ImGui::Checkbox("plots", &plots_);
  ImGui::Checkbox("history", &history_);
  ImGui::Checkbox("lesson", &lesson_);
  ImGui::Checkbox("falling pattern", &patterns_);
  if (ImGui::Button("exit (F11)")) ctx.window->setPresentation(false);
  ImGui::End();
}

}  // namespace samara::app
