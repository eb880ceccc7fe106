#include "app/panels/body.h"

#include <array>

#include "analysis/pattern.h"
#include "app/widgets/ticks.h"
#include "models/registry.h"
#include "runtime/current_scene.h"

namespace samara::app {

void BodyPanel::draw(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Bodies", ImGuiTreeNodeFlags_DefaultOpen)) return;
  drawList(ctx, s);
  if (ctx.selected >= static_cast<int>(s.bodies.size())) return;
  ImGui::Text("mass %.4g kg", s.bodies[static_cast<std::size_t>(ctx.selected)].mass);
  drawModel(ctx, s);
  drawMotion(ctx, s);
}

void BodyPanel::drawList(ViewerContext& ctx, const runtime::Snapshot& s) {
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    ImGui::ColorButton("##c", toImVec4(Renderer::bodyColor(static_cast<int>(i))),
                       ImGuiColorEditFlags_NoTooltip,
                       ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
    ImGui::SameLine();
    if (ImGui::Selectable(s.bodies[i].name.c_str(), ctx.selected == static_cast<int>(i))) {
      ctx.selected = static_cast<int>(i);
    }
    ImGui::PopID();
    if (i >= 30) {
      ImGui::TextDisabled("... %zu more", s.bodies.size() - i - 1);
      break;
    }
  }
}

void BodyPanel::drawModel(ViewerContext& ctx, const runtime::Snapshot& s) {
  const int selected = ctx.selected;
  const auto sel = static_cast<std::size_t>(selected);
  const runtime::BodySnapshot& b = s.bodies[sel];
  // Fluid model: choosing one restarts from t = 0 with this body's model replaced.
  if (ImGui::BeginCombo("model", b.model.c_str())) {
    for (const std::string& name : models::modelNames()) {
      if (ImGui::Selectable(name.c_str(), name == b.model) && name != b.model) {
        runtime::Overrides o = runtime::overridesOf(s);
        o.model[sel] = name;
        ctx.post(runtime::Restart{o});
      }
    }
    ImGui::EndCombo();
  }
  wrappedTooltip(
      "The fluid model of this body (default parameters). Choosing one restarts from t = 0 "
      "with the current parameters: the same bits as samara run ... --set bodies." +
      std::to_string(selected) + ".model=NAME");

  // δ: auto / manual / off; only the GwtF models (samara, gwtf-2024) have it.
  ImGui::BeginGroup();
  ImGui::BeginDisabled(!b.usesDelta);
  const int mode = !b.deltaOverride ? 0 : (*b.deltaOverride == 0.0 ? 2 : 1);
  int newMode = mode;
  ImGui::Text("added mass \u03b4");
  ImGui::SameLine();
  ImGui::RadioButton("auto", &newMode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("manual", &newMode, 1);
  ImGui::SameLine();
  ImGui::RadioButton("off", &newMode, 2);
  if (newMode != mode) {
    if (newMode == 0) ctx.post(runtime::SetDelta{selected, std::nullopt});
    if (newMode == 1) ctx.post(runtime::SetDelta{selected, b.deltaAuto});
    if (newMode == 2) ctx.post(runtime::SetDelta{selected, 0.0});
  }
  if (mode == 1) {
    deltaManual_.sync(b.delta);
    const double dMin = 1e-4, dMax = 1.0;
    if (ImGui::SliderScalar("\u03b4", ImGuiDataType_Double, &deltaManual_.value, &dMin, &dMax,
                            "%.4g m", ImGuiSliderFlags_Logarithmic)) {
      ctx.post(runtime::SetDelta{selected, deltaManual_.value});
    }
    deltaManual_.active = ImGui::IsItemActive();
  }
  ImGui::TextDisabled("\u03b4 in use %.4g m (auto %.4g m)", b.delta, b.deltaAuto);
  ImGui::EndDisabled();
  ImGui::EndGroup();
  if (!b.usesDelta) {
    wrappedTooltip(
        "\u03b4 (the added-mass length) belongs to the GwtF models (samara, gwtf-2024); "
        "the model \"" +
        b.model + "\" does not use it. Choose samara above to edit it.");
  }
}

void BodyPanel::drawMotion(const ViewerContext& ctx, const runtime::Snapshot& s) {
  const auto sel = static_cast<std::size_t>(ctx.selected);
  const core::BodyDiagnostics& d = s.bodies[sel].diagnostics;
  ImGui::Text("COM (%.3f, %.3f, %.3f) m", d.com.x(), d.com.y(), d.com.z());
  // Round-off far below the body's natural scales reads as 0 (as in the plots).
  const runtime::BodySnapshot& b = s.bodies[sel];
  const std::array<double, 5> nat =
      naturalScales(b.mass, b.radius, s.params.gravity.norm(), d.velocity.norm(), d.omega.norm());
  ImGui::Text("fall speed %.4g m/s, spin %.4g rad/s", denoised(d.fallSpeed, 1e-9 * nat[2]),
              denoised(d.spinRate, 1e-9 * nat[3]));
  ImGui::Text("kinetic energy %.4g J", denoised(d.kineticEnergy, 1e-9 * nat[4]));
  auto patternLine = [&](const analysis::PatternResult* r) {
    if (r) {
      ImGui::TextWrapped("pattern: %s (%s)", analysis::patternName(r->pattern), r->reason.c_str());
    } else {
      ImGui::TextDisabled("pattern: no samples yet");
    }
  };
  patternLine(ctx.patterns.result(ctx.selected));

  // Its ghost, if a ghost run is on.
  if (sel < s.ghostBodies.size()) {
    const runtime::BodySnapshot& g = s.ghostBodies[sel];
    ImGui::Spacing();
    ImGui::TextColored(toImVec4(Renderer::ghostColor(ctx.selected)), "ghost (%s)", g.model.c_str());
    ImGui::Text("fall speed %.4g m/s, spin %.4g rad/s", g.diagnostics.fallSpeed,
                g.diagnostics.spinRate);
    ImGui::Text("COM distance to the body %.3g m", (g.diagnostics.com - d.com).norm());
    patternLine(ctx.patterns.result(ctx.selected, true));
  }
}

}  // namespace samara::app
