#include "app/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "app/ticks.h"

namespace samara::app {

namespace {

/// A ghost run's line colour: the line's colour lightened towards white.
ImU32 ghostColor(ImU32 c) {
  ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  v.x += (1.0f - v.x) * 0.45f;
  v.y += (1.0f - v.y) * 0.45f;
  v.z += (1.0f - v.z) * 0.45f;
  v.w *= 0.9f;
  return ImGui::ColorConvertFloat4ToU32(v);
}

/// A dashed polyline (`dash` px drawn, `gap` px left out, along the arc length).
void dashedPolyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 color, float thickness,
                    float dash, float gap, std::vector<ImVec2>* scratch) {
  const float period = dash + gap;
  float phase = 0.0f;  // arc length into the current period
  scratch->clear();
  auto flush = [&] {
    if (scratch->size() >= 2) {
      dl->AddPolyline(scratch->data(), static_cast<int>(scratch->size()), color, 0, thickness);
    }
    scratch->clear();
  };
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    ImVec2 a = pts[i];
    const ImVec2 b = pts[i + 1];
    float len = std::hypot(b.x - a.x, b.y - a.y);
    while (len > 0.0f) {
      const bool on = phase < dash;
      const float left = on ? dash - phase : period - phase;
      const float take = std::min(left, len);
      const float f = take / len;
      const ImVec2 c(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f);
      if (on) {
        if (scratch->empty()) scratch->push_back(a);
        scratch->push_back(c);
      }
      phase += take;
      len -= take;
      a = c;
      if (phase >= period) phase -= period;
      if (on && phase >= dash) flush();
    }
  }
  flush();
}

}  // namespace

PlotWidget::PlotWidget(std::string title, std::string unit, std::vector<PlotLine> lines)
    : title_(std::move(title)), unit_(std::move(unit)), lines_(std::move(lines)) {}

