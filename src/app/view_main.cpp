// samara_view: a standalone entry to the viewer for development and the headless test,
// until `samara view` is wired in src/cli.
//   samara_view [SCENE] [--frames N] [--screenshot out.png] [--set PATH=VALUE]...
//               [--width W] [--height H] [--realtime] [--ui-scale S]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/viewer.h"

namespace {

int usage(const char* message) {
  std::fprintf(stderr,
               "samara_view: %s\n"
               "usage: samara_view [SCENE] [--frames N] [--screenshot out.png] [--set PATH=VALUE]...\n"
               "                   [--width W] [--height H] [--realtime] [--ui-scale S] [--msaa N]\n",
               message);
  return 2;
}

bool parseInt(const char* s, int lo, int hi, int* out) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  samara::app::ViewerOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--frames" || a == "--width" || a == "--height") {
      const char* v = value();
      int* target = a == "--frames" ? &o.frames : a == "--width" ? &o.width : &o.height;
      if (!v || !parseInt(v, a == "--frames" ? 0 : 64, a == "--frames" ? 100000000 : 16384, target)) {
        return usage((a + " needs an integer").c_str());
      }
    } else if (a == "--screenshot") {
      const char* v = value();
      if (!v) return usage("--screenshot needs a file name");
      o.screenshotPath = v;
    } else if (a == "--set") {
      const char* v = value();
      const std::string s = v ? v : "";
      const std::size_t eq = s.find('=');
      if (eq == std::string::npos || eq == 0) return usage("--set needs PATH=VALUE");
      o.sets.emplace_back(s.substr(0, eq), s.substr(eq + 1));
    } else if (a == "--msaa") {
      const char* v = value();
      if (!v || !parseInt(v, 0, 16, &o.msaa)) return usage("--msaa needs 0..16");
    } else if (a == "--realtime") {
      o.realTime = true;
    } else if (a == "--ui-scale") {
      const char* v = value();
      if (!v) return usage("--ui-scale needs a number");
      o.uiScale = std::strtof(v, nullptr);
    } else if (a == "-h" || a == "--help") {
      usage("the interactive viewer");
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usage(("unknown option " + a).c_str());
    } else if (o.scenePath.empty()) {
      o.scenePath = a;
    } else {
      return usage(("unexpected argument " + a).c_str());
    }
  }
  if (!o.screenshotPath.empty() && o.frames == 0) return usage("--screenshot needs --frames N");
  return samara::app::runViewer(o);
}
