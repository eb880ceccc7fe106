// Layout check (issue 14): runs the viewer under xvfb-run on an X screen of exactly WIDTH x
// HEIGHT (windowed: a window of that size; --present: full screen), writes its layout
// report (samara view --layout-report) and a screenshot, and checks, from the report's
// rectangles and the camera's projection (not from pixels):
// - the 3D view keeps at least 55 % of the screen when presenting, 35 % windowed;
// - every body lies in front of the camera, inside its pane (the view, or its pane of a
//   split view), is covered by no panel (no visible ImGui window overlaps its projected
//   bounding box), and covers at least 0.5 % of its viewport (the bounding box's area over
//   the pane's: the whole 3D view, or the body's pane of a split view); in a crowd (at
//   least 16 bodies, app::kCrowdBodies: the camera frames the group, whose members may be a
//   few pixels each) the group's box covers at least 10 % of the view instead;
// - no panel's items reach past its right edge (ImGui's content width of the last frame
//   against the width inside its padding, for windows without a horizontal scroll bar).
// Exit codes: 0 pass, 1 fail, 77 skip (xvfb-run is not installed).
//   check_layout SAMARA SCENE OUT_PREFIX FRAMES WIDTH HEIGHT [--present] [VIEWER OPTION...]
// (writes OUT_PREFIX.json and OUT_PREFIX.png)
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace fs = std::filesystem;

namespace {

bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  const std::string p = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t end = std::min(p.find(':', start), p.size());
    std::error_code ec;
    if (fs::exists(fs::path(p.substr(start, end - start)) / program, ec)) return true;
    start = end + 1;
  }
  return false;
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Box {
  double x0, y0, x1, y1;
  double area() const { return std::max(0.0, x1 - x0) * std::max(0.0, y1 - y0); }
  bool overlaps(const Box& o) const {
    return std::min(x1, o.x1) - std::max(x0, o.x0) > 0.5 &&
           std::min(y1, o.y1) - std::max(y0, o.y0) > 0.5;
  }
};

