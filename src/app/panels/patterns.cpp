#include "app/panels/patterns.h"

#include "analysis/pattern.h"
#include "app/widgets/widgets.h"

namespace samara::app {

void drawPatternOverlay(const ViewerContext& ctx, const runtime::Snapshot& s) {
  if (s.bodies.empty() || !ctx.patterns.result(0)) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(ctx.layout.left + 8.0f, vp->WorkPos.y + 8.0f));
  ImGui::SetNextWindowBgAlpha(0.35f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoSavedSettings;
  ImGui::Begin("##patterns", nullptr, flags);
  ImGui::TextDisabled("falling pattern");
  constexpr std::size_t kShown = 4;  // bodies listed (each with its ghost)
  const float box = ImGui::GetFontSize() * 0.7f;
  auto line = [&](const glm::vec3& c, const std::string& label, const analysis::PatternResult* r) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + (ImGui::GetTextLineHeight() - box) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + box, y + box),
                                              ImGui::ColorConvertFloat4ToU32(toImVec4(c)), 2.0f);
    ImGui::Dummy(ImVec2(box, box));
    ImGui::SameLine();
    ImGui::Text("%s: %s", label.c_str(), r ? analysis::patternName(r->pattern) : "-");
  };
  for (std::size_t i = 0; i < s.bodies.size() && i < kShown; ++i) {
    const int k = static_cast<int>(i);
    line(Renderer::bodyColor(k), s.bodies[i].name, ctx.patterns.result(k));
    if (i < s.ghostBodies.size()) {
      line(Renderer::ghostColor(k), s.bodies[i].name + " (" + s.ghostModel + ")",
           ctx.patterns.result(k, true));
    }
  }
  if (s.bodies.size() > kShown) {
    ImGui::TextDisabled("... %zu more (Bodies panel)", s.bodies.size() - kShown);
  }
  ImGui::End();
}

}  // namespace samara::app
