#include "app/viewer.h"

#include <epoxy/gl.h>
// GLFW after the GL loader.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/camera.h"
#include "app/glm_eigen.h"
#include "app/offscreen.h"
#include "app/plot.h"
#include "app/renderer.h"
#include "app/screenshot.h"
#include "app/shader.h"
#include "app/teaching.h"
#include "app/video.h"
#include "io/error.h"
#include "io/export.h"
#include "io/scene.h"
#include "io/text_format.h"
#include "analysis/pattern.h"
#include "models/registry.h"
#include "runtime/current_scene.h"
#include "runtime/export_job.h"
#include "runtime/fall_patterns.h"
#include "runtime/runner.h"
#include "runtime/scene_source.h"
#include "runtime/time_series.h"

namespace samara::app {

namespace fs = std::filesystem;
using runtime::RunStatus;

std::string findAssetsDir() {
  std::vector<fs::path> candidates;
  const std::string exe = executableDir();
  if (!exe.empty()) {
    fs::path d(exe);
    for (int up = 0; up < 6 && !d.empty(); ++up) {
      candidates.push_back(d / "assets");
      candidates.push_back(d / "share" / "samara" / "assets");
      if (d == d.parent_path()) break;
      d = d.parent_path();
    }
  }
  std::error_code ec;
  candidates.push_back(fs::current_path(ec) / "assets");
#if defined(SAMARA_SOURCE_DIR)
  candidates.push_back(fs::path(SAMARA_SOURCE_DIR) / "assets");
#endif
  for (const fs::path& c : candidates) {
    if (fs::is_directory(c / "scenes", ec)) return c.string();
  }
  return "";
}

std::string findDefaultScene() {
  const std::string assets = findAssetsDir();
  if (assets.empty()) return "";
  const fs::path p = fs::path(assets) / "scenes" / "maple_seed.json";
  std::error_code ec;
  return fs::is_regular_file(p, ec) ? p.string() : "";
}

namespace {

constexpr double kFrameSeconds = 1.0 / 60.0;
/// Wall seconds between two evaluations of the falling-pattern classifiers (interactive).
constexpr double kPatternRefreshSeconds = 0.25;

ImU32 rgb(int r, int g, int b) { return IM_COL32(r, g, b, 255); }

std::string strf(const char* format, double x) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

/// The export formats in the order of the Export panel's combo box.
constexpr io::ExportFormat kExportFormats[] = {io::ExportFormat::kGlb, io::ExportFormat::kObj,
                                               io::ExportFormat::kCsv, io::ExportFormat::kChan,
                                               io::ExportFormat::kPc2};

/// A tooltip of wrapped text (about 30 characters wide) for the last item, when hovered
/// (also when it is disabled).
void wrappedTooltip(const std::string& text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

/// A double slider that shows the applied value unless it is being dragged.
struct EditedValue {
  double value = 0.0;
  bool active = false;
  void sync(double applied) {
    if (!active) value = applied;
  }
};

/// Everything the UI thread owns.
class Viewer {
 public:
  Viewer(const ViewerOptions& o, std::ostream& out, std::ostream& err)
      : options_(o), out_(out), err_(err) {}
  ~Viewer() { shutdown(); }
  int run();

 private:
  bool initWindow();
  void applyUiScale(float scale);
  void shutdown();
  void frame();
  void onNewRun(const runtime::Snapshot& s);
  void updateTrails(const runtime::Snapshot& s);
  void handleInput(const runtime::Snapshot& s);
  void handleDrops();
  void checkReload();
  void drawControls(const runtime::Snapshot& s);
  void drawPlots(const runtime::Snapshot& s);
  void drawBodyPanel(const runtime::Snapshot& s);
  void drawComparePanel(const runtime::Snapshot& s);
  void drawPatternOverlay(const runtime::Snapshot& s);
  void drawSaveAs(const runtime::Snapshot& s);
  void drawExportPanel(const runtime::Snapshot& s);
  void drawHelp();
  void drawHistoryPanel(const runtime::Snapshot& s);
  // Lessons (assets/lessons) and presentation mode.
  void refreshLessons();
  void drawLessonsMenu();
  void drawLessonPanel(const runtime::Snapshot& s);
  void setPresentation(bool on);
  void drawPresentationPanel();
  /// The teaching panel and overlays (TeachingOverlay), before ImGui::Render.
  void drawTeaching(const runtime::Snapshot& s);
  void notice(const std::string& text, double seconds = 4.0) {
    notice_ = text;
    noticeUntil_ = glfwGetTime() + seconds;
  }
  void loadPath(const std::string& path);
  runtime::Overrides currentOverrides(const runtime::Snapshot& s) const;
  /// The scene Restart would run now: what Save scene as writes and Export runs.
  runtime::CurrentScene currentScene(const runtime::Snapshot& s) const;
  void restartWithCurrent(const runtime::Snapshot& s);
  std::string commandLine(const runtime::Snapshot& s) const;
  void saveScene(const runtime::Snapshot& s);
  void startExport(const runtime::Snapshot& s);
  /// The picture of this frame: the 3D view offscreen at the picture size, or the window as
  /// shown (call before swapping). Returns "" or why not.
  std::string capture(std::vector<unsigned char>* rgb, int* width, int* height);
  void refreshSceneList();

  ViewerOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  GLFWwindow* window_ = nullptr;
  bool imguiReady_ = false;
  std::unique_ptr<Renderer> renderer_;
  std::shared_ptr<runtime::ManualClock> manualClock_;
  std::unique_ptr<runtime::Runner> runner_;
  runtime::PlotHistory history_;
  runtime::FallPatterns patterns_;
  double lastPatternRefresh_ = -1e300;
  std::vector<runtime::PlotSample> samples_;
  std::vector<PlotWidget> plots_;
  PlotView plotView_;
  OrbitCamera camera_;
  TeachingOverlay teaching_;
  RenderSettings render_;
  std::uint64_t lastGeneration_ = 0;
  bool follow_ = true;
  bool frameGhost_ = true;  // following: keep the selected body and its ghost in view
  int selected_ = 0;
  float uiScale_ = 1.0f;
  float pendingUiScale_ = 0.0f;
  struct LessonEntry {
    std::string path;
    std::string title;
  };
  std::vector<LessonEntry> lessons_;
  bool showLesson_ = true;
  // Presentation mode: full screen, larger UI, high contrast, only the chosen panels.
  bool present_ = false;
  struct PresentPanels {
    bool controls = false, plots = true, history = true, lesson = true, patterns = true;
  } presentPanels_;
  int windowedRect_[4] = {0, 0, 0, 0};  // x, y, w, h before going full screen
  float windowedUiScale_ = 1.0f;
  bool showHelp_ = false;
  bool autoReload_ = true;
  double trailSeconds_ = 10.0;
  std::vector<Trail> trails_;
  std::vector<Trail> ghostTrails_;
  std::string notice_;
  double noticeUntil_ = 0.0;
  bool screenshotRequested_ = false;
  int screenshotCount_ = 0;
  int shotSize_[2] = {0, 0};  // picture size, px; 0 = the window
  OffscreenTarget offscreen_;
  VideoWriter video_;
  // Save scene as and Export.
  char savePath_[1024] = {};
  std::unique_ptr<runtime::ExportJob> exportJob_;
  int exportFormat_ = 0;  // index into kExportFormats
  char exportPath_[1024] = {};
  double exportFps_ = 30.0;
  double exportDuration_ = 10.0;  // s
  std::vector<std::string> drops_;
  std::vector<std::string> scenes_;
  std::string assetsDir_;
  char openPath_[1024] = {};
  std::string currentPath_;
  std::string framedPath_;  // scene the camera was last framed for
  std::optional<fs::file_time_type> sceneTime_;
  double lastReloadCheck_ = 0.0;
  float freeLeft_ = 0.0f, freeRight_ = 0.0f;  // the part of the window the panels leave free
  // Edited parameters.
  EditedValue density_, dt_, speed_, deltaManual_;
  float windAzimuth_ = 0.0f, windElevation_ = 0.0f, windSpeed_ = 0.0f;
  bool windActive_ = false;
  // Statistics.
  long long frames_ = 0;
  double firstFrameWall_ = 0.0, lastFrameWall_ = 0.0, renderSeconds_ = 0.0;
  std::int64_t stepsAtFirstFrame_ = 0;
};

void dropCallback(GLFWwindow* window, int count, const char** paths) {
  auto* drops = static_cast<std::vector<std::string>*>(glfwGetWindowUserPointer(window));
  if (!drops) return;
  for (int i = 0; i < count; ++i) drops->emplace_back(paths[i]);
}

void glfwErrorCallback(int code, const char* description) {
  std::fprintf(stderr, "samara: GLFW error %d: %s\n", code, description);
}

bool Viewer::initWindow() {
  glfwSetErrorCallback(glfwErrorCallback);
  if (!glfwInit()) {
    err_ << "samara: cannot initialise GLFW (no display? try xvfb-run)\n";
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, options_.msaa);
  const std::string title = "samara";
  window_ = glfwCreateWindow(options_.width, options_.height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwWindowHint(GLFW_SAMPLES, 0);
    window_ = glfwCreateWindow(options_.width, options_.height, title.c_str(), nullptr, nullptr);
  }
  if (!window_) {
    err_ << "samara: cannot open an OpenGL 3.3 core window\n";
    return false;
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(options_.frames > 0 ? 0 : 1);
  glfwSetWindowUserPointer(window_, &drops_);
  glfwSetDropCallback(window_, dropCallback);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in the working directory
  // A fixed number of frames (screenshots, tests): the pointer is wherever the X server put
  // it, so ignore it (no hover tooltips in the picture).
  if (options_.frames > 0) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imguiReady_ = true;
  float scale = options_.uiScale;
  if (scale <= 0.0f) {
    float sx = 1.0f, sy = 1.0f;
    glfwGetWindowContentScale(window_, &sx, &sy);
    scale = std::clamp(std::max(sx, sy), 1.0f, 3.0f);
  }
  applyUiScale(scale);
  return true;
}

void Viewer::applyUiScale(float scale) {
  uiScale_ = std::clamp(scale, 0.5f, 4.0f);
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const char* fontPaths[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                             "/usr/share/fonts/TTF/DejaVuSans.ttf"};
  ImFont* font = nullptr;
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F,
                                   0x2190, 0x21FF, 0x2200, 0x22FF, 0};
  for (const char* p : fontPaths) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      font = io.Fonts->AddFontFromFileTTF(p, std::round(15.0f * uiScale_), nullptr, ranges);
      if (font) break;
    }
  }
  if (!font) {
    ImFontConfig cfg;
    cfg.SizePixels = std::round(13.0f * uiScale_);
    io.Fonts->AddFontDefault(&cfg);
  }
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 6.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 0.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.88f;
  if (present_) {
    // High contrast for projectors: opaque black panels, white text and borders, saturated
    // accents.
    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1.0f);
    c[ImGuiCol_WindowBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.97f);
    c[ImGuiCol_PopupBg] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
    c[ImGuiCol_Border] = ImVec4(1.0f, 1.0f, 1.0f, 0.9f);
    c[ImGuiCol_FrameBg] = ImVec4(0.12f, 0.12f, 0.12f, 1.0f);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = ImVec4(0.0f, 0.2f, 0.6f, 1.0f);
    c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = ImVec4(1.0f, 0.85f, 0.0f, 1.0f);
    c[ImGuiCol_Button] = ImVec4(0.0f, 0.3f, 0.8f, 1.0f);
    style.WindowBorderSize = 2.0f;
    style.FrameBorderSize = 1.0f;
  }
  style.ScaleAllSizes(uiScale_);
  ImGui::GetStyle() = style;
}