Box fromRect(const nlohmann::json& r) {
  const double x = r[0], y = r[1], w = r[2], h = r[3];
  return Box{x, y, x + w, y + h};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr,
                 "usage: check_layout SAMARA SCENE OUT_PREFIX FRAMES WIDTH HEIGHT [--present] "
                 "[VIEWER OPTION...]\n");
    return 2;
  }
  const std::string viewer = argv[1], scene = argv[2], prefix = argv[3];
  const int frames = std::atoi(argv[4]), width = std::atoi(argv[5]), height = std::atoi(argv[6]);
  bool present = false;
  std::string extra;
  for (int i = 7; i < argc; ++i) {
    const std::string a = argv[i];
    present = present || a == "--present";
    extra += " " + quote(a);
  }
  if (!onPath("xvfb-run")) {
    std::printf("SKIP: xvfb-run is not installed (Debian: xvfb, xauth)\n");
    return 77;
  }
  const std::string json = prefix + ".json", png = prefix + ".png";
  std::error_code ec;
  fs::remove(json, ec);
  // An authority file of our own (check_screenshot.cpp says why).
  const std::string auth = prefix + ".xauth";
  fs::remove(auth, ec);
  const std::string cmd =
      "xvfb-run -a -f " + quote(auth) + " -s " +
      quote("-screen 0 " + std::to_string(width) + "x" + std::to_string(height) + "x24") + " " +
      quote(viewer) + " view " + quote(scene) + " --frames " + std::to_string(frames) +
      " --width " + std::to_string(width) + " --height " + std::to_string(height) +
      " --layout-report " + quote(json) + " --screenshot " + quote(png) + extra + " 2>&1";
  std::printf("running: %s\n", cmd.c_str());
  const int status = std::system(cmd.c_str());
  fs::remove(auth, ec);
  if (status != 0) {
    std::printf("FAIL: the viewer exited with status %d\n", status);
    return 1;
  }
  nlohmann::json report;
  try {
    std::ifstream in(json);
    report = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    std::printf("FAIL: %s: %s\n", json.c_str(), e.what());
    return 1;
  }
  bool ok = true;
  const double screenW = report["window"][0], screenH = report["window"][1];
  const Box view = fromRect(report["view"]);
  const double share = view.area() / (screenW * screenH);
  const double minShare = present ? 0.55 : 0.35;
  std::printf("screen %.0f x %.0f, 3D view %.0f x %.0f (%.1f %%)\n", screenW, screenH,
              view.x1 - view.x0, view.y1 - view.y0, 100.0 * share);
  if (share < minShare) {
    std::printf("FAIL: the 3D view has %.1f %% of the screen (at least %.0f %%)\n", 100.0 * share,
                100.0 * minShare);
    ok = false;
  }
  // No panel's items reach past its edge (a row of widgets that did not wrap).
  for (const auto& p : report["panels"]) {
    if (!p.contains("content_width")) continue;
    const double content = p["content_width"], room = p["room"];
    if (!p["scroll_x"].get<bool>() && content > room + 1.0) {
      std::printf("FAIL: panel \"%s\": its items reach %.0f px across, it has %.0f\n",
                  p["name"].get<std::string>().c_str(), content, room);
      ok = false;
    }
  }
  const auto& bodies = report["bodies"];
  if (bodies.empty()) {
    std::printf("FAIL: no bodies in the report\n");
    ok = false;
  }
  // app::kCrowdBodies, counted as the viewer counts them: the scene's bodies, not ghosts.
  const auto members = std::count_if(bodies.begin(), bodies.end(), [](const nlohmann::json& b) {
    return !b["ghost"].get<bool>();
  });
  const bool crowd = members >= 16;
  Box group{1e30, 1e30, -1e30, -1e30};
  for (const auto& b : bodies) {
    const std::string name = b["name"].get<std::string>() + (b["ghost"] ? " (ghost)" : "");
    const Box box{b["bbox"][0], b["bbox"][1], b["bbox"][2], b["bbox"][3]};
    const Box pane = fromRect(b["pane"]);
    const double cover = box.area() / pane.area();
    group = Box{std::min(group.x0, box.x0), std::min(group.y0, box.y0), std::max(group.x1, box.x1),
                std::max(group.y1, box.y1)};
    if (!crowd) {
      std::printf("body %s: box (%.0f, %.0f)-(%.0f, %.0f), %.2f %% of its pane\n", name.c_str(),
                  box.x0, box.y0, box.x1, box.y1, 100.0 * cover);
    }
    if (b["behind"]) {
      std::printf("FAIL: %s is (partly) behind the camera\n", name.c_str());
      ok = false;
    }
    if (box.x0 < pane.x0 - 1 || box.y0 < pane.y0 - 1 || box.x1 > pane.x1 + 1 ||
        box.y1 > pane.y1 + 1) {
      std::printf("FAIL: %s leaves its pane (%.0f, %.0f)-(%.0f, %.0f)\n", name.c_str(), pane.x0,
                  pane.y0, pane.x1, pane.y1);
      ok = false;
    }
    if (!crowd && cover < 0.005) {
      std::printf("FAIL: %s covers %.2f %% of its viewport (at least 0.5 %%)\n", name.c_str(),
                  100.0 * cover);
      ok = false;
    }
    for (const auto& p : report["panels"]) {
      if (box.overlaps(fromRect(p["rect"]))) {
        std::printf("FAIL: panel \"%s\" covers %s\n", p["name"].get<std::string>().c_str(),
                    name.c_str());
        ok = false;
      }
    }
  }
  if (crowd) {
    const double cover = group.area() / view.area();
    std::printf("crowd of %zu bodies: box (%.0f, %.0f)-(%.0f, %.0f), %.1f %% of the view\n",
                static_cast<std::size_t>(members), group.x0, group.y0, group.x1, group.y1,
                100.0 * cover);
    if (cover < 0.10) {
      std::printf("FAIL: the crowd covers %.1f %% of the view (at least 10 %%)\n", 100.0 * cover);
      ok = false;
    }
  }
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
