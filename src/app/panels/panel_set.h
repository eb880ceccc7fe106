#pragma once
// Which panels are shown: one set for the window and one for presentation mode (F11), each
// chosen in the View menu. The docked layout (app/layout.h) gives the room of a hidden
// panel to the 3D view. The sets are remembered between runs (the viewer saves them in the
// user's configuration directory), "reset layout" restores the defaults.
#include <array>
#include <string>

#include "app/context.h"

namespace samara::app {

class PanelSet {
 public:
  enum Panel { kControls, kTeaching, kPlots, kHistory, kLesson, kPatterns, kCount };

  /// Whether `p` is shown in the current mode (windowed or presenting).
  bool shown(const ViewerContext& ctx, Panel p) const;
  /// The View menu's items (inside an open "View" menu): presentation mode and the panels
  /// of the current mode, and "reset layout".
  void drawMenu(ViewerContext& ctx);
  /// A lesson's presentation panels ("controls", "teaching", "plots", "history", "lesson",
  /// "pattern"): the presenting set for this lesson (not saved); empty: the user's set.
  void presentOnly(const std::vector<std::string>& names);
  /// The defaults: everything windowed; plots, history, lesson and pattern presenting.
  void reset();
  /// "windowed=111111\npresent=001111\n" (one digit per Panel), and back. `load` ignores
  /// anything it does not understand (returns false) and keeps the current sets then.
  std::string save() const;
  bool load(const std::string& text);
  /// Reads the sets saved at `path` (nothing happens if it is missing or not understood).
  void loadFile(const std::string& path);
  /// Writes them there; false if that failed (or `path` is empty).
  bool saveFile(const std::string& path) const;
  /// True once after a change made in the menu (the viewer saves the sets then).
  bool takeChanged();

 private:
  using Flags = std::array<bool, kCount>;
  static constexpr Flags kWindowed{true, true, true, true, true, true};
  static constexpr Flags kPresent{false, false, true, true, true, true};
  Flags windowed_ = kWindowed;
  Flags present_ = kPresent;
  Flags saved_ = kPresent;  // the user's presenting set while a lesson's is in use
  bool lessonSet_ = false;
  bool changed_ = false;
};

}  // namespace samara::app
