#pragma once
// Lessons (assets/lessons): the main menu bar's "Lessons" menu (by title) and "View" menu
// (presentation mode), and the open lesson's text at the bottom left of the 3D view.
#include <optional>
#include <string>
#include <vector>

#include "app/context.h"

namespace samara::app {

class LessonsPanel {
 public:
  /// The lessons of `assetsDir`/lessons with their titles.
  void refresh(const std::string& assetsDir);
  /// The main menu bar. Returns the lesson to open, if one was chosen; `currentPath` is
  /// the file shown (checked in the menu). The View menu toggles presentation mode.
  std::optional<std::string> drawMenu(ViewerContext& ctx, const std::string& currentPath);
  /// The open lesson's paragraph (the scene's "lesson" key).
  void drawText(const ViewerContext& ctx, const runtime::Snapshot& s);

 private:
  struct Entry {
    std::string path;
    std::string title;
  };
  std::vector<Entry> lessons_;
  bool showText_ = true;
};

}  // namespace samara::app
