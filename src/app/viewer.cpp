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
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/capture.h"
#include "app/context.h"
#include "app/frame_stats.h"
#include "app/input.h"
#include "app/layout_report.h"
#include "app/panels/body.h"
#include "app/panels/compare.h"
#include "app/panels/export.h"
#include "app/panels/fluid.h"
#include "app/panels/help.h"
#include "app/panels/history.h"
#include "app/panels/lessons.h"
#include "app/panels/panel_set.h"
#include "app/panels/patterns.h"
#include "app/panels/plots.h"
#include "app/panels/run.h"
#include "app/panels/scene.h"
#include "app/panels/teaching.h"
#include "app/panels/view.h"
#include "app/paths.h"
#include "app/render/glm_eigen.h"
#include "app/render/shader.h"
#include "app/view3d.h"
#include "app/widgets/widgets.h"
#include "app/window.h"

namespace samara::app {

namespace {

using runtime::RunStatus;

/// Wall seconds between two evaluations of the falling-pattern classifiers (interactive).
constexpr double kPatternRefreshSeconds = 0.25;

/// "a, b, c".
std::string joined(const std::vector<std::string>& names) {
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  return known;
}

/// The shell: the window, the runner, the snapshot of each frame → panels → render →
/// capture. Everything here runs on the UI thread.
class Viewer {
 public:
  Viewer(const ViewerOptions& o, std::ostream& out, std::ostream& err)
      : options_(o),
        out_(out),
        err_(err),
        lockstep_(o.frames > 0 && !o.realTime),
        frameSeconds_(1.0 / o.videoFps),
        capture_(o.shotWidth, o.shotHeight),
        view_(capture_.shotSize()) {}
  ~Viewer();
  int run();

 private:
  /// 0 if the options can be used, else the exit code (2 for a bad option value).
  int checkOptions(const std::string& scene);
  bool startRunner(const std::string& scene);
  bool openGraphics();
  int loop();
  int finish(int exitCode);
  /// One frame; with `reportPath`, the layout report of it is written there.
  void frame(const std::string& reportPath = {});
  void consumeSamples(const runtime::Snapshot& s);
  void onNewRun(const runtime::Snapshot& s);
  /// A new scene's lesson "view": overlays, plots, presentation panels, split (the camera
  /// direction is applied with the framing).
  void applyLessonView(const io::LessonView& v);
  void drawMenu();
  /// The docked layout of this frame (app/layout.h) from the window and the panels shown.
  void computeLayout(const runtime::Snapshot& s);
  void drawPanels(const runtime::Snapshot& s);
  void drawControls(const runtime::Snapshot& s, const Rect& room);
  /// The panel sets of the last run (interactive only; tests start from the defaults).
  void loadPanelSets();
  void savePanelSets();
  void handleInput(const runtime::Snapshot& s);
  void onKey(KeyAction action, const runtime::Snapshot& s);
  /// The teaching panel and overlays (TeachingOverlay), before ImGui::Render.
  void drawTeaching(const runtime::Snapshot& s);
  void render();

  ViewerOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  const bool lockstep_;  // a fixed number of frames, each frameSeconds_ × speed of simulation
  const double frameSeconds_;  // 1 / the video's frames per second (1/60 s)
  Window window_;
  std::unique_ptr<Renderer> renderer_;
  std::shared_ptr<runtime::ManualClock> manualClock_;
  std::unique_ptr<runtime::Runner> runner_;
  ViewerContext ctx_;
  std::vector<runtime::PlotSample> samples_;
  runtime::ReferenceGhost reference_;  // a reduced scene's Navier–Stokes run, if any
  double lastPatternRefresh_ = -1e300;
  std::vector<int> lastPatternShown_;  // the bodies classified at the last refresh
  std::uint64_t lastGeneration_ = 0;
  std::string framedPath_;   // scene the camera was last framed for
  std::vector<Pane> panes_;  // this frame's split view (empty: one view)
  bool frameAll_ = false;
  bool layoutFailed_ = false;  // the layout report could not be written    // frame every body once
                               // the layout of this frame is known
  Capture capture_;
  FrameStats stats_;
  // Panels.
  RunPanel run_;
  FluidPanel fluid_;
  BodyPanel body_;
  ComparePanel compare_;
  ScenePanel scene_;
  ExportPanel export_;
  ViewPanel view_;
  PlotsPanel plots_;
  HistoryPanel history_;
  LessonsPanel lessons_;
  PanelSet panels_;
  TeachingOverlay teaching_;
};

Viewer::~Viewer() {
  if (runner_) runner_->stop();
  export_.cancel();  // cancels a running export: nothing half-written
  renderer_.reset();
  if (window_.handle()) capture_.release();  // its GL objects, while the context exists
  window_.close();
}

int Viewer::checkOptions(const std::string& scene) {
  // A video needs ffmpeg: say so before anything is loaded or rendered.
  if (!options_.videoPath.empty() && !onPath("ffmpeg")) {
    err_ << "samara: " << kFfmpegMissing << "\n";
    return 1;
  }
  if (!(options_.videoFps > 0.0 && options_.videoFps <= 1000.0)) {
    err_ << "samara: the video's frames per second must be in (0, 1000] (got " << options_.videoFps
         << ")\n";
    return 1;
  }
  if (scene.empty()) {
    err_ << "samara: no scene given and the default scene (assets/scenes/maple_seed.json) "
            "was not found\n";
    return 1;
  }
  if (options_.ghostModel && !runtime::isGhostName(*options_.ghostModel)) {
    err_ << "samara: view: --ghost: unknown model \"" << *options_.ghostModel
         << "\" (known: " << joined(runtime::ghostNames()) << ")\n";
    return 2;
  }
  for (const std::string& name : options_.overlays) {
    if (!teaching_.enable(name)) {
      err_ << "samara: view: --overlay: unknown overlay \"" << name
           << "\" (known: " << joined(TeachingOverlay::names()) << ")\n";
      return 2;
    }
  }
  return 0;
}

bool Viewer::startRunner(const std::string& scene) {
  runtime::RunnerOptions ro;
  ro.niceness = runtime::kViewerNiceness;
  ro.threads = options_.threads > 0
                   ? options_.threads
                   : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (lockstep_) {
    manualClock_ = std::make_shared<runtime::ManualClock>();
    ro.clock = manualClock_;
  }
  runner_ = std::make_unique<runtime::Runner>(ro);
  ctx_.runner = runner_.get();
  // The first scene is loaded synchronously so that a bad file is an error before a window
  // opens.
  runner_->post(runtime::LoadScene{scene, options_.sets});
  if (options_.ghostModel) runner_->post(runtime::SetGhost{options_.ghostModel});
  runner_->tick();
  runner_->updateSnapshot();
  if (runner_->snapshot().status == RunStatus::kEmpty) {
    err_ << "samara: " << runner_->snapshot().message << "\n";
    return false;
  }
  scene_.started(scene);
  return true;
}

bool Viewer::openGraphics() {
  WindowSettings ws;
  ws.width = options_.width;
  ws.height = options_.height;
  ws.msaa = options_.msaa;
  ws.vsync = options_.frames <= 0;
  // A fixed number of frames (screenshots, tests): the pointer is wherever the X server put
  // it, so ignore it (no hover tooltips in the picture).
  ws.noMouse = options_.frames > 0;
  ws.uiScale = options_.uiScale;
  if (!window_.open(ws, err_)) return false;
  ctx_.window = &window_;
  std::string searched;
  const std::string shaderDir = findShaderDir(&searched);
  if (shaderDir.empty()) {
    err_ << "samara: cannot find the shaders (mesh.vert) in: " << searched << "\n";
    return false;
  }
  try {
    renderer_ = std::make_unique<Renderer>(shaderDir);
  } catch (const ShaderError& e) {
    err_ << "samara: " << e.what() << "\n";
    return false;
  }
  ctx_.renderer = renderer_.get();
  const std::string assetsDir = findAssetsDir();
  scene_.refreshSceneList(assetsDir);
  lessons_.refresh(assetsDir);
  if (options_.present) window_.setPresentation(true);
  loadPanelSets();
  if (!options_.videoPath.empty()) {
    const std::string why =
        capture_.openVideo(options_.videoPath, options_.videoFps, options_.videoUi);
    if (!why.empty()) {
      err_ << "samara: " << options_.videoPath << ": " << why << "\n";
      return false;
    }
  }
  return true;
}

int Viewer::run() {
  const std::string scene = options_.scenePath.empty() ? findDefaultScene() : options_.scenePath;
  if (const int code = checkOptions(scene)) return code;
  if (!startRunner(scene) || !openGraphics()) return 1;
  return finish(loop());
}

int Viewer::loop() {
  if (!lockstep_) runner_->start();
  const auto wallStart = std::chrono::steady_clock::now();
  auto wallNow = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  };
  const CaptureSource source{window_.handle(), renderer_.get(), &ctx_.camera, &ctx_.render,
                             options_.msaa};
  int exitCode = 0;
  double lastFrameStart = -1.0;
  while (!glfwWindowShouldClose(window_.handle())) {
    const double t0 = wallNow();
    // The on-screen frame time (interactive only: pictures of a fixed number of frames stay
    // the same from run to run; `--frames` prints the mean on exit instead).
    if (options_.frames == 0 && lastFrameStart >= 0.0) {
      const double ms = 1000.0 * (t0 - lastFrameStart);
      ctx_.frameMs = ctx_.frameMs > 0.0 ? 0.9 * ctx_.frameMs + 0.1 * ms : ms;
    }
    lastFrameStart = t0;
    if (stats_.frames == 1) {
      stats_.firstWall = t0;
      stats_.stepsAtFirstFrame = runner_->snapshot().stepIndex;
    }
    glfwPollEvents();
    window_.applyPendingUiScale();
    if (lockstep_) {
      manualClock_->advance(frameSeconds_);
      runner_->tick();
    }
    const bool last = options_.frames > 0 && stats_.frames + 1 >= options_.frames;
    frame(last ? options_.layoutReportPath : std::string());
    if (layoutFailed_) {
      exitCode = 1;
      break;
    }
    CaptureRequest request;
    request.screenshot = ctx_.screenshotRequested;
    ctx_.screenshotRequested = false;
    if (last) request.finalPath = options_.screenshotPath;
    request.videoPath = options_.videoPath.c_str();
    request.view = toPixels(ctx_.layout.view, window_.handle());
    const CaptureResult pictures = capture_.frame(source, request, err_);
    if (!pictures.notice.empty()) ctx_.notice.show(pictures.notice);
    if (pictures.failed) exitCode = 1;
    if (pictures.stop) break;
    stats_.renderSeconds += wallNow() - t0;
    glfwSwapBuffers(window_.handle());
    stats_.lastWall = wallNow();
    ++stats_.frames;
    if (last) break;
  }
  return exitCode;
}

int Viewer::finish(int exitCode) {
  runner_->stop();
  runner_->updateSnapshot();
  if (const std::string why = capture_.finishVideo(); !why.empty()) {
    err_ << "samara: " << options_.videoPath << ": " << why << "\n";
    exitCode = 1;
  }
  const runtime::Snapshot& s = runner_->snapshot();
  if (options_.printStats) printStats(stats_, s, lockstep_ ? frameSeconds_ : 0.0, out_);
  if (s.status == RunStatus::kFailed && options_.frames > 0) {
    // As `samara run`: a failed simulation is exit 3 (the pictures, complete, show the
    // paused failure and are kept).
    err_ << "samara: " << s.message << "\n";
    if (exitCode == 0) exitCode = 3;
  }
  return exitCode;
}

void Viewer::consumeSamples(const runtime::Snapshot& s) {
  samples_.clear();
  runner_->takeSamples(&samples_);
  reference_.addSamples(&samples_, s);
  ctx_.history.consume(samples_);
  // Falling patterns: every sample feeds the trackers (O(1) each); the classification
  // (O(history) per body) is evaluated for the bodies on screen only, a few times a second
  // (every frame with a fixed frame count: reproducible).
  const std::uint64_t patternGeneration = ctx_.patterns.generation();
  ctx_.patterns.consume(samples_, s);
  const double now = glfwGetTime();
  const std::vector<int> shown = patternBodiesShown(ctx_, s);
  if (options_.frames > 0 || ctx_.patterns.generation() != patternGeneration ||
      now - lastPatternRefresh_ >= kPatternRefreshSeconds) {
    ctx_.patterns.refresh(shown);
    lastPatternRefresh_ = now;
    lastPatternShown_ = shown;
  } else if (shown != lastPatternShown_) {
    ctx_.patterns.refresh(shown);  // a newly selected body: its line at once
    lastPatternShown_ = shown;
  }
}

void Viewer::onNewRun(const runtime::Snapshot& s) {
  // A new scene gets a new view; a reset or restart of the same scene keeps the camera.
  const bool sceneChanged = s.scenePath != framedPath_;
  lastGeneration_ = s.generation;
  ctx_.selected = std::clamp(ctx_.selected, 0, std::max(0, static_cast<int>(s.bodies.size()) - 1));
  plots_.onNewRun(s);
  view_.onNewRun(s);
  if (sceneChanged) {
    framedPath_ = s.scenePath;
    frameAll_ = true;  // every body, in the view's aspect (after the layout, below)
    export_.onNewScene(s);
    applyLessonView(s.lessonView);
  }
  scene_.onNewRun(s, sceneChanged);
}

void Viewer::applyLessonView(const io::LessonView& v) {
  if (!v.overlays.empty()) teaching_.setOnly(v.overlays);
  plots_.setShownPlots(v.plots);
  panels_.presentOnly(v.presentPanels);
  if (v.split) ctx_.split = *v.split;
}

void Viewer::frame(const std::string& reportPath) {
  const bool fresh = runner_->updateSnapshot();
  const runtime::Snapshot& raw = runner_->snapshot();
  if (raw.generation != lastGeneration_) {
    const std::string why = reference_.onNewRun(raw);
    if (!why.empty()) ctx_.notice.show(why);
  }
  const runtime::Snapshot& s = reference_.apply(raw);  // a CFD reference as the ghost
  consumeSamples(s);
  if (fresh || stats_.frames == 0 || reference_.active()) renderer_->update(s);
  showReference(*renderer_, reference_, s.time);
  if (s.generation != lastGeneration_) onNewRun(s);
  scene_.handleDrops(ctx_, window_.takeDrops());
  scene_.checkReload(ctx_, s);
  if (ctx_.render.trails) view_.updateTrails(ctx_, s);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  if (stats_.frames == 0) {
    // The menu bar takes its height from the work area only from the next frame on: lay it
    // out once so the panels' first positions (WorkPos) are below it.
    drawMenu();
    ImGui::EndFrame();
    ImGui::NewFrame();
  }
  drawMenu();
  computeLayout(s);
  if (frameAll_) {
    ctx_.resetView(s);
    // A lesson's camera direction, and its distance as a factor on the framing's.
    if (s.lessonView.yawDeg)
      ctx_.camera.yaw = static_cast<float>(*s.lessonView.yawDeg * M_PI / 180.0);
    if (s.lessonView.pitchDeg) {
      ctx_.camera.pitch = static_cast<float>(*s.lessonView.pitchDeg * M_PI / 180.0);
    }
    ctx_.framingZoom = static_cast<float>(s.lessonView.zoom.value_or(1.0));
    ctx_.camera.distance /= ctx_.framingZoom;
    frameAll_ = false;
  }
  drawPanels(s);
  handleInput(s);
  followBodies(&ctx_, s);
  panes_ = ctx_.panes(s);
  drawPaneLabels(s, panes_);
  drawViewCues(s, ctx_, panes_, renderer_->hasFloor());
  drawTeaching(s);
  if (!reportPath.empty()) {
    std::ofstream report(reportPath);
    report << layoutReport(s, ctx_, panes_);
    if (!report) {
      err_ << "samara: " << reportPath << ": cannot write the layout report\n";
      layoutFailed_ = true;
    }
  }
  ctx_.render.selected = ctx_.selected;
  ImGui::Render();
  render();
}

void Viewer::drawMenu() {
  if (!ImGui::BeginMainMenuBar()) return;
  const std::optional<std::string> lesson = lessons_.drawMenu(scene_.currentPath());
  if (ImGui::BeginMenu("View")) {
    panels_.drawMenu(ctx_);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
  if (lesson) {
    scene_.load(ctx_, *lesson);
  }
  if (panels_.takeChanged()) savePanelSets();
}

void Viewer::computeLayout(const runtime::Snapshot& s) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const bool presenting = window_.presenting();
  LayoutRequest r;
  r.width = vp->WorkSize.x;
  r.height = vp->WorkPos.y + vp->WorkSize.y;
  r.top = vp->WorkPos.y;
  r.uiScale = window_.uiScale();
  r.lineHeight = ImGui::GetFrameHeightWithSpacing();
  r.presenting = presenting;
  const bool loaded = s.status != RunStatus::kEmpty;
  r.controls = panels_.shown(ctx_, PanelSet::kControls);
  r.teaching = loaded && panels_.shown(ctx_, PanelSet::kTeaching);
  r.plots = panels_.shown(ctx_, PanelSet::kPlots);
  r.history = loaded && panels_.shown(ctx_, PanelSet::kHistory);
  r.lesson = !s.lessonText.empty() && panels_.shown(ctx_, PanelSet::kLesson);
  r.patternsHeight = patternsHeight(ctx_, s);
  r.patterns = r.patternsHeight > 0.0f && panels_.shown(ctx_, PanelSet::kPatterns);
  r.teachingHeight = teaching_.wantedHeight();
  r.lessonHeight = LessonsPanel::textHeight(s, rightColumnWidth(r.width, r.uiScale, presenting));
  ctx_.layout = app::computeLayout(r);
}

void Viewer::drawPanels(const runtime::Snapshot& s) {
  const Layout& L = ctx_.layout;
  if (!L.controls.empty()) drawControls(s, L.controls);
  history_.draw(ctx_, s, &plots_.view(), L.history, window_.presenting());
  if (!L.plots.empty()) plots_.draw(ctx_, s, L.plots);
  drawPatternPanel(ctx_, s, L.patterns);
  lessons_.drawText(s, L.lesson);
  drawHelp(ctx_);
}

void Viewer::drawControls(const runtime::Snapshot& s, const Rect& room) {
  placeDocked(room);
  ImGui::Begin("samara", nullptr, kDockedFlags);
  run_.drawStatus(ctx_, s);
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.0f);
  run_.drawSimulation(ctx_, s);
  fluid_.draw(ctx_, s);
  body_.draw(ctx_, s);
  compare_.draw(ctx_, s);
  scene_.draw(ctx_, s);
  export_.draw(ctx_, s);
  view_.draw(ctx_, s);
  ImGui::PopItemWidth();
  ImGui::Separator();
  if (ImGui::Button("Help (H)")) ctx_.showHelp = !ctx_.showHelp;
  ImGui::End();
}

