#include "app/panels/lessons.h"

#include <algorithm>
#include <filesystem>

#include "app/window.h"
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

std::optional<std::string> LessonsPanel::drawMenu(ViewerContext& ctx,
                                                  const std::string& currentPath) {
  if (!ImGui::BeginMainMenuBar()) return std::nullopt;
  std::optional<std::string> open;
  if (ImGui::BeginMenu("Lessons")) {
    if (lessons_.empty()) ImGui::TextDisabled("no lessons found (assets/lessons)");
    for (const Entry& l : lessons_) {
      if (ImGui::MenuItem(l.title.c_str(), nullptr, currentPath == l.path)) {
        open = l.path;
        showText_ = true;
      }
    }
    ImGui::Separator();
    ImGui::MenuItem("show the lesson text", nullptr, &showText_);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    const bool present = ctx.window->presenting();
    if (ImGui::MenuItem("presentation mode", "F11", present)) ctx.window->setPresentation(!present);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
  return open;
}

void LessonsPanel::drawText(const ViewerContext& ctx, const runtime::Snapshot& s) {
  if (!showText_ || s.lessonText.empty()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float uiScale = ctx.window->uiScale();
  // Bottom left of the 3D view (the free part between the panels), above the History bar.
  const float left = std::max(ctx.layout.left, vp->WorkPos.x) + 8.0f;
  const float right = ctx.layout.rightEdge(*vp, left);
  const float width = std::clamp(right - left - 8.0f, 200.0f, 460.0f * uiScale);
  ImGui::SetNextWindowPos(ImVec2(left, vp->WorkPos.y + vp->WorkSize.y - 8.0f - 120.0f * uiScale),
                          ImGuiCond_Appearing, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Appearing);
  const std::string title = "Lesson: " + s.lessonTitle + "###lesson";
  if (ImGui::Begin(title.c_str(), &showText_)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(s.lessonText.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace samara::app
