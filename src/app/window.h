#pragma once
// The viewer's window: GLFW with an OpenGL 3.3 core context, Dear ImGui on it (fonts and
// style at a UI scale, the high-contrast theme of presentation mode), files dropped on it,
// and full screen for presentation mode.
#include <iosfwd>
#include <string>
#include <vector>

struct GLFWwindow;

namespace samara::app {

struct WindowSettings {
  int width = 1280;      ///< px
  int height = 800;      ///< px
  int msaa = 4;          ///< samples (0 = off; retried without when refused)
  bool vsync = true;     ///< swap interval 1
  bool noMouse = false;  ///< ImGui ignores the pointer (screenshots: no hover tooltips)
  float uiScale = 0.0f;  ///< 0 = the monitor's content scale
};

class Window {
 public:
  Window() = default;
  ~Window();  ///< ImGui, the window and GLFW
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  /// Opens the window and sets up ImGui; false with the reason written to `err`.
  bool open(const WindowSettings& settings, std::ostream& err);
  /// Shuts ImGui, the window and GLFW down (idempotent). Call after releasing GL objects.
  void close();
  GLFWwindow* handle() const { return window_; }

  float uiScale() const { return uiScale_; }
  /// Applies a new UI scale before the next frame (fonts cannot change during one).
  void requestUiScale(float scale) { pendingUiScale_ = scale; }
  /// Applies a requested UI scale; call between frames.
  void applyPendingUiScale();

  bool presenting() const { return present_; }
  /// Presentation mode: full screen on the primary monitor, a larger UI and high contrast;
  /// off restores the window's place, size and UI scale.
  void setPresentation(bool on);

  /// Paths dropped on the window since the last call.
  std::vector<std::string> takeDrops();

 private:
  void applyUiScale(float scale);

  GLFWwindow* window_ = nullptr;
  bool imguiReady_ = false;
  float uiScale_ = 1.0f;
  float pendingUiScale_ = 0.0f;
  bool present_ = false;
  int windowedRect_[4] = {0, 0, 0, 0};  // x, y, w, h before going full screen
  float windowedUiScale_ = 1.0f;
  std::vector<std::string> drops_;
};

}  // namespace samara::app