void Viewer::shutdown() {
  if (runner_) runner_->stop();
  exportJob_.reset();  // cancels a running export: nothing half-written
  renderer_.reset();
  if (window_) offscreen_.release();  // its GL objects, while the context exists
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

void Viewer::refreshSceneList() {
  scenes_.clear();
  if (assetsDir_.empty()) return;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(assetsDir_) / "scenes", ec)) {
    if (e.path().extension() == ".json") scenes_.push_back(e.path().string());
  }
  std::sort(scenes_.begin(), scenes_.end());
}

void Viewer::loadPath(const std::string& path) {
  runner_->post(runtime::LoadScene{path, {}});
  currentPath_ = path;
  std::error_code ec;
  sceneTime_.reset();
  if (runtime::fileKind(path) == runtime::FileKind::kScene) {
    const auto t = fs::last_write_time(path, ec);
    if (!ec) sceneTime_ = t;
  }
  std::snprintf(openPath_, sizeof openPath_, "%s", path.c_str());
}

int Viewer::run() {
  // A video needs ffmpeg: say so before anything is loaded or rendered.
  if (!options_.videoPath.empty() && !onPath("ffmpeg")) {
    err_ << "samara: " << kFfmpegMissing << "\n";
    return 1;
  }
  shotSize_[0] = std::max(0, options_.shotWidth);
  shotSize_[1] = std::max(0, options_.shotHeight);
  std::string scene = options_.scenePath.empty() ? findDefaultScene() : options_.scenePath;
  if (scene.empty()) {
    err_ << "samara: no scene given and the default scene (assets/scenes/maple_seed.json) "
            "was not found\n";
    return 1;
  }
  if (options_.ghostModel && !runtime::isGhostName(*options_.ghostModel)) {
    std::string known;
    for (const std::string& m : runtime::ghostNames()) known += (known.empty() ? "" : ", ") + m;
    err_ << "samara: unknown ghost model \"" << *options_.ghostModel << "\" (known: " << known
         << ")\n";
    return 1;
  }
  for (const std::string& name : options_.overlays) {
    if (!teaching_.enable(name)) {
      std::string known;
      for (const std::string& n : TeachingOverlay::names()) {
        known += (known.empty() ? "" : ", ") + n;
      }
      err_ << "samara: unknown overlay \"" << name << "\" (known: " << known << ")\n";
      return 1;
    }
  }
  const bool lockstep = options_.frames > 0 && !options_.realTime;
  runtime::RunnerOptions ro;
  if (lockstep) {
    manualClock_ = std::make_shared<runtime::ManualClock>();
    ro.clock = manualClock_;
  }
  runner_ = std::make_unique<runtime::Runner>(ro);
  // The first scene is loaded synchronously so that a bad file is an error before a window
  // opens.
  runner_->post(runtime::LoadScene{scene, options_.sets});
  if (options_.ghostModel) runner_->post(runtime::SetGhost{options_.ghostModel});
  runner_->tick();
  runner_->updateSnapshot();
  if (runner_->snapshot().status == RunStatus::kEmpty) {
    err_ << "samara: " << runner_->snapshot().message << "\n";
    return 1;
  }
  currentPath_ = scene;
  std::snprintf(openPath_, sizeof openPath_, "%s", scene.c_str());
  if (runtime::fileKind(scene) == runtime::FileKind::kScene) {
    std::error_code ec;
    const auto t = fs::last_write_time(scene, ec);
    if (!ec) sceneTime_ = t;
  }
  if (!initWindow()) return 1;
  std::string searched;
  const std::string shaderDir = findShaderDir(&searched);
  if (shaderDir.empty()) {
    err_ << "samara: cannot find the shaders (mesh.vert) in: " << searched << "\n";
    return 1;
  }
  try {
    renderer_ = std::make_unique<Renderer>(shaderDir);
  } catch (const ShaderError& e) {
    err_ << "samara: " << e.what() << "\n";
    return 1;
  }
  assetsDir_ = findAssetsDir();
  refreshSceneList();
  refreshLessons();
  if (options_.present) setPresentation(true);

  const ImU32 cx = rgb(235, 90, 80), cy = rgb(110, 200, 90), cz = rgb(90, 150, 245),
              cn = rgb(240, 240, 240);
  plots_.emplace_back("Linear momentum P", "kg\u00b7m/s",
                      std::vector<PlotLine>{{runtime::kPx, "x", cx, true},
                                            {runtime::kPy, "y", cy, true},
                                            {runtime::kPz, "z", cz, true},
                                            {runtime::kPNorm, "|P|", cn, true}});
  plots_.emplace_back("Angular momentum L", "kg\u00b7m\u00b2/s",
                      std::vector<PlotLine>{{runtime::kLx, "x", cx, true},
                                            {runtime::kLy, "y", cy, true},
                                            {runtime::kLz, "z", cz, true},
                                            {runtime::kLNorm, "|L|", cn, true}});
  plots_.emplace_back(
      "Fall speed", "m/s",
      std::vector<PlotLine>{{runtime::kFallSpeed, "fall", rgb(250, 170, 60), true}});
  plots_.emplace_back(
      "Rotation speed", "rad/s",
      std::vector<PlotLine>{{runtime::kSpinRate, "spin (about up)", rgb(200, 120, 240), true},
                            {runtime::kOmegaNorm, "|\u03c9|", cn, true}});
  plots_.emplace_back(
      "Kinetic energy", "J",
      std::vector<PlotLine>{{runtime::kKineticEnergy, "total", cn, true},
                            {runtime::kKineticEnergyBody, "body", rgb(250, 170, 60), true},
                            {runtime::kKineticEnergyFluid, "fluid", rgb(90, 170, 245), true}});

  if (!options_.videoPath.empty()) {
    int w = shotSize_[0], h = shotSize_[1];
    if (w <= 0 || h <= 0) glfwGetFramebufferSize(window_, &w, &h);
    const std::string why = video_.open(options_.videoPath, w, h, 1.0 / kFrameSeconds);
    if (!why.empty()) {
      err_ << "samara: " << options_.videoPath << ": " << why << "\n";
      return 1;
    }
  }

  if (!lockstep) runner_->start();
  const auto wallStart = std::chrono::steady_clock::now();
  auto wallNow = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  };
  int exitCode = 0;
  while (!glfwWindowShouldClose(window_)) {
    const double t0 = wallNow();
    if (frames_ == 1) {
      firstFrameWall_ = t0;
      stepsAtFirstFrame_ = runner_->snapshot().stepIndex;
    }
    glfwPollEvents();
    if (pendingUiScale_ > 0.0f) {
      applyUiScale(pendingUiScale_);
      pendingUiScale_ = 0.0f;
    }
    if (lockstep) {
      manualClock_->advance(kFrameSeconds);
      runner_->tick();
    }
    frame();
    const bool last = options_.frames > 0 && frames_ + 1 >= options_.frames;
    // This frame's picture, taken once for whichever of screenshot and video wants it.
    std::vector<unsigned char> picture;
    int pw = 0, ph = 0;
    std::string pictureError;
    bool taken = false;
    auto take = [&] {
      if (!taken) pictureError = capture(&picture, &pw, &ph);
      taken = true;
      return pictureError;
    };
    if (screenshotRequested_) {
      screenshotRequested_ = false;
      const std::string name = "samara_screenshot_" + std::to_string(++screenshotCount_) + ".png";
      std::string why = take();
      if (why.empty()) why = writePng(name, picture, pw, ph);
      notice(why.empty()
                 ? "saved " + name + " (" + std::to_string(pw) + "x" + std::to_string(ph) + ")"
                 : name + ": " + why);
    }
    if (last && !options_.screenshotPath.empty()) {
      std::string why = take();
      if (why.empty()) why = writePng(options_.screenshotPath, picture, pw, ph);
      if (!why.empty()) {
        err_ << "samara: " << options_.screenshotPath << ": " << why << "\n";
        exitCode = 1;
      }
    }
    if (video_.isOpen()) {
      std::string why = take();
      if (why.empty() && (pw != video_.width() || ph != video_.height())) {
        why = "the window changed size during the recording (give --shot-size WxH)";
      }
      if (why.empty()) why = video_.write(picture);
      if (!why.empty()) {
        err_ << "samara: " << options_.videoPath << ": " << why << "\n";
        video_.abandon();  // no half-made video
        exitCode = 1;
        break;
      }
    }
    renderSeconds_ += wallNow() - t0;
    glfwSwapBuffers(window_);
    lastFrameWall_ = wallNow();
    ++frames_;
    if (last) break;
  }
  runner_->stop();
  runner_->updateSnapshot();
  if (video_.isOpen()) {
    const std::string why = video_.finish();
    if (!why.empty()) {
      err_ << "samara: " << options_.videoPath << ": " << why << "\n";
      exitCode = 1;
    }
  }
  const runtime::Snapshot& s = runner_->snapshot();
  if (options_.printStats) {
    const double span = lastFrameWall_ - firstFrameWall_;
    const double meanFrameMs = frames_ > 1 ? 1000.0 * span / static_cast<double>(frames_ - 1) : 0.0;
    const double steps = static_cast<double>(s.stepIndex - stepsAtFirstFrame_);
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "samara view: %lld frames, mean frame %.2f ms (%.1f fps), render %.2f ms/frame; "
                  "simulated time %.6g s (%lld steps), %.0f steps/s, real-time factor %.3g%s\n",
                  frames_, meanFrameMs, meanFrameMs > 0 ? 1000.0 / meanFrameMs : 0.0,
                  frames_ > 0 ? 1000.0 * renderSeconds_ / static_cast<double>(frames_) : 0.0,
                  s.time, static_cast<long long>(s.stepIndex), span > 0 ? steps / span : 0.0,
                  span > 0 ? steps * s.params.dt / span : 0.0,
                  lockstep ? " (fixed 1/60 s per frame)" : "");
    out_ << buf;
  }
  if (s.status == RunStatus::kFailed && options_.frames > 0) {
    err_ << "samara: " << s.message << "\n";
  }
  return exitCode;
}

