#include "app/window.h"

#include <epoxy/gl.h>
// GLFW after the GL loader.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>

namespace samara::app {

namespace {

void dropCallback(GLFWwindow* window, int count, const char** paths) {
  auto* drops = static_cast<std::vector<std::string>*>(glfwGetWindowUserPointer(window));
  if (!drops) return;
  for (int i = 0; i < count; ++i) drops->emplace_back(paths[i]);
}

void glfwErrorCallback(int code, const char* description) {
  std::fprintf(stderr, "samara: GLFW error %d: %s\n", code, description);
}

/// DejaVu Sans (Latin-1, Greek, punctuation, arrows, maths) at `pixels`, else ImGui's own
/// font at `fallbackPixels`.
void loadFont(float pixels, float fallbackPixels) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const char* fontPaths[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                             "/usr/share/fonts/TTF/DejaVuSans.ttf"};
  ImFont* font = nullptr;
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F,
                                   0x2190, 0x21FF, 0x2200, 0x22FF, 0};
  for (const char* p : fontPaths) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) {
      font = io.Fonts->AddFontFromFileTTF(p, pixels, nullptr, ranges);
      if (font) break;
    }
  }
  if (!font) {
    ImFontConfig cfg;
    cfg.SizePixels = fallbackPixels;
    io.Fonts->AddFontDefault(&cfg);
  }
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

/// High contrast for projectors: opaque black panels, white text and borders, saturated
/// accents.
void highContrast(ImGuiStyle* style) {
  ImVec4* c = style->Colors;
  c[ImGuiCol_Text] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
  c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1.0f);
  c[ImGuiCol_WindowBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.97f);
  c[ImGuiCol_PopupBg] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
  c[ImGuiCol_Border] = ImVec4(1.0f, 1.0f, 1.0f, 0.9f);
  c[ImGuiCol_FrameBg] = ImVec4(0.12f, 0.12f, 0.12f, 1.0f);
  c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = ImVec4(0.0f, 0.2f, 0.6f, 1.0f);
  c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = ImVec4(1.0f, 0.85f, 0.0f, 1.0f);
  c[ImGuiCol_Button] = ImVec4(0.0f, 0.3f, 0.8f, 1.0f);
  style->WindowBorderSize = 2.0f;
  style->FrameBorderSize = 1.0f;
}

}  // namespace

Window::~Window() { close(); }

bool Window::open(const WindowSettings& settings, std::ostream& err) {
  glfwSetErrorCallback(glfwErrorCallback);
  if (!glfwInit()) {
    err << "samara: cannot initialise GLFW (no display? try xvfb-run)\n";
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, settings.msaa);
  const std::string title = "samara";
  window_ = glfwCreateWindow(settings.width, settings.height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwWindowHint(GLFW_SAMPLES, 0);
    window_ = glfwCreateWindow(settings.width, settings.height, title.c_str(), nullptr, nullptr);
  }
  if (!window_) {
    err << "samara: cannot open an OpenGL 3.3 core window\n";
    return false;
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(settings.vsync ? 1 : 0);
  glfwSetWindowUserPointer(window_, &drops_);
  glfwSetDropCallback(window_, dropCallback);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in the working directory
  if (settings.noMouse) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imguiReady_ = true;
  float scale = settings.uiScale;
  if (scale <= 0.0f) {
    float sx = 1.0f, sy = 1.0f;
    glfwGetWindowContentScale(window_, &sx, &sy);
    scale = std::clamp(std::max(sx, sy), 1.0f, 3.0f);
  }
  applyUiScale(scale);
  return true;
}

void Window::close() {
  if (imguiReady_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    imguiReady_ = false;
  }
  if (window_) {
    glfwDestroyWindow(window_);
    window_ = nullptr;
  }
  glfwTerminate();
}

void Window::applyPendingUiScale() {
  if (pendingUiScale_ <= 0.0f) return;
  applyUiScale(pendingUiScale_);
  pendingUiScale_ = 0.0f;
}

void Window::applyUiScale(float scale) {
  uiScale_ = std::clamp(scale, 0.5f, 4.0f);
  loadFont(std::round(15.0f * uiScale_), std::round(13.0f * uiScale_));
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 6.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 0.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.88f;
  if (present_) highContrast(&style);
  style.ScaleAllSizes(uiScale_);
  ImGui::GetStyle() = style;
}

void Window::setPresentation(bool on) {
  if (on == present_ || !window_) return;
  present_ = on;
  if (on) {
    glfwGetWindowPos(window_, &windowedRect_[0], &windowedRect_[1]);
    glfwGetWindowSize(window_, &windowedRect_[2], &windowedRect_[3]);
    windowedUiScale_ = uiScale_;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
      if (const GLFWvidmode* mode = glfwGetVideoMode(monitor)) {
        glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
      }
    }
    // Larger text, plots included: 1.75 on a 1080-line screen, in proportion on smaller
    // ones (1.3 on a 1280 × 800 projector), and at least 1.5 × the windowed scale.
    float lines = 1080.0f;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
      if (const GLFWvidmode* mode = glfwGetVideoMode(monitor)) {
        lines = static_cast<float>(mode->height);
      }
    }
    pendingUiScale_ = std::max(1.5f * uiScale_, std::clamp(1.75f * lines / 1080.0f, 1.3f, 2.5f));
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowedRect_[0], windowedRect_[1],
                         std::max(windowedRect_[2], 64), std::max(windowedRect_[3], 64),
                         GLFW_DONT_CARE);
    pendingUiScale_ = windowedUiScale_;
  }
}

std::vector<std::string> Window::takeDrops() {
  std::vector<std::string> drops;
  drops.swap(drops_);
  return drops;
}

}  // namespace samara::app