void Viewer::handleInput(const runtime::Snapshot& s) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureKeyboard) {
    for (KeyAction action : pressedKeyActions()) onKey(action, s);
  }
  if (!io.WantCaptureMouse) orbitPanZoom(&ctx_);
}

void Viewer::onKey(KeyAction action, const runtime::Snapshot& s) {
  switch (action) {
    case KeyAction::kTogglePause:
      ctx_.post(runtime::TogglePause{});
      break;
    case KeyAction::kStepForward:
      // Scrubbing: forward through the history, then single steps from the live state.
      if (s.scrubbing && s.stepIndex < s.historyLast) {
        ctx_.post(runtime::Scrub{s.stepIndex + 1, 1});
      } else {
        ctx_.post(runtime::Step{1});
      }
      break;
    case KeyAction::kStepBack:
      if (s.historyLast > s.historyFirst) {
        ctx_.post(runtime::Scrub{(s.scrubbing ? s.stepIndex : s.historyLast) - 1, -1});
      }
      break;
    case KeyAction::kPresentation:
      window_.setPresentation(!window_.presenting());
      break;
    case KeyAction::kReset:
      ctx_.post(runtime::Reset{});
      break;
    case KeyAction::kFollow:
      ctx_.follow = !ctx_.follow;
      break;
    case KeyAction::kScreenshot:
      ctx_.screenshotRequested = true;
      break;
    case KeyAction::kSaveScene:
      scene_.save(ctx_, s);
      break;
    case KeyAction::kResetView:
      ctx_.resetView(s);
      break;
    case KeyAction::kHelp:
      ctx_.showHelp = !ctx_.showHelp;
      break;
  }
}