void Viewer::onNewRun(const runtime::Snapshot& s) {
  // A new scene gets a new view; a reset or restart of the same scene keeps the camera.
  const bool sceneChanged = s.scenePath != framedPath_;
  lastGeneration_ = s.generation;
  selected_ = std::clamp(selected_, 0, std::max(0, static_cast<int>(s.bodies.size()) - 1));
  plotView_.tEnd = s.time;
  plotView_.frozen = false;
  trails_.assign(s.bodies.size(), {});
  ghostTrails_.assign(s.ghostBodies.size(), {});
  if (sceneChanged) {
    framedPath_ = s.scenePath;
    float radius = 0.0f;
    for (const auto& b : s.bodies) radius = std::max(radius, static_cast<float>(b.radius));
    const glm::vec3 c = s.bodies.empty()
                            ? glm::vec3(0, 1, 0)
                            : toGlm(s.bodies[static_cast<std::size_t>(selected_)].diagnostics.com);
    camera_.frame(c, std::max(4.0f * radius, 0.03f));
    // File names for Save scene as and Export, in the working directory.
    std::string stem = fs::path(s.scenePath).stem().string();
    if (stem.empty()) stem = "scene";
    const bool json = runtime::fileKind(s.scenePath) == runtime::FileKind::kScene;
    std::snprintf(savePath_, sizeof savePath_, "%s%s.json", stem.c_str(), json ? "_saved" : "");
    std::snprintf(exportPath_, sizeof exportPath_, "%s.%s", stem.c_str(),
                  io::exportFormatName(kExportFormats[exportFormat_]));
    exportDuration_ = s.duration;
  }
  currentPath_ = s.scenePath;
}

void Viewer::updateTrails(const runtime::Snapshot& s) {
  auto build = [&](const runtime::TimeSeries& ts, const runtime::BodySnapshot& b, Trail* tr) {
    tr->clear();
    if (ts.empty()) return;
    // Scrubbing: the trail ends at the recorded step shown.
    const std::size_t end = s.scrubbing ? ts.lowerBound(s.time) : ts.size();
    const double tLast = end > 0 ? ts.time(end - 1) : s.time;
    const std::size_t from = std::min(ts.lowerBound(tLast - trailSeconds_), end);
    const std::size_t n = end - from;
    const std::size_t stride = std::max<std::size_t>(1, n / 2000);
    for (std::size_t k = from; k < end; k += stride) {
      tr->emplace_back(ts.value(k, runtime::kComX), ts.value(k, runtime::kComY),
                       ts.value(k, runtime::kComZ));
    }
    tr->push_back(toGlm(b.diagnostics.com));
  };
  trails_.resize(s.bodies.size());
  for (int i = 0; i < history_.numBodies() && i < static_cast<int>(trails_.size()); ++i) {
    const auto k = static_cast<std::size_t>(i);
    build(history_.body(i), s.bodies[k], &trails_[k]);
  }
  ghostTrails_.resize(s.ghostBodies.size());
  for (int i = 0; i < history_.numGhostBodies() && i < static_cast<int>(ghostTrails_.size()); ++i) {
    const auto k = static_cast<std::size_t>(i);
    build(history_.ghostBody(i), s.ghostBodies[k], &ghostTrails_[k]);
  }
  renderer_->setTrails(trails_, ghostTrails_);
}

void Viewer::handleDrops() {
  if (drops_.empty()) return;
  std::vector<std::string> drops;
  drops.swap(drops_);
  // A scene wins over meshes; otherwise the first file.
  std::string pick = drops.front();
  for (const std::string& d : drops) {
    if (runtime::fileKind(d) == runtime::FileKind::kScene) {
      pick = d;
      break;
    }
  }
  if (drops.size() > 1) notice("several files dropped: opening " + pick);
  loadPath(pick);
}

void Viewer::checkReload() {
  if (!autoReload_ || !sceneTime_) return;
  const double now = glfwGetTime();
  if (now - lastReloadCheck_ < 0.5) return;
  lastReloadCheck_ = now;
  std::error_code ec;
  const auto t = fs::last_write_time(currentPath_, ec);
  if (!ec && t != *sceneTime_) {
    sceneTime_ = t;
    // The loaded scene again (keeping its --set edits), or a file that failed to load before
    // and may be fixed now.
    if (currentPath_ == runner_->snapshot().scenePath) {
      runner_->post(runtime::Reload{});
    } else {
      runner_->post(runtime::LoadScene{currentPath_, {}});
    }
    notice("reloaded " + fs::path(currentPath_).filename().string());
  }
}

