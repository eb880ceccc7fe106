#include "app/input.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

namespace samara::app {

const std::vector<KeyBinding>& keyTable() {
  using A = KeyAction;
  static const std::vector<KeyBinding> kKeys = {
      {{GLFW_KEY_SPACE, 0}, false, false, "space", "pause / run", A::kTogglePause},
      {{GLFW_KEY_RIGHT, 0},
       false,
       true,
       "right arrow",
       "single step (hold to repeat); forward while scrubbing",
       A::kStepForward},
      {{GLFW_KEY_LEFT, 0},
       false,
       true,
       "left arrow",
       "step back through the recorded history (scrubbing)",
       A::kStepBack},
      {{GLFW_KEY_F11, 0},
       false,
       false,
       "F11",
       "presentation mode (full screen, large, high contrast)",
       A::kPresentation},
      {{GLFW_KEY_R, 0}, false, false, "R", "reset to the scene's initial state", A::kReset},
      {{GLFW_KEY_F, 0}, false, false, "F", "follow the selected body", A::kFollow},
      {{GLFW_KEY_P, 0}, false, false, "P", "screenshot (samara_screenshot_N.png)", A::kScreenshot},
      {{GLFW_KEY_S, 0},
       true,
       false,
       "Ctrl+S",
       "save scene as (the file named in the Scene panel)",
       A::kSaveScene},
      {{GLFW_KEY_V, 0}, false, false, "V", "reset the view", A::kResetView},
      {{GLFW_KEY_H, GLFW_KEY_F1}, false, false, "H, F1", "this help", A::kHelp},
  };
  return kKeys;
}

std::vector<KeyAction> pressedKeyActions() {
  std::vector<KeyAction> actions;
  const bool ctrl = ImGui::GetIO().KeyCtrl;
  for (const KeyBinding& b : keyTable()) {
    if (b.ctrl && !ctrl) continue;
    for (int key : b.keys) {
      if (key != 0 && ImGui::IsKeyPressed(key, b.repeat)) {
        actions.push_back(b.action);
        break;
      }
    }
  }
  return actions;
}

}  // namespace samara::app
