#pragma once
// The viewer's keyboard: one table of keys and what they do, read by the input handling and
// printed by the Help window.
#include <array>
#include <vector>

namespace samara::app {

enum class KeyAction {
  kTogglePause,
  kStepForward,
  kStepBack,
  kPresentation,
  kReset,
  kFollow,
  kScreenshot,
  kSaveScene,
  kResetView,
  kHelp,
};

struct KeyBinding {
  std::array<int, 2> keys;  ///< GLFW key codes (0 = unused)
  bool ctrl = false;        ///< only with Ctrl held
  bool repeat = false;      ///< repeats while held
  const char* name;         ///< as Help shows it
  const char* description;  ///< as Help shows it
  KeyAction action;
};

/// Every key binding, in the order Help lists them.
const std::vector<KeyBinding>& keyTable();

/// The actions whose keys were pressed this frame (ImGui's key state; call between
/// NewFrame and Render, only when ImGui does not want the keyboard).
std::vector<KeyAction> pressedKeyActions();

}  // namespace samara::app