void Viewer::handleInput(const runtime::Snapshot& s) {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) runner_->post(runtime::TogglePause{});
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT, true)) {
      // Scrubbing: forward through the history, then single steps from the live state.
      if (s.scrubbing && s.stepIndex < s.historyLast) {
        runner_->post(runtime::Scrub{s.stepIndex + 1});
      } else {
        runner_->post(runtime::Step{1});
      }
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT, true) && s.historyLast > s.historyFirst) {
      runner_->post(runtime::Scrub{(s.scrubbing ? s.stepIndex : s.historyLast) - 1});
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) runner_->post(runtime::Reset{});
    if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) follow_ = !follow_;
    if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) screenshotRequested_ = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) setPresentation(!present_);
    if (ImGui::IsKeyPressed(GLFW_KEY_H, false) || ImGui::IsKeyPressed(GLFW_KEY_F1, false)) {
      showHelp_ = !showHelp_;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_S, false) && io.KeyCtrl) saveScene(s);
    if (ImGui::IsKeyPressed(GLFW_KEY_V, false)) {
      float radius = 0.0f;
      for (const auto& b : s.bodies) radius = std::max(radius, static_cast<float>(b.radius));
      camera_.frame(renderer_->boundsCenter(), std::max(4.0f * radius, 0.03f));
    }
  }
  if (!io.WantCaptureMouse) {
    int wh = 0, ww = 0;
    glfwGetWindowSize(window_, &ww, &wh);
    const bool panButton = io.MouseDown[1] || io.MouseDown[2] || (io.MouseDown[0] && io.KeyShift);
    if (panButton && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
      camera_.pan(io.MouseDelta.x, io.MouseDelta.y, static_cast<float>(wh));
      follow_ = false;
    } else if (io.MouseDown[0] && !io.KeyShift) {
      camera_.orbit(io.MouseDelta.x, io.MouseDelta.y);
    }
    if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
  }
}

std::string Viewer::commandLine(const runtime::Snapshot& s) const {
  return runtime::runCommandLine(currentScene(s));
}

runtime::Overrides Viewer::currentOverrides(const runtime::Snapshot& s) const {
  runtime::Overrides o;
  o.fluidDensity = s.params.fluidDensity;
  o.wind = s.params.wind;
  o.dt = s.params.dt;
  for (const auto& b : s.bodies) {
    o.delta.emplace_back(b.deltaOverride);
    o.model.emplace_back(b.modelOverride);
  }
  return o;
}

runtime::CurrentScene Viewer::currentScene(const runtime::Snapshot& s) const {
  return runtime::CurrentScene{s.scenePath, s.sceneSets, currentOverrides(s)};
}

void Viewer::restartWithCurrent(const runtime::Snapshot& s) {
  runner_->post(runtime::Restart{currentOverrides(s)});
}

void Viewer::saveScene(const runtime::Snapshot& s) {
  if (!s.sceneFromFile) {
    notice("this scene was built in memory: there is no file to save it from", 8.0);
    return;
  }
  const std::string dest = savePath_;
  if (dest.empty()) {
    notice("Save scene as: give a file name", 8.0);
    return;
  }
  try {
    runtime::saveCurrentScene(currentScene(s), dest);
    notice("saved " + dest + ": samara run " + dest + " repeats this run (from t = 0)", 8.0);
  } catch (const std::exception& e) {
    notice(std::string("not saved: ") + e.what(), 12.0);
  }
}

void Viewer::startExport(const runtime::Snapshot& s) {
  runtime::ExportJobSettings settings;
  settings.format = kExportFormats[exportFormat_];
  settings.out = exportPath_;
  settings.fps = exportFps_;
  settings.duration = exportDuration_;
  exportJob_.reset();  // a finished one (a running one is cancelled and joined)
  exportJob_ = std::make_unique<runtime::ExportJob>(currentScene(s), settings);
}

std::string Viewer::capture(std::vector<unsigned char>* rgb, int* width, int* height) {
  if (shotSize_[0] > 0 && shotSize_[1] > 0) {
    const std::string why = offscreen_.prepare(shotSize_[0], shotSize_[1], options_.msaa);
    if (!why.empty()) return why;
    offscreen_.bind();
    renderer_->draw(camera_, shotSize_[0], shotSize_[1], 0.0f, render_);
    *rgb = offscreen_.read();
    *width = shotSize_[0];
    *height = shotSize_[1];
    return "";
  }
  glfwGetFramebufferSize(window_, width, height);
  *rgb = readPixels(*width, *height);
  return *width > 0 && *height > 0 ? "" : "empty framebuffer";
}

const char* statusText(RunStatus st) {
  switch (st) {
    case RunStatus::kEmpty:
      return "no scene";
    case RunStatus::kRunning:
      return "running";
    case RunStatus::kPaused:
      return "paused";
    case RunStatus::kFailed:
      return "FAILED (paused)";
  }
  return "";
}

