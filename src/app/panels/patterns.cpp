#include "app/panels/patterns.h"

#include "analysis/pattern.h"
#include "app/widgets/widgets.h"

namespace samara::app {

namespace {

constexpr std::size_t kShown = 4;  // bodies listed (each with its ghost)

std::size_t linesOf(const runtime::Snapshot& s) {
  const std::size_t n = std::min(s.bodies.size(), kShown);
  return n + std::min(s.ghostBodies.size(), n) + (s.bodies.size() > kShown ? 1 : 0);
}

}  // namespace

std::vector<int> patternBodiesShown(const ViewerContext& ctx, const runtime::Snapshot& s) {
  std::vector<int> shown;
  for (std::size_t i = 0; i < s.bodies.size() && i < kShown; ++i) {
    shown.push_back(static_cast<int>(i));
  }
  if (ctx.selected >= static_cast<int>(kShown) &&
      ctx.selected < static_cast<int>(s.bodies.size())) {
    shown.push_back(ctx.selected);
  }
  return shown;
}

float patternsHeight(const ViewerContext& ctx, const runtime::Snapshot& s) {
  if (s.bodies.empty() || !ctx.patterns.result(0)) return 0.0f;
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::GetFrameHeight() +
         static_cast<float>(linesOf(s)) * ImGui::GetTextLineHeightWithSpacing() +
         2.0f * st.WindowPadding.y;
}

void drawPatternPanel(const ViewerContext& ctx, const runtime::Snapshot& s, const Rect& room) {
  if (s.bodies.empty() || !ctx.patterns.result(0) || room.empty()) return;
  placeDocked(room);
  ImGui::Begin("Falling pattern", nullptr, kDockedFlags);
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
