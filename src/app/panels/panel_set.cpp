#include "app/panels/panel_set.h"

#include <imgui.h>

#include <fstream>
#include <sstream>

#include "app/window.h"

namespace samara::app {

namespace {

constexpr const char* kNames[PanelSet::kCount] = {"controls", "teaching",    "plots",
                                                  "history",  "lesson text", "falling pattern"};

std::string digits(const std::array<bool, PanelSet::kCount>& f) {
  std::string s;
  for (bool b : f) s += b ? '1' : '0';
  return s;
}

bool parseDigits(const std::string& s, std::array<bool, PanelSet::kCount>* f) {
  if (s.size() != f->size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '0' && s[i] != '1') return false;
    (*f)[i] = s[i] == '1';
  }
  return true;
}

}  // namespace

bool PanelSet::shown(const ViewerContext& ctx, Panel p) const {
  const bool presenting = ctx.window != nullptr && ctx.window->presenting();
  return (presenting ? present_ : windowed_)[static_cast<std::size_t>(p)];
}

void PanelSet::drawMenu(ViewerContext& ctx) {
  const bool present = ctx.window->presenting();
  if (ImGui::MenuItem("presentation mode", "F11", present)) ctx.window->setPresentation(!present);
  ImGui::Separator();
  ImGui::TextDisabled(present ? "panels when presenting" : "panels");
  Flags& f = present ? present_ : windowed_;
  for (std::size_t i = 0; i < f.size(); ++i) {
    bool on = f[i];
    if (ImGui::MenuItem(kNames[i], nullptr, &on)) {
      f[i] = on;
      changed_ = true;
    }
  }
  ImGui::Separator();
  if (ImGui::MenuItem("reset layout")) {
    reset();
    changed_ = true;
  }
}

void PanelSet::presentOnly(const std::vector<std::string>& names) {
  if (lessonSet_) present_ = saved_;  // back to the user's set first
  lessonSet_ = !names.empty();
  if (!lessonSet_) return;
  saved_ = present_;
  static constexpr const char* kKeys[kCount] = {"controls", "teaching", "plots",
                                                "history",  "lesson",   "pattern"};
  for (std::size_t i = 0; i < present_.size(); ++i) {
    present_[i] = false;
    for (const std::string& n : names) present_[i] = present_[i] || n == kKeys[i];
  }
}

void PanelSet::reset() {
  windowed_ = kWindowed;
  present_ = kPresent;
}

std::string PanelSet::save() const {
  // A lesson's presenting set is not the user's: save the user's.
  return "windowed=" + digits(windowed_) + "\npresent=" + digits(lessonSet_ ? saved_ : present_) +
         "\n";
}

bool PanelSet::load(const std::string& text) {
  Flags w = windowed_, p = present_;
  bool seenW = false, seenP = false;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "windowed") seenW = parseDigits(value, &w);
    if (key == "present") seenP = parseDigits(value, &p);
  }
  if (!seenW || !seenP) return false;
  windowed_ = w;
  present_ = p;
  return true;
}

void PanelSet::loadFile(const std::string& path) {
  if (path.empty()) return;
  std::ifstream in(path);
  if (!in) return;
  std::ostringstream text;
  text << in.rdbuf();
  load(text.str());
}

bool PanelSet::saveFile(const std::string& path) const {
  if (path.empty()) return false;
  std::ofstream out(path);
  out << save();
  return static_cast<bool>(out);
}

bool PanelSet::takeChanged() {
  const bool c = changed_;
  changed_ = false;
  return c;
}

}  // namespace samara::app
