#include "app/panels/fluid.h"

#include <algorithm>
#include <cmath>

namespace samara::app {

namespace {

/// The wind vector of a speed (m/s), a direction in the horizontal plane (0° = +x, 90° = +z)
/// and an elevation (deg).
Vec3 windVector(float speed, float azimuthDeg, float elevationDeg) {
  const double az = azimuthDeg * M_PI / 180.0, el = elevationDeg * M_PI / 180.0;
  return static_cast<double>(speed) *
         Vec3(std::cos(el) * std::cos(az), std::sin(el), std::cos(el) * std::sin(az));
}

}  // namespace

void FluidPanel::syncWind(const Vec3& w) {
  if (windActive_) return;
  const Vec3 mine = windVector(windSpeed_, windAzimuth_, windElevation_);
  if ((mine - w).norm() <= 1e-6 * (1.0 + w.norm())) return;
  windSpeed_ = static_cast<float>(w.norm());
  if (w.norm() > 0.0) {
    windElevation_ =
        static_cast<float>(std::asin(std::clamp(w.y() / w.norm(), -1.0, 1.0)) * 180 / M_PI);
    windAzimuth_ = static_cast<float>(std::atan2(w.z(), w.x()) * 180 / M_PI);
    if (windAzimuth_ < 0.0f) windAzimuth_ += 360.0f;
  }
}

void FluidPanel::draw(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Fluid and wind", ImGuiTreeNodeFlags_DefaultOpen)) return;
  density_.sync(s.params.fluidDensity);
  const double rhoMin = 0.0, rhoMax = 2000.0;
  if (ImGui::SliderScalar("density", ImGuiDataType_Double, &density_.value, &rhoMin, &rhoMax,
                          "%.4g kg/m\u00b3", ImGuiSliderFlags_Logarithmic)) {
    ctx.post(runtime::SetFluidDensity{density_.value});
  }
  density_.active = ImGui::IsItemActive();
  struct Preset {
    const char* name;
    double rho;
  };
  for (const Preset& p : {Preset{"vacuum", 0.0}, Preset{"air", 1.225}, Preset{"water", 998.0}}) {
    if (p.rho != 0.0) sameLineIfFits(buttonWidth(p.name));
    if (ImGui::SmallButton(p.name)) ctx.post(runtime::SetFluidDensity{p.rho});
  }
  if (s.params.water) {
    ImGui::TextDisabled("water below y = %.3g m (%.4g kg/m\u00b3)", s.params.water->level,
                        s.params.water->density);
  }
  syncWind(s.params.wind);
  bool changed = ImGui::SliderFloat("wind speed", &windSpeed_, 0.0f, 30.0f, "%.2f m/s");
  bool active = ImGui::IsItemActive();
  changed |= ImGui::SliderFloat("direction", &windAzimuth_, 0.0f, 360.0f, "%.0f\u00b0");
  active |= ImGui::IsItemActive();
  changed |= ImGui::SliderFloat("elevation", &windElevation_, -90.0f, 90.0f, "%.0f\u00b0");
  active |= ImGui::IsItemActive();
  windActive_ = active;
  if (changed) ctx.post(runtime::SetWind{windVector(windSpeed_, windAzimuth_, windElevation_)});
  ImGui::TextDisabled("wind (%.3g, %.3g, %.3g) m/s", s.params.wind.x(), s.params.wind.y(),
                      s.params.wind.z());
}

}  // namespace samara::app
