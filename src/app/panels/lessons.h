#pragma once
// Lessons (assets/lessons): the main menu bar's "Lessons" menu (by title), and the open
// lesson's text at the top of the right column (its room in the docked layout).
#include <optional>
#include <string>
#include <vector>

#include "app/context.h"

namespace samara::app {

class LessonsPanel {
 public:
  /// The lessons of `assetsDir`/lessons with their titles.
  void refresh(const std::string& assetsDir);
  /// The "Lessons" menu (inside the open main menu bar). Returns the lesson to open, if one
  /// was chosen; `currentPath` is the file shown (checked in the menu).
  std::optional<std::string> drawMenu(const std::string& currentPath);
  /// The height the lesson's paragraph needs in a panel `width` wide (0: no lesson).
  static float textHeight(const runtime::Snapshot& s, float width);
  /// The open lesson's paragraph (the scene's "lesson" key) in `room`.
  void drawText(const runtime::Snapshot& s, const Rect& room);

 private:
  struct Entry {
    std::string path;
    std::string title;
  };
  std::vector<Entry> lessons_;
};

}  // namespace samara::app
