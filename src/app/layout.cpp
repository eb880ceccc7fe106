#include "app/layout.h"

#include <algorithm>

namespace samara::app {

Rect Rect::intersect(const Rect& o) const {
  Rect r;
  r.x = std::max(x, o.x);
  r.y = std::max(y, o.y);
  r.w = std::min(right(), o.right()) - r.x;
  r.h = std::min(bottom(), o.bottom()) - r.y;
  if (r.w <= 0.0f || r.h <= 0.0f) return Rect{};
  return r;
}

int Layout::panels(Rect out[6]) const {
  int n = 0;
  for (const Rect* r : {&controls, &teaching, &lesson, &patterns, &plots, &history}) {
    if (!r->empty()) out[n++] = *r;
  }
  return n;
}

float leftColumnWidth(float width, float uiScale, bool presenting) {
  const float cap = (presenting ? 0.24f : 0.26f) * width;
  return std::min(std::max(320.0f * uiScale, 240.0f), std::max(cap, 0.0f));
}

float rightColumnWidth(float width, float uiScale, bool presenting) {
  const float wanted = (presenting ? 440.0f : 400.0f) * uiScale;
  return std::min(std::max(wanted, 260.0f), std::max(0.30f * width, 0.0f));
}

float historyHeight(float lineHeight, bool presenting) {
  return lineHeight * (presenting ? 2.4f : 3.4f);
}

Layout computeLayout(const LayoutRequest& r) {
  Layout L;
  const float top = r.top;
  const float columnH = std::max(r.height - top, 0.0f);
  const bool left = r.controls || r.teaching;
  const bool right = r.plots || r.lesson || r.patterns;
  const float lw = left ? leftColumnWidth(r.width, r.uiScale, r.presenting) : 0.0f;
  const float rw = right ? rightColumnWidth(r.width, r.uiScale, r.presenting) : 0.0f;

  // Left column: the controls on top, the teaching panel at the bottom (at most 45 % of the
  // column when both are shown).
  if (left) {
    float teachH = 0.0f;
    if (r.teaching) {
      const float cap = r.controls ? 0.45f * columnH : columnH;
      teachH = std::clamp(r.teachingHeight, std::min(2.0f * r.lineHeight, cap), cap);
    }
    if (r.controls) L.controls = Rect{0.0f, top, lw, columnH - teachH};
    if (r.teaching) L.teaching = Rect{0.0f, top + columnH - teachH, lw, teachH};
  }

  // Right column: lesson text, falling pattern, then the plots in what is left.
  if (right) {
    const float x = r.width - rw;
    float y = top;
    float rest = columnH;
    // Presenting, the plots keep more of the column (the lesson text scrolls).
    const float lessonShare = r.presenting ? 0.32f : 0.45f;
    if (r.lesson) {
      const float cap = r.plots ? lessonShare * columnH : rest;
      const float h = std::clamp(r.lessonHeight, std::min(2.0f * r.lineHeight, cap), cap);
      L.lesson = Rect{x, y, rw, h};
      y += h;
      rest -= h;
    }
    if (r.patterns) {
      const float cap = r.plots ? (r.presenting ? 0.15f : 0.25f) * columnH : rest;
      const float h = std::clamp(r.patternsHeight, std::min(r.lineHeight, cap), cap);
      L.patterns = Rect{x, y, rw, h};
      y += h;
      rest -= h;
    }
    if (r.plots) L.plots = Rect{x, y, rw, std::max(rest, 0.0f)};
  }

  // History under the 3D view, between the columns.
  const float viewW = std::max(r.width - lw - rw, 0.0f);
  float viewH = columnH;
  if (r.history) {
    const float h = std::min(historyHeight(r.lineHeight, r.presenting), 0.5f * columnH);
    L.history = Rect{lw, top + columnH - h, viewW, h};
    viewH -= h;
  }
  L.view = Rect{lw, top, viewW, std::max(viewH, 0.0f)};
  return L;
}

}  // namespace samara::app
