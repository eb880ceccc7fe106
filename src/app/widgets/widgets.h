#pragma once
// Small ImGui helpers shared by the viewer's panels: the status colours, tooltips, a slider
// value that follows the applied one, printf-style labels.
#include <imgui.h>

#include <glm/glm.hpp>
#include <string>

#include "app/layout.h"

namespace samara::app {

/// Text colours of states and warnings (the same everywhere).
inline const ImVec4 kColorGood(0.5f, 0.9f, 0.5f, 1.0f);       ///< running, done
inline const ImVec4 kColorPaused(1.0f, 0.8f, 0.3f, 1.0f);     ///< paused, in progress, slow
inline const ImVec4 kColorError(1.0f, 0.45f, 0.4f, 1.0f);     ///< messages, failures
inline const ImVec4 kColorCaution(1.0f, 0.75f, 0.25f, 1.0f);  ///< solver trouble, lagging ghost

/// An opaque ImGui colour of a renderer colour (sRGB).
inline ImVec4 toImVec4(const glm::vec3& c) { return ImVec4(c.r, c.g, c.b, 1.0f); }

/// An opaque packed colour.
inline ImU32 rgb(int r, int g, int b) { return IM_COL32(r, g, b, 255); }

/// Window flags of a docked panel: placed by the layout, not moved, resized or collapsed by
/// hand, not saved by ImGui.
inline constexpr ImGuiWindowFlags kDockedFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoSavedSettings;

/// Places the next window at `room` (every frame: the layout follows the window's size).
inline void placeDocked(const Rect& room) {
  ImGui::SetNextWindowPos(ImVec2(room.x, room.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(room.w, room.h), ImGuiCond_Always);
}

/// printf of one number into a label ("%gx", "t = %.4f s").
std::string strf(const char* format, double x);

/// A tooltip of wrapped text (about 30 characters wide) for the last item, when hovered
/// (also when it is disabled).
void wrappedTooltip(const std::string& text);

/// ImGui::SameLine() if an item `width` pixels wide still fits in the window to the right of
/// the last item; else the next item starts a new line (narrow panels, presentation mode's
/// larger font).
void sameLineIfFits(float width);

/// Widths of the common items for sameLineIfFits (the label's text up to any "##").
float buttonWidth(const char* label);    // Button and SmallButton
float checkboxWidth(const char* label);  // Checkbox and RadioButton

/// A double slider that shows the applied value unless it is being dragged.
struct EditedValue {
  double value = 0.0;
  bool active = false;
  void sync(double applied) {
    if (!active) value = applied;
  }
};

}  // namespace samara::app
