#include "app/widgets/widgets.h"

#include <cstdio>

namespace samara::app {

std::string strf(const char* format, double x) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

void wrappedTooltip(const std::string& text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void sameLineIfFits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  if (ImGui::GetItemRectMax().x + spacing + width <= right) ImGui::SameLine();
}

float buttonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

float checkboxWidth(const char* label) {
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  return ImGui::GetFrameHeight() +
         (text > 0.0f ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0.0f);
}

}  // namespace samara::app
