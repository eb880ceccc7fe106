#pragma once
// The "Fluid and wind" section of the controls: density (with vacuum / air / water
// presets), the water level when there is one, and the wind as speed, direction and
// elevation.
#include "app/context.h"
#include "app/widgets/widgets.h"

namespace samara::app {

class FluidPanel {
 public:
  void draw(ViewerContext& ctx, const runtime::Snapshot& s);

 private:
  /// The sliders follow the applied wind unless one is being dragged.
  void syncWind(const Vec3& applied);

  EditedValue density_;
  float windAzimuth_ = 0.0f, windElevation_ = 0.0f, windSpeed_ = 0.0f;  // deg, deg, m/s
  bool windActive_ = false;
};

}  // namespace samara::app