void Viewer::drawControls(const runtime::Snapshot& s) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = 330.0f * uiScale_;
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 8.0f, vp->WorkPos.y + 8.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(width, vp->WorkSize.y - 16.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("samara");
  freeLeft_ = ImGui::GetWindowPos().x + ImGui::GetWindowSize().x;

  // Status.
  ImGui::Text("%s", s.sceneName.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(%zu bod%s)", s.bodies.size(), s.bodies.size() == 1 ? "y" : "ies");
  const ImVec4 statusColor = s.status == RunStatus::kFailed   ? ImVec4(1.0f, 0.35f, 0.3f, 1.0f)
                             : s.status == RunStatus::kPaused ? ImVec4(1.0f, 0.8f, 0.3f, 1.0f)
                                                              : ImVec4(0.5f, 0.9f, 0.5f, 1.0f);
  ImGui::TextColored(statusColor, "%s", statusText(s.status));
  ImGui::SameLine();
  ImGui::Text("t = %.3f s  step %lld", s.time, static_cast<long long>(s.stepIndex));
  ImGui::Text("real-time factor %.2f  (%.0f steps/s)", s.realTimeFactor, s.stepsPerSecond);
  if (s.status == RunStatus::kRunning && !s.params.unlimited &&
      s.realTimeFactor < 0.9 * s.params.speed && s.reanchors > 0) {
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f),
                       "slower than requested: the machine can't keep up");
  }
  if (!s.message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", s.message.c_str());
    ImGui::PopStyleColor();
  }
  if (!notice_.empty() && glfwGetTime() < noticeUntil_) ImGui::TextWrapped("%s", notice_.c_str());
  ImGui::Separator();

  // Run controls.
  const bool running = s.status == RunStatus::kRunning;
  if (ImGui::Button(running ? "Pause" : "Run", ImVec2(70.0f * uiScale_, 0))) {
    runner_->post(running ? runtime::Command(runtime::Pause{})
                          : runtime::Command(runtime::Resume{}));
  }
  ImGui::SameLine();
  if (ImGui::Button("Step")) runner_->post(runtime::Step{1});
  ImGui::SameLine();
  if (ImGui::Button("x10")) runner_->post(runtime::Step{10});
  ImGui::SameLine();
  if (ImGui::Button("Reset")) runner_->post(runtime::Reset{});
  if (ImGui::Button("Restart with these parameters")) restartWithCurrent(s);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted("From t = 0 with the current parameters; the same bits as");
    ImGui::TextUnformatted(commandLine(s).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("copy cmd")) ImGui::SetClipboardText(commandLine(s).c_str());

  ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.0f);
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) {
    bool unlimited = s.params.unlimited;
    speed_.sync(s.params.speed);
    const double speedMin = 0.01, speedMax = 4.0;
    ImGui::BeginDisabled(unlimited);
    if (ImGui::SliderScalar("speed", ImGuiDataType_Double, &speed_.value, &speedMin, &speedMax,
                            "%.2fx", ImGuiSliderFlags_Logarithmic)) {
      runner_->post(runtime::SetSpeed{speed_.value, false});
    }
    speed_.active = ImGui::IsItemActive();
    ImGui::EndDisabled();
    for (double preset : {0.1, 0.25, 1.0, 4.0}) {
      ImGui::PushID(static_cast<int>(preset * 100));
      if (ImGui::SmallButton(strf("%gx", preset).c_str()))
        runner_->post(runtime::SetSpeed{preset, false});
      ImGui::PopID();
      ImGui::SameLine();
    }
    if (ImGui::Checkbox("as fast as possible", &unlimited)) {
      runner_->post(runtime::SetSpeed{s.params.speed, unlimited});
    }
    dt_.sync(s.params.dt);
    const double dtMin = 1e-5, dtMax = 0.05;
    if (ImGui::SliderScalar("h (time step)", ImGuiDataType_Double, &dt_.value, &dtMin, &dtMax,
                            "%.3g s", ImGuiSliderFlags_Logarithmic)) {
      runner_->post(runtime::SetDt{dt_.value});
    }
    dt_.active = ImGui::IsItemActive();
    const runtime::SolverStats& st = s.solver;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "Newton: %d iterations (mean %.1f, max %d of %d over the last %d steps); "
        "%d sub-stepped",
        st.lastIterations, st.meanIterations, st.maxIterations, st.iterationLimit, st.recentSteps,
        st.substeppedSteps);
    ImGui::PopStyleColor();
    const bool struggles = st.substeppedSteps > 0 || st.maxIterations > st.iterationLimit / 2 ||
                           s.status == RunStatus::kFailed;
    if (struggles) {
      ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.25f, 1.0f),
                         "Newton struggles at this h: reduce the time step");
    }
  }

  if (ImGui::CollapsingHeader("Fluid and wind", ImGuiTreeNodeFlags_DefaultOpen)) {
    density_.sync(s.params.fluidDensity);
    const double rhoMin = 0.0, rhoMax = 2000.0;
    if (ImGui::SliderScalar("density", ImGuiDataType_Double, &density_.value, &rhoMin, &rhoMax,
                            "%.4g kg/m\u00b3", ImGuiSliderFlags_Logarithmic)) {
      runner_->post(runtime::SetFluidDensity{density_.value});
    }
    density_.active = ImGui::IsItemActive();
    struct Preset {
      const char* name;
      double rho;
    };
    for (const Preset& p : {Preset{"vacuum", 0.0}, Preset{"air", 1.225}, Preset{"water", 998.0}}) {
      if (ImGui::SmallButton(p.name)) runner_->post(runtime::SetFluidDensity{p.rho});
      ImGui::SameLine();
    }
    ImGui::NewLine();
    if (s.params.water) {
      ImGui::TextDisabled("water below y = %.3g m (%.4g kg/m\u00b3)", s.params.water->level,
                          s.params.water->density);
    }
    // Wind: speed, direction in the horizontal plane (0° = +x, 90° = +z) and elevation.
    if (!windActive_) {
      const Vec3& w = s.params.wind;
      const Vec3 mine =
          static_cast<double>(windSpeed_) *
          Vec3(std::cos(windElevation_ * M_PI / 180) * std::cos(windAzimuth_ * M_PI / 180),
               std::sin(windElevation_ * M_PI / 180),
               std::cos(windElevation_ * M_PI / 180) * std::sin(windAzimuth_ * M_PI / 180));
      if ((mine - w).norm() > 1e-6 * (1.0 + w.norm())) {
        windSpeed_ = static_cast<float>(w.norm());
        if (w.norm() > 0.0) {
          windElevation_ =
              static_cast<float>(std::asin(std::clamp(w.y() / w.norm(), -1.0, 1.0)) * 180 / M_PI);
          windAzimuth_ = static_cast<float>(std::atan2(w.z(), w.x()) * 180 / M_PI);
          if (windAzimuth_ < 0.0f) windAzimuth_ += 360.0f;
        }
      }
    }
    bool changed = ImGui::SliderFloat("wind speed", &windSpeed_, 0.0f, 30.0f, "%.2f m/s");
    bool active = ImGui::IsItemActive();
    changed |= ImGui::SliderFloat("direction", &windAzimuth_, 0.0f, 360.0f, "%.0f\u00b0");
    active |= ImGui::IsItemActive();
    changed |= ImGui::SliderFloat("elevation", &windElevation_, -90.0f, 90.0f, "%.0f\u00b0");
    active |= ImGui::IsItemActive();
    windActive_ = active;
    if (changed) {
      const double az = windAzimuth_ * M_PI / 180.0, el = windElevation_ * M_PI / 180.0;
      runner_->post(runtime::SetWind{
          static_cast<double>(windSpeed_) *
          Vec3(std::cos(el) * std::cos(az), std::sin(el), std::cos(el) * std::sin(az))});
    }
    ImGui::TextDisabled("wind (%.3g, %.3g, %.3g) m/s", s.params.wind.x(), s.params.wind.y(),
                        s.params.wind.z());
  }

  drawBodyPanel(s);
  drawComparePanel(s);

  if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) {
    const std::string current = fs::path(s.scenePath).filename().string();
    if (ImGui::BeginCombo("scenes", current.c_str())) {
      for (const std::string& p : scenes_) {
        const std::string name = fs::path(p).filename().string();
        if (ImGui::Selectable(name.c_str(), p == s.scenePath)) loadPath(p);
      }
      ImGui::EndCombo();
    }
    if (ImGui::InputText("path", openPath_, sizeof openPath_,
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
      loadPath(openPath_);
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("open")) loadPath(openPath_);
    ImGui::Checkbox("reload on change", &autoReload_);
    ImGui::SameLine();
    if (ImGui::SmallButton("reload")) runner_->post(runtime::Reload{});
    ImGui::TextDisabled("or drop a .json scene, an .obj%s on the window",
                        runtime::gltfSupported() ? " or a .gltf/.glb" : "");
    drawSaveAs(s);
  }
  drawExportPanel(s);

  if (ImGui::CollapsingHeader("View")) {
    ImGui::Checkbox("follow selected (F)", &follow_);
    ImGui::SameLine();
    if (ImGui::SmallButton("reset view (V)")) {
      float radius = 0.0f;
      for (const auto& b : s.bodies) radius = std::max(radius, static_cast<float>(b.radius));
      camera_.frame(renderer_->boundsCenter(), std::max(4.0f * radius, 0.03f));
    }
    ImGui::Checkbox("shadows", &render_.shadows);
    ImGui::SameLine();
    ImGui::Checkbox("grid", &render_.grid);
    ImGui::SameLine();
    ImGui::Checkbox("water", &render_.water);
    ImGui::Checkbox("trails", &render_.trails);
    float trail = static_cast<float>(trailSeconds_);
    if (ImGui::SliderFloat("trail length", &trail, 0.5f, 60.0f, "%.1f s",
                           ImGuiSliderFlags_Logarithmic)) {
      trailSeconds_ = trail;
    }
    float scale = uiScale_;
    ImGui::SliderFloat("UI scale", &scale, 0.75f, 3.0f, "%.2f");
    if (ImGui::IsItemDeactivatedAfterEdit()) pendingUiScale_ = scale;
    for (float preset : {1.0f, 1.5f, 2.0f, 2.5f}) {
      if (ImGui::SmallButton(strf("%gx##ui", preset).c_str())) pendingUiScale_ = preset;
      ImGui::SameLine();
    }
    ImGui::NewLine();
    if (ImGui::InputInt2("picture size", shotSize_)) {
      for (int& v : shotSize_) v = std::clamp(v, 0, 16384);
    }
    wrappedTooltip(
        "Width and height of screenshots in pixels: the 3D view alone, rendered offscreen at "
        "this size whatever the window's. 0 0: the window as shown, panels included.");
    if (ImGui::Button("Screenshot (P)")) screenshotRequested_ = true;
  }
  ImGui::PopItemWidth();
  ImGui::Separator();
  if (ImGui::Button("Help (H)")) showHelp_ = !showHelp_;
  ImGui::End();
}

void Viewer::drawSaveAs(const runtime::Snapshot& s) {
  ImGui::Spacing();
  ImGui::BeginDisabled(!s.sceneFromFile);
  if (ImGui::InputText("file##save", savePath_, sizeof savePath_,
                       ImGuiInputTextFlags_EnterReturnsTrue)) {
    saveScene(s);
  }
  if (ImGui::Button("Save scene as... (Ctrl+S)")) saveScene(s);
  ImGui::EndDisabled();
  wrappedTooltip(
      "Writes the scene with every changed value (density, wind, h, \u03b4 and model per body) "
      "to the file above: relative paths rewritten for its directory, every seed written out. "
      "samara run of that file repeats the run from t = 0 bit for bit: " +
      commandLine(s));
}

