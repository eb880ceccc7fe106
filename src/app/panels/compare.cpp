#include "app/panels/compare.h"

#include "app/widgets/widgets.h"

namespace samara::app {

void ComparePanel::draw(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Compare models", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const std::string current = s.ghostModel.empty() ? "off" : s.ghostModel;
  if (ImGui::BeginCombo("ghost", current.c_str())) {
    if (ImGui::Selectable("off", s.ghostModel.empty()) && !s.ghostModel.empty()) {
      ctx.post(runtime::SetGhost{std::nullopt});
    }
    for (const std::string& name : runtime::ghostNames()) {
      if (ImGui::Selectable(name.c_str(), name == s.ghostModel) && name != s.ghostModel) {
        ctx.post(runtime::SetGhost{name});
      }
    }
    ImGui::EndCombo();
  }
  // One click for the two contrasts a lecture needs.
  if (ImGui::SmallButton("contrast: vacuum")) ctx.post(runtime::SetGhost{"vacuum"});
  sameLineIfFits(buttonWidth("contrast: no added mass"));
  if (ImGui::SmallButton("contrast: no added mass")) {
    ctx.post(runtime::SetGhost{std::string(runtime::kNoAddedMassGhost)});
  }
  sameLineIfFits(buttonWidth("contrast: exact added mass"));
  if (ImGui::SmallButton("contrast: exact added mass")) {
    ctx.post(runtime::SetGhost{std::string(runtime::kExactAddedMassGhost)});
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "The same bodies with the potential-flow added mass of their shape instead of the "
        "local estimate (rigid bodies; solved once on the simulation thread and cached)");
  }
  wrappedTooltip(
      "A second copy of the scene with every body's model set to the ghost's, released at "
      "the same time and stepped in lockstep with the same parameters (density, wind, "
      "\u03b4, h). Choosing one restarts from t = 0 with the current parameters.");
  if (s.ghostModel.empty()) {
    ImGui::TextDisabled("no ghost: pick a model to race against");
    return;
  }
  ImGui::TextDisabled("translucent bodies, dashed plot lines");
  if (s.ghostStepIndex != s.stepIndex) {
    ImGui::TextColored(kColorCaution, "ghost at step %lld (main %lld)",
                       static_cast<long long>(s.ghostStepIndex),
                       static_cast<long long>(s.stepIndex));
  }
  ImGui::Checkbox("show ghost", &ctx.render.ghosts);
  sameLineIfFits(checkboxWidth("follow both"));
  ImGui::Checkbox("follow both", &ctx.frameGhost);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("While following (F): keep the selected body and its ghost in view");
  }
}

}  // namespace samara::app
