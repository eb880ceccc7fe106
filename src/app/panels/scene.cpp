#include "app/panels/scene.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>

#include "app/widgets/widgets.h"
#include "runtime/current_scene.h"
#include "runtime/scene_source.h"

namespace samara::app {

namespace fs = std::filesystem;

void ScenePanel::refreshSceneList(const std::string& assetsDir) {
  scenes_.clear();
  if (assetsDir.empty()) return;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(assetsDir) / "scenes", ec)) {
    if (e.path().extension() == ".json") scenes_.push_back(e.path().string());
  }
  std::sort(scenes_.begin(), scenes_.end());
}

void ScenePanel::watch(const std::string& path) {
  sceneTime_.reset();
  if (runtime::fileKind(path) == runtime::FileKind::kScene) {
    std::error_code ec;
    const auto t = fs::last_write_time(path, ec);
    if (!ec) sceneTime_ = t;
  }
}

void ScenePanel::started(const std::string& path) {
  currentPath_ = path;
  std::snprintf(openPath_, sizeof openPath_, "%s", path.c_str());
  watch(path);
}

void ScenePanel::load(ViewerContext& ctx, const std::string& path) {
  ctx.post(runtime::LoadScene{path, {}});
  currentPath_ = path;
  watch(path);
  std::snprintf(openPath_, sizeof openPath_, "%s", path.c_str());
}

void ScenePanel::handleDrops(ViewerContext& ctx, std::vector<std::string> drops) {
  if (drops.empty()) return;
  // A scene wins over meshes; otherwise the first file.
  std::string pick = drops.front();
  for (const std::string& d : drops) {
    if (runtime::fileKind(d) == runtime::FileKind::kScene) {
      pick = d;
      break;
    }
  }
  if (drops.size() > 1) ctx.notice.show("several files dropped: opening " + pick);
  load(ctx, pick);
}

void ScenePanel::checkReload(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!autoReload_ || !sceneTime_) return;
  const double now = glfwGetTime();
  if (now - lastReloadCheck_ < 0.5) return;
  lastReloadCheck_ = now;
  std::error_code ec;
  const auto t = fs::last_write_time(currentPath_, ec);
  if (ec || t == *sceneTime_) return;
  sceneTime_ = t;
  // The loaded scene again (keeping its --set edits), or a file that failed to load before
  // and may be fixed now.
  if (currentPath_ == s.scenePath) {
    ctx.post(runtime::Reload{});
  } else {
    ctx.post(runtime::LoadScene{currentPath_, {}});
  }
  ctx.notice.show("reloaded " + fs::path(currentPath_).filename().string());
}

void ScenePanel::onNewRun(const runtime::Snapshot& s, bool sceneChanged) {
  if (sceneChanged) {
    // The file name for Save scene as, in the working directory.
    std::string stem = fs::path(s.scenePath).stem().string();
    if (stem.empty()) stem = "scene";
    const bool json = runtime::fileKind(s.scenePath) == runtime::FileKind::kScene;
    std::snprintf(savePath_, sizeof savePath_, "%s%s.json", stem.c_str(), json ? "_saved" : "");
  }
  currentPath_ = s.scenePath;
}

void ScenePanel::save(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!s.sceneFromFile) {
    ctx.notice.show("this scene was built in memory: there is no file to save it from", 8.0);
    return;
  }
  const std::string dest = savePath_;
  if (dest.empty()) {
    ctx.notice.show("Save scene as: give a file name", 8.0);
    return;
  }
  try {
    runtime::saveCurrentScene(runtime::currentSceneOf(s), dest);
    ctx.notice.show("saved " + dest + ": samara run " + dest + " repeats this run (from t = 0)",
                    8.0);
  } catch (const std::exception& e) {
    ctx.notice.show(std::string("not saved: ") + e.what(), 12.0);
  }
}

void ScenePanel::draw(ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const std::string current = fs::path(s.scenePath).filename().string();
  if (ImGui::BeginCombo("scenes", current.c_str())) {
    for (const std::string& p : scenes_) {
      const std::string name = fs::path(p).filename().string();
      if (ImGui::Selectable(name.c_str(), p == s.scenePath)) load(ctx, p);
    }
    ImGui::EndCombo();
  }
  if (ImGui::InputText("path", openPath_, sizeof openPath_, ImGuiInputTextFlags_EnterReturnsTrue)) {
    load(ctx, openPath_);
  }
  sameLineIfFits(buttonWidth("open"));
  if (ImGui::SmallButton("open")) load(ctx, openPath_);
  ImGui::Checkbox("reload on change", &autoReload_);
  sameLineIfFits(buttonWidth("reload"));
  if (ImGui::SmallButton("reload")) ctx.post(runtime::Reload{});
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("or drop a .json scene, an .obj%s on the window",
                     runtime::gltfSupported() ? " or a .gltf/.glb" : "");
  ImGui::PopStyleColor();
  drawSaveAs(ctx, s);
}

void ScenePanel::drawSaveAs(ViewerContext& ctx, const runtime::Snapshot& s) {
  ImGui::Spacing();
  ImGui::BeginDisabled(!s.sceneFromFile);
  if (ImGui::InputText("file##save", savePath_, sizeof savePath_,
                       ImGuiInputTextFlags_EnterReturnsTrue)) {
    save(ctx, s);
  }
  if (ImGui::Button("Save scene as... (Ctrl+S)")) save(ctx, s);
  ImGui::EndDisabled();
  wrappedTooltip(
      "Writes the scene with every changed value (density, wind, h, \u03b4 and model per body) "
      "to the file above: relative paths rewritten for its directory, every seed written out. "
      "samara run of that file repeats the run from t = 0 bit for bit: " +
      runtime::runCommandLine(runtime::currentSceneOf(s)));
}

}  // namespace samara::app