void Viewer::drawExportPanel(const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Export")) return;
  const runtime::ExportJob::Progress p =
      exportJob_ ? exportJob_->progress() : runtime::ExportJob::Progress{};
  using State = runtime::ExportJob::State;
  if (exportJob_ && p.state == State::kRunning) {
    char overlay[96];
    if (p.steps == 0) {
      std::snprintf(overlay, sizeof overlay, "loading the scene");
    } else if (p.eta < 0.0) {
      std::snprintf(overlay, sizeof overlay, "%.0f%%", 100.0 * p.fraction);
    } else {
      std::snprintf(overlay, sizeof overlay, "%.0f%%  ETA %s", 100.0 * p.fraction,
                    io::clockText(p.eta).c_str());
    }
    ImGui::ProgressBar(static_cast<float>(p.fraction), ImVec2(-1.0f, 0.0f), overlay);
    ImGui::TextDisabled("step %lld of %lld, %s elapsed", p.step, p.steps,
                        io::clockText(p.elapsed).c_str());
    if (ImGui::Button("Cancel")) exportJob_->cancel();
    wrappedTooltip(
        "Stops the export; nothing is written (the files are renamed into place "
        "only when all are complete).");
    return;
  }
  const io::ExportFormat current = kExportFormats[exportFormat_];
  if (ImGui::BeginCombo("format", io::exportFormatName(current))) {
    for (int k = 0; k < static_cast<int>(std::size(kExportFormats)); ++k) {
      const char* name = io::exportFormatName(kExportFormats[k]);
      if (ImGui::Selectable(name, k == exportFormat_) && k != exportFormat_) {
        // Follow the extension of the output when it is the old format's.
        const std::string oldExt = std::string(".") + io::exportFormatName(current);
        std::string path = exportPath_;
        if (path.size() >= oldExt.size() &&
            path.compare(path.size() - oldExt.size(), oldExt.size(), oldExt) == 0) {
          path = path.substr(0, path.size() - oldExt.size()) + "." + name;
          std::snprintf(exportPath_, sizeof exportPath_, "%s", path.c_str());
        }
        exportFormat_ = k;
      }
    }
    ImGui::EndCombo();
  }
  wrappedTooltip(
      "glb: glTF 2.0 for Blender (rigid motion, morph targets for shape change); obj: one OBJ "
      "per frame; csv: per-frame transforms; chan: Houdini channels per body; pc2: point "
      "caches per body. As samara export (see samara help export).");
  ImGui::InputText("to##export", exportPath_, sizeof exportPath_);
  wrappedTooltip("The file (glb, csv), or a prefix or a directory ending in / (obj, chan, pc2)");
  if (ImGui::InputDouble("fps", &exportFps_, 0.0, 0.0, "%.4g")) {
    exportFps_ = std::clamp(exportFps_, 0.1, 10000.0);
  }
  if (ImGui::InputDouble("duration", &exportDuration_, 0.0, 0.0, "%.4g s")) {
    exportDuration_ = std::clamp(exportDuration_, 0.0, 1e6);
  }
  ImGui::BeginDisabled(!s.sceneFromFile || exportPath_[0] == '\0');
  if (ImGui::Button("Start export")) startExport(s);
  ImGui::EndDisabled();
  wrappedTooltip(
      "Runs the current scene (what Save scene as writes) from t = 0 on a thread of its own "
      "and bakes its motion: the same files as samara export of the saved scene.");
  if (exportJob_) {
    const ImVec4 color = p.state == State::kDone     ? ImVec4(0.5f, 0.9f, 0.5f, 1.0f)
                         : p.state == State::kFailed ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                                                     : ImVec4(1.0f, 0.8f, 0.3f, 1.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextWrapped("%s (%s)", p.message.c_str(), io::clockText(p.elapsed).c_str());
    ImGui::PopStyleColor();
  }
}

void Viewer::drawBodyPanel(const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Bodies", ImGuiTreeNodeFlags_DefaultOpen)) return;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const glm::vec3 c = Renderer::bodyColor(static_cast<int>(i));
    ImGui::PushID(static_cast<int>(i));
    ImGui::ColorButton("##c", ImVec4(c.r, c.g, c.b, 1.0f), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
    ImGui::SameLine();
    if (ImGui::Selectable(s.bodies[i].name.c_str(), selected_ == static_cast<int>(i))) {
      selected_ = static_cast<int>(i);
    }
    ImGui::PopID();
    if (i >= 30) {
      ImGui::TextDisabled("... %zu more", s.bodies.size() - i - 1);
      break;
    }
  }
  if (selected_ >= static_cast<int>(s.bodies.size())) return;
  const auto sel = static_cast<std::size_t>(selected_);
  const runtime::BodySnapshot& b = s.bodies[sel];
  const core::BodyDiagnostics& d = b.diagnostics;
  ImGui::Text("mass %.4g kg", b.mass);

  // Fluid model: choosing one restarts from t = 0 with this body's model replaced.
  if (ImGui::BeginCombo("model", b.model.c_str())) {
    for (const std::string& name : models::modelNames()) {
      if (ImGui::Selectable(name.c_str(), name == b.model) && name != b.model) {
        runtime::Overrides o = currentOverrides(s);
        o.model[sel] = name;
        runner_->post(runtime::Restart{o});
      }
    }
    ImGui::EndCombo();
  }
  wrappedTooltip(
      "The fluid model of this body (default parameters). Choosing one restarts from t = 0 "
      "with the current parameters: the same bits as samara run ... --set bodies." +
      std::to_string(selected_) + ".model=NAME");

  // δ: auto / manual / off; only samara's own model (gwtf) has it.
  const bool hasDelta = b.model == "gwtf";
  ImGui::BeginGroup();
  ImGui::BeginDisabled(!hasDelta);
  int mode = !b.deltaOverride ? 0 : (*b.deltaOverride == 0.0 ? 2 : 1);
  int newMode = mode;
  ImGui::Text("added mass \u03b4");
  ImGui::SameLine();
  ImGui::RadioButton("auto", &newMode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("manual", &newMode, 1);
  ImGui::SameLine();
  ImGui::RadioButton("off", &newMode, 2);
  if (newMode != mode) {
    if (newMode == 0) runner_->post(runtime::SetDelta{selected_, std::nullopt});
    if (newMode == 1) runner_->post(runtime::SetDelta{selected_, b.deltaAuto});
    if (newMode == 2) runner_->post(runtime::SetDelta{selected_, 0.0});
  }
  if (mode == 1) {
    deltaManual_.sync(b.delta);
    const double dMin = 1e-4, dMax = 1.0;
    if (ImGui::SliderScalar("\u03b4", ImGuiDataType_Double, &deltaManual_.value, &dMin, &dMax,
                            "%.4g m", ImGuiSliderFlags_Logarithmic)) {
      runner_->post(runtime::SetDelta{selected_, deltaManual_.value});
    }
    deltaManual_.active = ImGui::IsItemActive();
  }
  ImGui::TextDisabled("\u03b4 in use %.4g m (auto %.4g m)", b.delta, b.deltaAuto);
  ImGui::EndDisabled();
  ImGui::EndGroup();
  if (!hasDelta) {
    wrappedTooltip(
        "\u03b4 (the added-mass length) belongs to samara's own model, gwtf; the "
        "model \"" +
        b.model + "\" does not use it. Choose gwtf above to edit it.");
  }

  ImGui::Text("COM (%.3f, %.3f, %.3f) m", d.com.x(), d.com.y(), d.com.z());
  ImGui::Text("fall speed %.4g m/s, spin %.4g rad/s", d.fallSpeed, d.spinRate);
  ImGui::Text("kinetic energy %.4g J", d.kineticEnergy);
  auto patternLine = [&](const analysis::PatternResult* r) {
    if (r) {
      ImGui::TextWrapped("pattern: %s (%s)", analysis::patternName(r->pattern), r->reason.c_str());
    } else {
      ImGui::TextDisabled("pattern: no samples yet");
    }
  };
  patternLine(patterns_.result(selected_));

  // Its ghost, if a ghost run is on.
  if (sel < s.ghostBodies.size()) {
    const runtime::BodySnapshot& g = s.ghostBodies[sel];
    const glm::vec3 gc = Renderer::ghostColor(selected_);
    ImGui::Spacing();
    ImGui::TextColored(ImVec4(gc.r, gc.g, gc.b, 1.0f), "ghost (%s)", g.model.c_str());
    ImGui::Text("fall speed %.4g m/s, spin %.4g rad/s", g.diagnostics.fallSpeed,
                g.diagnostics.spinRate);
    ImGui::Text("COM distance to the body %.3g m", (g.diagnostics.com - d.com).norm());
    patternLine(patterns_.result(selected_, true));
  }
}

void Viewer::drawComparePanel(const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Compare models", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const std::string current = s.ghostModel.empty() ? "off" : s.ghostModel;
  if (ImGui::BeginCombo("ghost", current.c_str())) {
    if (ImGui::Selectable("off", s.ghostModel.empty()) && !s.ghostModel.empty()) {
      runner_->post(runtime::SetGhost{std::nullopt});
    }
    for (const std::string& name : runtime::ghostNames()) {
      if (ImGui::Selectable(name.c_str(), name == s.ghostModel) && name != s.ghostModel) {
        runner_->post(runtime::SetGhost{name});
      }
    }
    ImGui::EndCombo();
  }
  // One click for the two contrasts a lecture needs.
  if (ImGui::SmallButton("contrast: vacuum")) runner_->post(runtime::SetGhost{"vacuum"});
  ImGui::SameLine();
  if (ImGui::SmallButton("contrast: no added mass")) {
    runner_->post(runtime::SetGhost{std::string(runtime::kNoAddedMassGhost)});
  }
  wrappedTooltip(
      "A second copy of the scene with every body's model set to the ghost's, released at "
      "the same time and stepped in lockstep with the same parameters (density, wind, "
      "\u03b4, h). Choosing one restarts from t = 0 with the current parameters.");
  if (s.ghostModel.empty()) {
    ImGui::TextDisabled("no ghost: pick a model to race against");
    return;
  }
  ImGui::TextDisabled("translucent bodies, dashed plot lines");
  if (s.ghostStepIndex != s.stepIndex) {
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.25f, 1.0f), "ghost at step %lld (main %lld)",
                       static_cast<long long>(s.ghostStepIndex),
                       static_cast<long long>(s.stepIndex));
  }
  ImGui::Checkbox("show ghost", &render_.ghosts);
  ImGui::SameLine();
  ImGui::Checkbox("follow both", &frameGhost_);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("While following (F): keep the selected body and its ghost in view");
  }
}

