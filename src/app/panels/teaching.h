#pragma once
// Teaching overlays (issue 8): force arrows at the centre of mass (lift/drag, gravity,
// buoyancy, contact) with a length scale and a legend, optional per-face lift/drag arrows,
// the added-mass glyphs (translational and rotational, beside the body's own mass and
// inertia at the same scale), velocity and momentum vectors, and the "Teaching" panel with
// their checkboxes and the added-mass table. Drawn over the 3D view in screen space (ImGui's
// background draw list: thick lines that stay visible to an audience, never hidden by the
// body). The data comes from BodySnapshot::teaching, which the runner fills only while
// request() asks for it. The geometry of the glyphs is app/glyph.h (GL-free, tested).
#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/layout.h"
#include "runtime/commands.h"
#include "runtime/snapshot.h"

namespace samara::app {

class TeachingOverlay {
 public:
  /// The overlay names of `samara view --overlay` and ViewerOptions::overlays.
  static const std::vector<std::string>& names();
  /// Switches the named overlay on; false for an unknown name.
  bool enable(const std::string& name);
  /// Exactly the named overlays on (a lesson's "view"/"overlays").
  void setOnly(const std::vector<std::string>& names);
  /// The SetTeaching command to post when what the overlays need changed since the last
  /// call (nullopt otherwise).
  std::optional<runtime::SetTeaching> request();
  /// The "Teaching" panel (checkboxes, scales, legend, added-mass table) for body
  /// `selected`, in `room` (the bottom of the left column; it scrolls when its tables need
  /// more).
  void drawPanel(const runtime::Snapshot& s, int selected, const Rect& room);
  /// The height the panel's content took when last drawn (what it would like to have).
  float wantedHeight() const { return wantedHeight_; }
  /// The overlays over the 3D view: `viewProj` the camera's, `view` its view matrix, `viewport`
  /// the 3D view's rectangle in ImGui units (NDC maps onto it).
  void drawOverlay(const runtime::Snapshot& s, const glm::mat4& viewProj, const glm::mat4& view,
                   const Rect& viewport, float uiScale);

 private:
  /// Any overlay over the 3D view on (the table is in the panel).
  bool anyOverlay() const;
  void drawForcesSection(const runtime::Snapshot& s, const runtime::BodySnapshot* b,
                         const runtime::BodyTeaching* t);
  void drawVelocitySection(const runtime::BodyTeaching* t);
  void drawAddedMassSection(const runtime::Snapshot& s, const runtime::BodySnapshot& b,
                            const runtime::BodyTeaching* t);

  bool forces_ = false;           // resultant force arrows at the COM
  bool faceForces_ = false;       // per-face lift/drag arrows
  bool addedMass_ = false;        // glyphs
  bool velocity_ = false;         // velocity and momentum vectors
  bool table_ = false;            // the added-mass table
  int maxFaces_ = 150;            // per-face arrows shown (largest |f| first)
  bool autoScale_ = true;         // force scale: the largest resultant spans 1.5 body radii
  float newtonsPerMeter_ = 1.0f;  // force scale, N per m of arrow (when not auto)
  std::optional<runtime::SetTeaching> sent_;
  float wantedHeight_ = 0.0f;
};

}  // namespace samara::app
