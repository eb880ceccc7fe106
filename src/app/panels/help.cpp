#include "app/panels/help.h"

#include "app/input.h"

namespace samara::app {

void drawHelp(ViewerContext& ctx) {
  if (!ctx.showHelp) return;
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::Begin("Help", &ctx.showHelp, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextUnformatted("Keyboard");
  ImGui::Separator();
  for (const KeyBinding& k : keyTable()) {
    ImGui::Text("%-12s", k.name);
    ImGui::SameLine(ImGui::GetFontSize() * 7.0f);
    ImGui::TextUnformatted(k.description);
  }
  ImGui::Spacing();
  ImGui::TextUnformatted("Mouse");
  ImGui::Separator();
  ImGui::TextUnformatted(
      "left drag: orbit    right / middle / shift+left drag: pan    wheel: zoom");
  ImGui::TextUnformatted(
      "plots: hover to read values, wheel to change the window, freeze to inspect");
  ImGui::Spacing();
  ImGui::TextUnformatted("Files");
  ImGui::Separator();
  ImGui::TextUnformatted("drop a scene (.json) or a mesh (.obj) on the window to open it;");
  ImGui::TextUnformatted("a scene file that changes on disk is reloaded (View > reload on change)");
  ImGui::End();
}

}  // namespace samara::app
