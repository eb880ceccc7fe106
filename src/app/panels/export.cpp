#include "app/panels/export.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/widgets/widgets.h"
#include "io/export.h"
#include "io/text_format.h"
#include "runtime/current_scene.h"

namespace samara::app {

namespace {

/// The export formats in the order of the combo box.
constexpr io::ExportFormat kExportFormats[] = {io::ExportFormat::kGlb, io::ExportFormat::kObj,
                                               io::ExportFormat::kCsv, io::ExportFormat::kChan,
                                               io::ExportFormat::kPc2};

}  // namespace

void ExportPanel::onNewScene(const runtime::Snapshot& s) {
  // In the working directory.
  std::string stem = std::filesystem::path(s.scenePath).stem().string();
  if (stem.empty()) stem = "scene";
  std::snprintf(path_, sizeof path_, "%s.%s", stem.c_str(),
                io::exportFormatName(kExportFormats[format_]));
  duration_ = s.duration;
}

void ExportPanel::start(const ViewerContext& ctx, const runtime::Snapshot& s) {
  runtime::ExportJobSettings settings;
  settings.format = kExportFormats[format_];
  settings.out = path_;
  settings.fps = fps_;
  settings.firstFrame = firstFrame_;
  settings.duration = duration_;
  if (thisView_) {
    const glm::vec3 eye = ctx.camera.eye(), target = ctx.camera.target;
    io::ExportSettings::Camera c;
    c.eye = Vec3(eye.x, eye.y, eye.z);
    c.target = Vec3(target.x, target.y, target.z);
    c.yfov = ctx.camera.fovY;
    c.aspect = ctx.viewAspect();
    settings.camera = c;
  }
  job_.reset();  // a finished one (a running one is cancelled and joined)
  job_ = std::make_unique<runtime::ExportJob>(runtime::currentSceneOf(s), settings);
}

void ExportPanel::drawProgress(const runtime::ExportJob::Progress& p) {
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
  if (ImGui::Button("Cancel")) job_->cancel();
  wrappedTooltip(
      "Stops the export; nothing is written (the files are renamed into place "
      "only when all are complete).");
}

void ExportPanel::drawFormat() {
  const io::ExportFormat current = kExportFormats[format_];
  if (ImGui::BeginCombo("format", io::exportFormatName(current))) {
    for (int k = 0; k < static_cast<int>(std::size(kExportFormats)); ++k) {
      const char* name = io::exportFormatName(kExportFormats[k]);
      if (ImGui::Selectable(name, k == format_) && k != format_) {
        // Follow the extension of the output when it is the old format's.
        const std::string oldExt = std::string(".") + io::exportFormatName(current);
        std::string path = path_;
        if (path.size() >= oldExt.size() &&
            path.compare(path.size() - oldExt.size(), oldExt.size(), oldExt) == 0) {
          path = path.substr(0, path.size() - oldExt.size()) + "." + name;
          std::snprintf(path_, sizeof path_, "%s", path.c_str());
        }
        format_ = k;
      }
    }
    ImGui::EndCombo();
  }
  wrappedTooltip(
      "glb: glTF 2.0 for Blender (rigid motion, morph targets for shape change); obj: one OBJ "
      "per frame; csv: per-frame transforms; chan: Houdini channels per body; pc2: point "
      "caches per body. As samara export (see samara help export).");
}

void ExportPanel::draw(const ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Export")) return;
  const runtime::ExportJob::Progress p = job_ ? job_->progress() : runtime::ExportJob::Progress{};
  using State = runtime::ExportJob::State;
  if (job_ && p.state == State::kRunning) {
    drawProgress(p);
    return;
  }
  drawFormat();
  ImGui::InputText("to##export", path_, sizeof path_);
  wrappedTooltip("The file (glb, csv), or a prefix or a directory ending in / (obj, chan, pc2)");
  if (ImGui::InputDouble("fps", &fps_, 0.0, 0.0, "%.4g")) fps_ = std::clamp(fps_, 0.1, 10000.0);
  if (ImGui::InputInt("first frame", &firstFrame_))
    firstFrame_ = std::clamp(firstFrame_, 0, 1000000);
  wrappedTooltip("The number of the first frame in file names (1: as Blender and Houdini count)");
  ImGui::Checkbox("camera: this view", &thisView_);
  wrappedTooltip(
      "glb: the camera is the 3D view's as it is now; off: a camera that sees every body over "
      "the whole run");
  if (ImGui::InputDouble("duration", &duration_, 0.0, 0.0, "%.4g s")) {
    duration_ = std::clamp(duration_, 0.0, 1e6);
  }
  ImGui::BeginDisabled(!s.sceneFromFile || path_[0] == '\0');
  if (ImGui::Button("Start export")) start(ctx, s);
  ImGui::EndDisabled();
  wrappedTooltip(
      "Runs the current scene (what Save scene as writes) from t = 0 on a thread of its own "
      "and bakes its motion: the same files as samara export of the saved scene.");
  if (job_) {
    const ImVec4 color = p.state == State::kDone     ? kColorGood
                         : p.state == State::kFailed ? kColorError
                                                     : kColorPaused;
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextWrapped("%s (%s)", p.message.c_str(), io::clockText(p.elapsed).c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace samara::app
