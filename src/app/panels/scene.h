#pragma once
// The "Scene" section of the controls: the shipped scenes, a path to open, reload on change,
// files dropped on the window, and "Save scene as" (also Ctrl+S). It keeps the path of the
// file shown and its modification time.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/context.h"

namespace samara::app {

class ScenePanel {
 public:
  /// The scenes of `assetsDir`/scenes for the combo box.
  void refreshSceneList(const std::string& assetsDir);
  /// `path` was loaded at start (synchronously): remember it and its time.
  void started(const std::string& path);
  /// Loads a scene or mesh file (on the simulation thread) and shows its path.
  void load(ViewerContext& ctx, const std::string& path);
  /// Opens what was dropped on the window (a scene wins over meshes).
  void handleDrops(ViewerContext& ctx, std::vector<std::string> drops);
  /// Reloads the scene file when it changed on disk (at most twice a second).
  void checkReload(ViewerContext& ctx, const runtime::Snapshot& s);
  /// A new run: the file name "Save scene as" proposes (when the scene changed).
  void onNewRun(const runtime::Snapshot& s, bool sceneChanged);
  /// Writes the current scene to the "Save scene as" file, with a notice.
  void save(ViewerContext& ctx, const runtime::Snapshot& s);

  void draw(ViewerContext& ctx, const runtime::Snapshot& s);
  /// The file shown (the one loaded last, or being loaded).
  const std::string& currentPath() const { return currentPath_; }

 private:
  void drawSaveAs(ViewerContext& ctx, const runtime::Snapshot& s);
  /// The modification time of `path` when it is a scene file.
  void watch(const std::string& path);

  std::vector<std::string> scenes_;
  char openPath_[1024] = {};
  char savePath_[1024] = {};
  std::string currentPath_;
  std::optional<std::filesystem::file_time_type> sceneTime_;
  bool autoReload_ = true;
  double lastReloadCheck_ = 0.0;  // glfwGetTime() s
};

}  // namespace samara::app