void Viewer::drawTeaching(const runtime::Snapshot& s) {
  teaching_.drawPanel(s, ctx_.selected, ctx_.layout.teaching);
  if (auto request = teaching_.request()) ctx_.post(*request);
  // The same projection as the renderer's draw in render(): the 3D view, or the selected
  // body's pane of a split view.
  OrbitCamera camera = ctx_.camera;
  Rect rect = ctx_.layout.view;
  for (const Pane& p : panes_) {
    if (!p.ghost && p.body == ctx_.selected) {
      camera = paneCamera(ctx_.camera, p);
      rect = p.rect;
    }
  }
  if (rect.empty()) return;
  const glm::mat4 view = camera.view();
  teaching_.drawOverlay(s, camera.projection(rect.w / rect.h) * view, view, rect,
                        window_.uiScale());
}

void Viewer::render() {
  renderView(*renderer_, ctx_, panes_, window_.handle());
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Viewer::loadPanelSets() {
  if (options_.frames > 0) return;  // pictures and tests: the defaults, whatever the user chose
  panels_.loadFile(configFile("layout.ini"));
}

void Viewer::savePanelSets() {
  if (options_.frames > 0) return;
  const std::string path = configFile("layout.ini", true);
  if (!panels_.saveFile(path)) ctx_.notice.show("could not save the layout to " + path);
}

}  // namespace

int runViewer(const ViewerOptions& options) {
  std::ostream& out = options.out ? *options.out : std::cout;
  std::ostream& err = options.err ? *options.err : std::cerr;
  Viewer viewer(options, out, err);
  return viewer.run();
}

}  // namespace samara::app
