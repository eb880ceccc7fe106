#pragma once
// The "Bodies" section of the controls: the list (select one), and for the selected body its
// mass, fluid model (choosing one restarts), δ (auto / manual / off, when its model uses δ),
// motion and falling pattern, and its ghost's.
#include "app/context.h"
#include "app/widgets/widgets.h"

namespace samara::app {

class BodyPanel {
 public:
  void draw(ViewerContext& ctx, const runtime::Snapshot& s);

 private:
  /// The body list; the selection goes to ctx.selected.
  static void drawList(ViewerContext& ctx, const runtime::Snapshot& s);
  /// Fluid model and δ of the selected body.
  void drawModel(ViewerContext& ctx, const runtime::Snapshot& s);
  /// Motion and falling pattern of the selected body and its ghost.
  static void drawMotion(const ViewerContext& ctx, const runtime::Snapshot& s);

  EditedValue deltaManual_;
};

}  // namespace samara::app
