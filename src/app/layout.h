#pragma once
// The docked layout: every panel owns a rectangle of the window, and the 3D view is the
// rectangle they leave free (it is never covered). Controls and teaching stack in the left
// column, the lesson text, the falling-pattern box and the plots in the right column, the
// history (timeline) runs under the 3D view. Pure arithmetic in ImGui units (window
// coordinates, y down): the viewer computes it each frame from the window's size, the UI
// scale and which panels are shown, and the renderer draws into `view`.

namespace samara::app {

struct Rect {
  float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  bool empty() const { return w <= 0.0f || h <= 0.0f; }
  float area() const { return empty() ? 0.0f : w * h; }
  bool contains(float px, float py) const {
    return px >= x && px <= right() && py >= y && py <= bottom();
  }
  /// The overlap of two rectangles (empty when they do not overlap).
  Rect intersect(const Rect& o) const;
};

/// What the layout is computed from.
struct LayoutRequest {
  float width = 1280.0f;     ///< display size, ImGui units
  float height = 800.0f;     ///< display size, ImGui units
  float top = 0.0f;          ///< top of the work area (below the menu bar)
  float uiScale = 1.0f;      ///< the window's UI scale
  float lineHeight = 27.0f;  ///< a widget row with its spacing (ImGui frame height + spacing)
  bool presenting = false;   ///< presentation mode: compact history, narrower columns
  // Panels shown.
  bool controls = true;
  bool teaching = true;
  bool plots = true;
  bool history = true;
  bool lesson = false;
  bool patterns = true;
  // Heights the panels want (their content), ImGui units; each is capped by the layout.
  float teachingHeight = 0.0f;
  float lessonHeight = 0.0f;
  float patternsHeight = 0.0f;
};

/// Panel rectangles (empty when not shown) and the free 3D view.
struct Layout {
  Rect controls, teaching, lesson, patterns, plots, history;
  Rect view;  ///< the 3D view: nothing drawn over it but the teaching overlays

  /// The shown panels' rectangles, for checks that nothing covers the view.
  int panels(Rect out[6]) const;
};

/// Width of the left column (controls, teaching) and of the right column (lesson, pattern,
/// plots) for a display `width` wide at `uiScale`: 320 and 400 units at scale 1, at least
/// 240 and 260, at most 26 % and 30 % of the width (presentation: 24 % and 30 %).
float leftColumnWidth(float width, float uiScale, bool presenting);
float rightColumnWidth(float width, float uiScale, bool presenting);
/// Height of the history strip: title + two rows (presentation: one row).
float historyHeight(float lineHeight, bool presenting);

Layout computeLayout(const LayoutRequest& r);

}  // namespace samara::app
