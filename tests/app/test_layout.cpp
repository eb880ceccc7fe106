// The docked layout: the panels tile the window around the 3D view, never over it, and the
// view keeps its share of the screen at a projector's and a monitor's size.
#include <algorithm>
#include <catch2/catch.hpp>

#include "app/layout.h"

using samara::app::computeLayout;
using samara::app::Layout;
using samara::app::LayoutRequest;
using samara::app::Rect;

namespace {

LayoutRequest request(float w, float h, bool presenting) {
  LayoutRequest r;
  r.width = w;
  r.height = h;
  // The presentation scale of Window::setPresentation: 1.75 on 1080 lines, in proportion
  // below (at least 1.3); a row is ~27 units at scale 1.
  r.uiScale = presenting ? std::clamp(1.75f * h / 1080.0f, 1.3f, 2.5f) : 1.0f;
  r.lineHeight = 27.0f * r.uiScale;
  r.top = 21.0f * r.uiScale;  // the menu bar
  r.presenting = presenting;
  r.lesson = true;
  r.lessonHeight = 400.0f;
  r.patternsHeight = 60.0f;
  r.teachingHeight = 900.0f;  // overlays on: its tables want more than the screen
  if (presenting) {
    r.controls = false;
    r.teaching = false;
  }
  return r;
}

void checkTiles(const Layout& L, const LayoutRequest& r) {
  Rect panels[6];
  const int n = L.panels(panels);
  REQUIRE(n >= 2);
  float covered = L.view.area();
  for (int i = 0; i < n; ++i) {
    INFO("panel " << i << " at " << panels[i].x << ", " << panels[i].y << " size " << panels[i].w
                  << " x " << panels[i].h);
    CHECK(L.view.intersect(panels[i]).empty());
    CHECK(panels[i].x >= 0.0f);
    CHECK(panels[i].right() <= r.width + 1e-3f);
    CHECK(panels[i].y >= r.top);
    CHECK(panels[i].bottom() <= r.height + 1e-3f);
    for (int j = 0; j < i; ++j) CHECK(panels[i].intersect(panels[j]).empty());
    covered += panels[i].area();
  }
  // Panels and view tile the work area: no gaps, no overlaps.
  CHECK(covered == Approx(r.width * (r.height - r.top)).epsilon(1e-4));
}

}  // namespace

TEST_CASE("layout: panels tile the window around the 3D view", "[app][layout]") {
  for (const auto& [w, h] :
       {std::pair{1280.0f, 800.0f}, std::pair{1920.0f, 1080.0f}, std::pair{960.0f, 600.0f}}) {
    for (bool presenting : {false, true}) {
      INFO(w << " x " << h << (presenting ? ", presenting" : ", windowed"));
      const LayoutRequest r = request(w, h, presenting);
      const Layout L = computeLayout(r);
      checkTiles(L, r);
      const float share = L.view.area() / (w * h);
      if (presenting) {
        CHECK(share >= 0.55f);  // the floor for a lecture hall
      } else {
        CHECK(share >= 0.35f);
      }
      // The teaching panel's tables never take more than 45 % of the column under the
      // controls; the lesson text leaves the plots at least half the column.
      if (!presenting) CHECK(L.teaching.h <= 0.45f * (h - r.top) + 1e-3f);
      CHECK(L.lesson.h <= 0.45f * (h - r.top) + 1e-3f);
      CHECK(L.plots.h >= 0.3f * (h - r.top));
    }
  }
}

TEST_CASE("layout: hidden panels give their room to the view", "[app][layout]") {
  LayoutRequest r = request(1280.0f, 800.0f, false);
  const Layout all = computeLayout(r);
  r.controls = r.teaching = false;
  const Layout noLeft = computeLayout(r);
  CHECK(noLeft.view.x == 0.0f);
  CHECK(noLeft.view.w == Approx(all.view.w + all.controls.w));
  r.plots = r.lesson = r.patterns = false;
  r.history = false;
  const Layout none = computeLayout(r);
  CHECK(none.view.w == 1280.0f);
  CHECK(none.view.h == 800.0f - r.top);
  Rect panels[6];
  CHECK(none.panels(panels) == 0);
}

TEST_CASE("layout: columns keep their width bounds", "[app][layout]") {
  using samara::app::leftColumnWidth;
  using samara::app::rightColumnWidth;
  CHECK(leftColumnWidth(1920.0f, 1.0f, false) == 320.0f);
  CHECK(leftColumnWidth(1280.0f, 2.0f, false) == Approx(0.26f * 1280.0f));
  CHECK(rightColumnWidth(1920.0f, 1.0f, false) == 400.0f);
  CHECK(rightColumnWidth(1280.0f, 1.75f, true) == Approx(0.30f * 1280.0f));
  CHECK(rightColumnWidth(800.0f, 0.5f, false) == Approx(240.0f));  // 30 % of 800 caps the 260 floor
}