void Viewer::drawPatternOverlay(const runtime::Snapshot& s) {
  if (s.bodies.empty() || !patterns_.result(0)) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(freeLeft_ + 8.0f, vp->WorkPos.y + 8.0f));
  ImGui::SetNextWindowBgAlpha(0.35f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoSavedSettings;
  ImGui::Begin("##patterns", nullptr, flags);
  ImGui::TextDisabled("falling pattern");
  constexpr std::size_t kShown = 4;  // bodies listed (each with its ghost)
  const float box = ImGui::GetFontSize() * 0.7f;
  auto line = [&](const glm::vec3& c, const std::string& label, const analysis::PatternResult* r) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + (ImGui::GetTextLineHeight() - box) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(
        ImVec2(p.x, y), ImVec2(p.x + box, y + box),
        ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)), 2.0f);
    ImGui::Dummy(ImVec2(box, box));
    ImGui::SameLine();
    ImGui::Text("%s: %s", label.c_str(), r ? analysis::patternName(r->pattern) : "-");
  };
  for (std::size_t i = 0; i < s.bodies.size() && i < kShown; ++i) {
    const int k = static_cast<int>(i);
    line(Renderer::bodyColor(k), s.bodies[i].name, patterns_.result(k));
    if (i < s.ghostBodies.size()) {
      line(Renderer::ghostColor(k), s.bodies[i].name + " (" + s.ghostModel + ")",
           patterns_.result(k, true));
    }
  }
  if (s.bodies.size() > kShown) {
    ImGui::TextDisabled("... %zu more (Bodies panel)", s.bodies.size() - kShown);
  }
  ImGui::End();
}

void Viewer::drawPlots(const runtime::Snapshot& s) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = 440.0f * uiScale_;
  ImGui::SetNextWindowPos(
      ImVec2(vp->WorkPos.x + vp->WorkSize.x - width - 8.0f, vp->WorkPos.y + 8.0f),
      ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(width, vp->WorkSize.y - 16.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("Plots");
  freeRight_ = ImGui::GetWindowPos().x;
  const float w = ImGui::GetFontSize() * 6.0f;
  ImGui::SetNextItemWidth(w);
  float window = static_cast<float>(plotView_.window);
  if (ImGui::SliderFloat("window", &window, 0.1f, 120.0f, "%.2g s", ImGuiSliderFlags_Logarithmic)) {
    plotView_.window = window;
  }
  ImGui::SameLine();
  ImGui::Checkbox("freeze", &plotView_.frozen);
  if (s.bodies.size() > 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("body", s.bodies[static_cast<std::size_t>(selected_)].name.c_str())) {
      for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        if (ImGui::Selectable(s.bodies[i].name.c_str(), selected_ == static_cast<int>(i))) {
          selected_ = static_cast<int>(i);
        }
      }
      ImGui::EndCombo();
    }
  }
  if (plotView_.frozen) {
    ImGui::TextDisabled("frozen: hover to read values, drag to pan, wheel to zoom");
  } else {
    ImGui::TextDisabled("world frame, SI units; hover to read, click a legend entry to hide it");
  }
  const runtime::TimeSeries* series =
      selected_ < history_.numBodies() ? &history_.body(selected_) : nullptr;
  // The selected body, and its ghost if a ghost run is on: "name (model)" legends.
  std::vector<PlotSeries> runs{{series, "", false}};
  const auto sel = static_cast<std::size_t>(selected_);
  if (!s.ghostModel.empty() && sel < s.bodies.size() && selected_ < history_.numGhostBodies()) {
    runs[0].label = s.bodies[sel].name + " (" + s.bodies[sel].model + ")";
    runs.push_back(
        {&history_.ghostBody(selected_), s.bodies[sel].name + " (" + s.ghostModel + ")", true});
  }
  if (!plotView_.frozen)
    plotView_.tEnd = series && !series->empty() ? series->time(series->size() - 1) : s.time;
  if (!plotView_.frozen) plotView_.tEnd = std::max(plotView_.tEnd, plotView_.window);
  const float avail = ImGui::GetContentRegionAvail().y;
  const float each =
      std::max(avail / static_cast<float>(plots_.size()) - ImGui::GetStyle().ItemSpacing.y,
               ImGui::GetTextLineHeight() * 6.0f);
  plotView_.hoverT = plotView_.nextHoverT;
  plotView_.nextHoverT = -1.0;
  for (PlotWidget& p : plots_) {
    p.draw(runs, &plotView_, ImVec2(ImGui::GetContentRegionAvail().x, each));
  }
  ImGui::End();
}

// History: scrub back through the recorded steps (the runner keeps the last
// RunnerOptions::historySeconds), slow motion and freeze frame. While scrubbing the 3D view,
// trails and overlays show the recorded step and every plot a cursor at its time; "resume"
// continues from the live state (the last step taken), not from the scrubbed one.
void Viewer::drawHistoryPanel(const runtime::Snapshot& s) {
  plotView_.cursorT = s.scrubbing ? s.time : -1.0;
  if (s.scrubbing && (s.time < plotView_.tEnd - plotView_.window || s.time > plotView_.tEnd)) {
    // Freeze the plots' window around the scrubbed time so the cursor stays visible.
    plotView_.frozen = true;
    plotView_.tEnd = std::max(s.time + 0.5 * plotView_.window, plotView_.window);
  }
  if (s.status == RunStatus::kEmpty) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = 520.0f * uiScale_;
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 0.5f * (vp->WorkSize.x - width),
                                 vp->WorkPos.y + vp->WorkSize.y - 8.0f),
                          ImGuiCond_FirstUseEver, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("History");
  const bool have = s.historyLast > s.historyFirst;
  // The slider runs over recorded step indices; its label shows the time.
  long long step = static_cast<long long>(s.stepIndex);
  const long long first = static_cast<long long>(s.historyFirst);
  const long long last = static_cast<long long>(s.historyLast);
  ImGui::BeginDisabled(!have);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4.0f);
  const std::string label = strf("t = %.4f s", s.time);
  if (ImGui::SliderScalar("##scrub", ImGuiDataType_S64, &step, &first, &last, label.c_str())) {
    runner_->post(runtime::Scrub{static_cast<std::int64_t>(step)});
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) {
    runner_->post(runtime::Scrub{(s.scrubbing ? s.stepIndex : s.historyLast) - 1});
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!s.scrubbing);
  if (ImGui::ArrowButton("##fwd", ImGuiDir_Right)) runner_->post(runtime::Scrub{s.stepIndex + 1});
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  if (s.scrubbing) {
    ImGui::TextColored(
        ImVec4(1.0f, 0.63f, 0.16f, 1.0f), "scrubbing: step %lld of %lld (live t = %.4f s)",
        static_cast<long long>(s.stepIndex), static_cast<long long>(s.liveStepIndex), s.liveTime);
    if (ImGui::Button("back to live")) runner_->post(runtime::Scrub{std::nullopt});
    ImGui::SameLine();
    if (ImGui::Button("resume (from live)")) runner_->post(runtime::Resume{});
  } else {
    ImGui::TextDisabled("recorded %.3g s (%lld steps); pause and drag, or press <-",
                        s.historyLastTime - s.historyFirstTime,
                        static_cast<long long>(s.historyLast - s.historyFirst));
  }
  // Slow motion and freeze frame (the plots stop with the run: no new samples while paused).
  ImGui::TextUnformatted("slow motion");
  for (double preset : {0.01, 0.05, 0.1}) {
    ImGui::SameLine();
    ImGui::PushID(static_cast<int>(preset * 1000));
    const bool on = !s.params.unlimited && std::abs(s.params.speed - preset) < 1e-9;
    if (ImGui::RadioButton(strf("%gx", preset).c_str(), on)) {
      runner_->post(runtime::SetSpeed{preset, false});
    }
    ImGui::PopID();
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("1x", !s.params.unlimited && s.params.speed == 1.0)) {
    runner_->post(runtime::SetSpeed{1.0, false});
  }
  ImGui::SameLine();
  const bool paused = s.status != RunStatus::kRunning;
  if (ImGui::Button(paused ? "play" : "freeze")) {
    runner_->post(paused ? runtime::Command{runtime::Resume{}}
                         : runtime::Command{runtime::Pause{}});
  }
  ImGui::End();
}

void Viewer::refreshLessons() {
  lessons_.clear();
  if (assetsDir_.empty()) return;
  std::error_code ec;
  const fs::path dir = fs::path(assetsDir_) / "lessons";
  if (!fs::is_directory(dir, ec)) return;
  std::vector<std::string> paths;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  for (const std::string& p : paths) {
    std::string title = fs::path(p).stem().string();
    try {
      if (const std::optional<io::Lesson> l = io::loadLesson(p)) title = l->title;
    } catch (const std::exception&) {
      title += " (unreadable)";
    }
    lessons_.push_back({p, title});
  }
}

