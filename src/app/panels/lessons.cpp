#include "app/panels/lessons.h"

#include <algorithm>
#include <filesystem>

#include "app/widgets/widgets.h"
#include "io/scene.h"

namespace samara::app {

namespace fs = std::filesystem;

void LessonsPanel::refresh(const std::string& assetsDir) {
  lessons_.clear();
  if (assetsDir.empty()) return;
  std::error_code ec;
  const fs::path dir = fs::path(assetsDir) / "lessons";
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

std::optional<std::string> LessonsPanel::drawMenu(const std::string& currentPath) {
  std::optional<std::string> open;
  if (ImGui::BeginMenu("Lessons")) {
    if (lessons_.empty()) ImGui::TextDisabled("no lessons found (assets/lessons)");
    for (const Entry& l : lessons_) {
      if (ImGui::MenuItem(l.title.c_str(), nullptr, currentPath == l.path)) open = l.path;
    }
    ImGui::EndMenu();
  }
  return open;
}

namespace {

std::string lessonTitle(const runtime::Snapshot& s) {
  return "Lesson: " + s.lessonTitle + "###lesson";
}

}  // namespace

float LessonsPanel::textHeight(const runtime::Snapshot& s, float width) {
  if (s.lessonText.empty()) return 0.0f;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float wrap = width - 2.0f * st.WindowPadding.x - st.ScrollbarSize;
  const ImVec2 text = ImGui::CalcTextSize(s.lessonText.c_str(), nullptr, false, wrap);
  return ImGui::GetFrameHeight() + text.y + 2.0f * st.WindowPadding.y + 2.0f;
}

void LessonsPanel::drawText(const runtime::Snapshot& s, const Rect& room) {
  if (s.lessonText.empty() || room.empty()) return;
  placeDocked(room);
  if (ImGui::Begin(lessonTitle(s).c_str(), nullptr, kDockedFlags)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(s.lessonText.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace samara::app