void PlotWidget::draw(const std::vector<PlotSeries>& runs, PlotView* view, ImVec2 size) {
  ImGui::PushID(this);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lineH = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  size.x = std::max(size.x, 120.0f);
  // Several runs: a second legend row names them (solid = the main run, dashed = ghost).
  const bool runLegend = runs.size() > 1;
  const float top = runLegend ? 2.0f * lineH + 2.0f : lineH;
  size.y = std::max(size.y, 3.0f * lineH + top + 20.0f);

  // Title row: title [unit] on the left, the legend on the right (click toggles a line).
  const std::string heading = title_ + "  [" + unit_ + "]";
  dl->AddText(origin, ImGui::GetColorU32(ImGuiCol_Text), heading.c_str());
  float lx = origin.x + size.x;
  const float box = lineH * 0.6f;
  for (auto it = lines_.rbegin(); it != lines_.rend(); ++it) {
    const ImVec2 ts = ImGui::CalcTextSize(it->label.c_str());
    lx -= ts.x + box + style.ItemInnerSpacing.x * 3.0f;
    const ImVec2 a(lx, origin.y + (lineH - box) * 0.5f);
    const ImU32 c = it->visible ? it->color : ImGui::GetColorU32(ImGuiCol_TextDisabled);
    dl->AddRectFilled(a, ImVec2(a.x + box, a.y + box), c, 2.0f);
    dl->AddText(
        ImVec2(a.x + box + style.ItemInnerSpacing.x, origin.y),
        it->visible ? ImGui::GetColorU32(ImGuiCol_Text) : ImGui::GetColorU32(ImGuiCol_TextDisabled),
        it->label.c_str());
    if (ImGui::IsMouseHoveringRect(
            ImVec2(a.x, origin.y),
            ImVec2(a.x + box + ts.x + style.ItemInnerSpacing.x, origin.y + lineH)) &&
        ImGui::IsMouseClicked(0) && ImGui::IsWindowHovered()) {
      it->visible = !it->visible;
    }
  }

  if (runLegend) {
    float rx = origin.x + size.x;
    const float sample = lineH * 1.6f;
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      const ImVec2 ts = ImGui::CalcTextSize(it->label.c_str());
      rx -= ts.x + sample + style.ItemInnerSpacing.x * 3.0f;
      const float y = origin.y + lineH + 2.0f + lineH * 0.5f;
      const ImU32 c = ImGui::GetColorU32(ImGuiCol_Text, it->ghost ? 0.75f : 1.0f);
      if (it->ghost) {
        dashedPolyline(dl, {ImVec2(rx, y), ImVec2(rx + sample, y)}, c, 1.5f, 4.0f, 3.0f, &dash_);
      } else {
        dl->AddLine(ImVec2(rx, y), ImVec2(rx + sample, y), c, 1.5f);
      }
      dl->AddText(ImVec2(rx + sample + style.ItemInnerSpacing.x, origin.y + lineH + 2.0f), c,
                  it->label.c_str());
    }
  }

  // Plot frame.
  const float labelW = ImGui::CalcTextSize("-0.0000").x + style.ItemInnerSpacing.x;
  const ImVec2 p0(origin.x + labelW, origin.y + top + 4.0f);
  const ImVec2 p1(origin.x + size.x - 4.0f, origin.y + size.y - lineH - 4.0f);
  ImGui::SetCursorScreenPos(p0);
  ImGui::InvisibleButton("plot", ImVec2(std::max(p1.x - p0.x, 1.0f), std::max(p1.y - p0.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0.0f));

  const double t1 = view->tEnd;
  const double t0 = t1 - view->window;
  const float w = p1.x - p0.x, h = p1.y - p0.y;

  // Interaction: the wheel sets the window length; a drag pans while frozen.
  if (hovered) {
    const float wheel = ImGui::GetIO().MouseWheel;
    if (wheel != 0.0f) view->window = std::clamp(view->window * std::pow(0.85, wheel), 0.01, 1e5);
  }
  if (active && view->frozen) {
    const float dx = ImGui::GetIO().MouseDelta.x;
    view->tEnd -= static_cast<double>(dx) / std::max(w, 1.0f) * view->window;
  }

  // Visible samples of each run and the y range (nice bounds around the visible data).
  struct Range {
    std::size_t i0 = 0, i1 = 0;
  };
  std::vector<Range> ranges(runs.size());
  double ylo = 1e300, yhi = -1e300;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const runtime::TimeSeries* series = runs[r].series;
    if (!series || series->empty()) continue;
    std::size_t i0 = series->lowerBound(t0);
    if (i0 > 0) --i0;  // one sample before, so the line reaches the left edge
    const std::size_t i1 = std::min(series->lowerBound(t1) + 1, series->size());
    ranges[r] = Range{i0, i1};
    for (const PlotLine& l : lines_) {
      if (!l.visible) continue;
      for (std::size_t i = i0; i < i1; ++i) {
        const double v = series->value(i, l.channel);
        if (!std::isfinite(v)) continue;
        ylo = std::min(ylo, v);
        yhi = std::max(yhi, v);
      }
    }
  }
  if (ylo > yhi) {
    ylo = 0.0;
    yhi = 1.0;
  }
  const double pad = 0.05 * (yhi - ylo);
  ylo -= pad;
  yhi += pad;
  niceRange(&ylo, &yhi, 4);
  auto xOf = [&](double t) { return p0.x + static_cast<float>((t - t0) / (t1 - t0)) * w; };
  auto yOf = [&](double v) { return p1.y - static_cast<float>((v - ylo) / (yhi - ylo)) * h; };

  dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  dl->PushClipRect(ImVec2(origin.x, origin.y), ImVec2(origin.x + size.x, origin.y + size.y), true);
  const ImU32 gridCol = ImGui::GetColorU32(ImGuiCol_Border, 0.6f);
  const ImU32 textCol = ImGui::GetColorU32(ImGuiCol_Text, 0.8f);
  const Ticks yt = computeTicks(ylo, yhi, 4);
  for (double v : yt.values) {
    const float y = yOf(v);
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y),
                v == 0.0 ? ImGui::GetColorU32(ImGuiCol_Text, 0.5f) : gridCol);
    const std::string s = formatTick(v, yt.step);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(p0.x - ts.x - style.ItemInnerSpacing.x * 0.5f, y - ts.y * 0.5f), textCol,
                s.c_str());
  }
  // Time axis: tick labels, and the unit at the right end (labels that would overlap it
  // are left out).
  const char* unitX = "t [s]";
  const float unitW = ImGui::CalcTextSize(unitX).x;
  dl->AddText(ImVec2(p1.x - unitW, p1.y + 2.0f), textCol, unitX);
  const Ticks xt = computeTicks(t0, t1, std::max(2, static_cast<int>(w / (lineH * 6.0f))));
  for (double t : xt.values) {
    const float x = xOf(t);
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), gridCol);
    const std::string s = formatTick(t, xt.step);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    if (x + ts.x * 0.5f > p1.x - unitW - style.ItemInnerSpacing.x) continue;
    dl->AddText(ImVec2(x - ts.x * 0.5f, p1.y + 2.0f), textCol, s.c_str());
  }
  dl->PopClipRect();

  // Lines, decimated to min/max per pixel column; ghosts first, so the main run is on top.
  dl->PushClipRect(p0, p1, true);
  for (std::size_t rr = runs.size(); rr-- > 0;) {
    const runtime::TimeSeries* series = runs[rr].series;
    const std::size_t i0 = ranges[rr].i0, i1 = ranges[rr].i1;
    if (!series || i1 <= i0) continue;
    const bool ghost = runs[rr].ghost;
    for (const PlotLine& l : lines_) {
      if (!l.visible) continue;
      points_.clear();
      int column = -1000000;
      float cmin = 0, cmax = 0, cfirst = 0, clast = 0;
      bool minFirst = true;
      auto flush = [&]() {
        if (column == -1000000) return;
        const float x = p0.x + static_cast<float>(column);
        points_.emplace_back(x, cfirst);
        if (cmin != cfirst && cmin != clast) points_.emplace_back(x, minFirst ? cmin : cmax);
        if (cmax != cfirst && cmax != clast) points_.emplace_back(x, minFirst ? cmax : cmin);
        if (clast != cfirst) points_.emplace_back(x, clast);
      };
      for (std::size_t i = i0; i < i1; ++i) {
        const double v = series->value(i, l.channel);
        if (!std::isfinite(v)) continue;
        const float x = xOf(series->time(i));
        const float y = yOf(v);
        const int c = static_cast<int>(std::floor(x - p0.x));
        if (c != column) {
          flush();
          column = c;
          cmin = cmax = cfirst = clast = y;
          minFirst = true;
        } else {
          if (y < cmin) {
            cmin = y;
            minFirst = false;
          }
          if (y > cmax) {
            cmax = y;
            minFirst = true;
          }
          clast = y;
        }
      }
      flush();
      const ImU32 color = ghost ? ghostColor(l.color) : l.color;
      if (points_.size() >= 2 && ghost) {
        dashedPolyline(dl, points_, color, 1.5f, 6.0f, 4.0f, &dash_);
      } else if (points_.size() >= 2) {
        dl->AddPolyline(points_.data(), static_cast<int>(points_.size()), color, 0, 1.5f);
      } else if (points_.size() == 1) {
        dl->AddCircleFilled(points_[0], 2.0f, color);
      }
    }
  }

  // The scrubbed time: the recorded step shown in the 3D view.
  if (view->cursorT >= t0 && view->cursorT <= t1) {
    const ImU32 cursorCol = IM_COL32(255, 160, 40, 255);
    const float x = xOf(view->cursorT);
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), cursorCol, 2.0f);
    for (const PlotSeries& run : runs) {
      const runtime::TimeSeries* series = run.series;
      if (!series || series->empty()) continue;
      const std::size_t k = series->nearest(view->cursorT);
      for (const PlotLine& l : lines_) {
        if (!l.visible) continue;
        dl->AddCircle(ImVec2(xOf(series->time(k)), yOf(series->value(k, l.channel))), 4.0f,
                      cursorCol, 0, 1.5f);
      }
    }
  }
  // Cursor (shared by all plots) and the readout of the hovered plot.
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x;
    view->nextHoverT = t0 + static_cast<double>((mx - p0.x) / std::max(w, 1.0f)) * (t1 - t0);
  }
  if (view->hoverT >= t0 && view->hoverT <= t1) {
    const float x = xOf(view->hoverT);
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
    bool tooltip = false;
    for (const PlotSeries& run : runs) {
      const runtime::TimeSeries* series = run.series;
      if (!series || series->empty()) continue;
      const std::size_t k = series->nearest(view->hoverT);
      const float sx = xOf(series->time(k));
      for (const PlotLine& l : lines_) {
        if (!l.visible) continue;
        const ImU32 color = run.ghost ? ghostColor(l.color) : l.color;
        dl->AddCircleFilled(ImVec2(sx, yOf(series->value(k, l.channel))), 3.0f, color);
      }
      if (hovered) {
        if (!tooltip) ImGui::BeginTooltip();
        if (!tooltip || runLegend) {
          if (runLegend) ImGui::TextUnformatted(run.label.c_str());
          ImGui::Text("t = %.6g s", series->time(k));
        }
        tooltip = true;
        for (const PlotLine& l : lines_) {
          if (!l.visible) continue;
          const ImU32 color = run.ghost ? ghostColor(l.color) : l.color;
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color), "%s = %.6g %s", l.label.c_str(),
                             series->value(k, l.channel), unit_.c_str());
        }
      }
    }
    if (tooltip) ImGui::EndTooltip();
  }
  dl->PopClipRect();
  dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
  ImGui::PopID();
}

}  // namespace samara::app