// The "Lessons" menu (a main menu bar): the scenes of assets/lessons by their titles.
void Viewer::drawLessonsMenu() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("Lessons")) {
    if (lessons_.empty()) ImGui::TextDisabled("no lessons found (assets/lessons)");
    for (const LessonEntry& l : lessons_) {
      if (ImGui::MenuItem(l.title.c_str(), nullptr, currentPath_ == l.path)) {
        loadPath(l.path);
        showLesson_ = true;
      }
    }
    ImGui::Separator();
    ImGui::MenuItem("show the lesson text", nullptr, &showLesson_);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("presentation mode", "F11", present_)) setPresentation(!present_);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

// The open lesson's paragraph (the scene's "lesson" key), bottom left of the 3D view.
void Viewer::drawLessonPanel(const runtime::Snapshot& s) {
  if (!showLesson_ || s.lessonText.empty()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Bottom left of the 3D view (the free part between the panels), above the History bar.
  const float left = std::max(freeLeft_, vp->WorkPos.x) + 8.0f;
  const float right = freeRight_ > left ? freeRight_ : vp->WorkPos.x + vp->WorkSize.x;
  const float width = std::clamp(right - left - 8.0f, 200.0f, 460.0f * uiScale_);
  ImGui::SetNextWindowPos(ImVec2(left, vp->WorkPos.y + vp->WorkSize.y - 8.0f - 120.0f * uiScale_),
                          ImGuiCond_Appearing, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Appearing);
  const std::string title = "Lesson: " + s.lessonTitle + "###lesson";
  if (ImGui::Begin(title.c_str(), &showLesson_)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(s.lessonText.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

void Viewer::setPresentation(bool on) {
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
    pendingUiScale_ = std::max(1.5f * uiScale_, 1.75f);  // larger text, plots included
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowedRect_[0], windowedRect_[1],
                         std::max(windowedRect_[2], 64), std::max(windowedRect_[3], 64),
                         GLFW_DONT_CARE);
    pendingUiScale_ = windowedUiScale_;
  }
}

// In presentation mode: which panels stay visible (the rest are hidden), and the way out.
void Viewer::drawPresentationPanel() {
  if (!present_) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 8.0f, vp->WorkPos.y + 8.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  ImGui::Begin("Presentation", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::Checkbox("controls", &presentPanels_.controls);
  ImGui::Checkbox("plots", &presentPanels_.plots);
  ImGui::Checkbox("history", &presentPanels_.history);
  ImGui::Checkbox("lesson", &presentPanels_.lesson);
  ImGui::Checkbox("falling pattern", &presentPanels_.patterns);
  if (ImGui::Button("exit (F11)")) setPresentation(false);
  ImGui::End();
}

void Viewer::drawHelp() {
  if (!showHelp_) return;
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::Begin("Help", &showHelp_, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextUnformatted("Keyboard");
  ImGui::Separator();
  const char* keys[][2] = {{"space", "pause / run"},
                           {"right arrow", "single step (hold to repeat); forward while scrubbing"},
                           {"left arrow", "step back through the recorded history (scrubbing)"},
                           {"F11", "presentation mode (full screen, large, high contrast)"},
                           {"R", "reset to the scene's initial state"},
                           {"F", "follow the selected body"},
                           {"P", "screenshot (samara_screenshot_N.png)"},
                           {"Ctrl+S", "save scene as (the file named in the Scene panel)"},
                           {"V", "reset the view"},
                           {"H, F1", "this help"}};
  for (const auto& k : keys) {
    ImGui::Text("%-12s", k[0]);
    ImGui::SameLine(ImGui::GetFontSize() * 7.0f);
    ImGui::TextUnformatted(k[1]);
  }
  ImGui::Spacing();
  ImGui::TextUnformatted("Mouse");
  ImGui::Separator();
  ImGui::TextUnformatted(
      "left drag: orbit    right / middle / shift+left drag: pan    wheel: zoom");
  ImGui::TextUnformatted(
      "plots: hover to read values, wheel to change the window, freeze to inspect");
  ImGui::Spacing();
  ImGui::TextUnformatted("Files");
  ImGui::Separator();
  ImGui::TextUnformatted("drop a scene (.json) or a mesh (.obj) on the window to open it;");
  ImGui::TextUnformatted("a scene file that changes on disk is reloaded (View > reload on change)");
  ImGui::End();
}

void Viewer::drawTeaching(const runtime::Snapshot& s) {
  teaching_.drawPanel(s, selected_, freeRight_, uiScale_);
  if (auto request = teaching_.request()) runner_->post(*request);
  int fbw = 0, fbh = 0, ww = 0, wh = 0;
  glfwGetFramebufferSize(window_, &fbw, &fbh);
  glfwGetWindowSize(window_, &ww, &wh);
  if (fbw <= 0 || fbh <= 0 || ww <= 0 || wh <= 0) return;
  // The same projection as the renderer's draw in frame() (the view between the panels).
  float shift = 0.0f;
  if (freeRight_ > freeLeft_) {
    const float mid = 0.5f * (freeLeft_ + freeRight_);
    shift = (mid - 0.5f * static_cast<float>(ww)) / (0.5f * static_cast<float>(ww));
  }
  const float aspect = static_cast<float>(fbw) / static_cast<float>(fbh);
  const glm::mat4 view = camera_.view();
  teaching_.drawOverlay(s, camera_.projection(aspect, shift) * view, view, static_cast<float>(ww),
                        static_cast<float>(wh), uiScale_);
}

void Viewer::frame() {
  const bool fresh = runner_->updateSnapshot();
  const runtime::Snapshot& s = runner_->snapshot();
  samples_.clear();
  runner_->takeSamples(&samples_);
  history_.consume(samples_);
  // Falling patterns: every sample feeds the trackers (O(1) each); the classification is
  // evaluated a few times a second (every frame with a fixed frame count: reproducible).
  const std::uint64_t patternGeneration = patterns_.generation();
  patterns_.consume(samples_, s);
  const double now = glfwGetTime();
  if (options_.frames > 0 || patterns_.generation() != patternGeneration ||
      now - lastPatternRefresh_ >= kPatternRefreshSeconds) {
    patterns_.refresh();
    lastPatternRefresh_ = now;
  }
  if (fresh || frames_ == 0) renderer_->update(s);
  if (s.generation != lastGeneration_) onNewRun(s);
  handleDrops();
  checkReload();
  if (render_.trails) updateTrails(s);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  if (frames_ == 0) {
    // The menu bar takes its height from the work area only from the next frame on: lay it
    // out once so the panels' first positions (WorkPos) are below it.
    drawLessonsMenu();
    ImGui::EndFrame();
    ImGui::NewFrame();
  }
  drawLessonsMenu();
  const bool showControls = !present_ || presentPanels_.controls;
  const bool showPlots = !present_ || presentPanels_.plots;
  if (showControls) {
    drawControls(s);
  } else {
    freeLeft_ = 0.0f;
  }
  if (!present_ || presentPanels_.history) drawHistoryPanel(s);
  if (showPlots) {
    drawPlots(s);
  } else {
    freeRight_ = ImGui::GetIO().DisplaySize.x;
  }
  if (!present_ || presentPanels_.patterns) drawPatternOverlay(s);
  if (!present_ || presentPanels_.lesson) drawLessonPanel(s);
  drawPresentationPanel();
  drawHelp();
  handleInput(s);
  if (follow_ && selected_ < static_cast<int>(s.bodies.size())) {
    const auto sel = static_cast<std::size_t>(selected_);
    glm::vec3 target = toGlm(s.bodies[sel].diagnostics.com);
    if (frameGhost_ && render_.ghosts && sel < s.ghostBodies.size()) {
      // The midpoint, and far enough to see both (zooming in stops there).
      const glm::vec3 ghost = toGlm(s.ghostBodies[sel].diagnostics.com);
      const float half =
          0.5f * glm::length(ghost - target) + static_cast<float>(s.bodies[sel].radius);
      camera_.distance = std::max(camera_.distance, half / std::sin(0.5f * camera_.fovY) * 1.15f);
      target = 0.5f * (target + ghost);
    }
    camera_.target = target;
  }
  drawTeaching(s);
  render_.selected = selected_;
  ImGui::Render();

  int fbw = 0, fbh = 0, ww = 0, wh = 0;
  glfwGetFramebufferSize(window_, &fbw, &fbh);
  glfwGetWindowSize(window_, &ww, &wh);
  // Centre the 3D view in the space between the panels.
  float shift = 0.0f;
  if (ww > 0 && freeRight_ > freeLeft_) {
    const float mid = 0.5f * (freeLeft_ + freeRight_);
    shift = (mid - 0.5f * static_cast<float>(ww)) / (0.5f * static_cast<float>(ww));
  }
  renderer_->draw(camera_, fbw, fbh, shift, render_);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace

int runViewer(const ViewerOptions& options) {
  std::ostream& out = options.out ? *options.out : std::cout;
  std::ostream& err = options.err ? *options.err : std::cerr;
  Viewer viewer(options, out, err);
  return viewer.run();
}

}  // namespace samara::app
