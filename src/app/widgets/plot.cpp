#include "app/widgets/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "app/widgets/ticks.h"

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

/// The plot's axes on screen: the time range [t0, t1] and value range [ylo, yhi] mapped to
/// the rectangle p0 (top left) … p1 (bottom right).
struct PlotFrame {
  ImVec2 p0, p1;
  double t0 = 0.0, t1 = 1.0, ylo = 0.0, yhi = 1.0;
  [[nodiscard]] float width() const { return p1.x - p0.x; }
  [[nodiscard]] float height() const { return p1.y - p0.y; }
  [[nodiscard]] float x(double t) const {
    return p0.x + static_cast<float>((t - t0) / (t1 - t0)) * width();
  }
  [[nodiscard]] float y(double v) const {
    return p1.y - static_cast<float>((v - ylo) / (yhi - ylo)) * height();
  }
};

namespace {

/// Min/max per pixel column of one line: the points that draw it without losing extremes.
class ColumnDecimator {
 public:
  ColumnDecimator(float x0, std::vector<ImVec2>* points) : x0_(x0), points_(points) {
    points_->clear();
  }
  void add(float x, float y) {
    const int c = static_cast<int>(std::floor(x - x0_));
    if (c != column_) {
      flush();
      column_ = c;
      cmin_ = cmax_ = cfirst_ = clast_ = y;
      minFirst_ = true;
      return;
    }
    if (y < cmin_) {
      cmin_ = y;
      minFirst_ = false;
    }
    if (y > cmax_) {
      cmax_ = y;
      minFirst_ = true;
    }
    clast_ = y;
  }
  void flush() {
    if (column_ == kNone) return;
    const float x = x0_ + static_cast<float>(column_);
    points_->emplace_back(x, cfirst_);
    if (cmin_ != cfirst_ && cmin_ != clast_) points_->emplace_back(x, minFirst_ ? cmin_ : cmax_);
    if (cmax_ != cfirst_ && cmax_ != clast_) points_->emplace_back(x, minFirst_ ? cmax_ : cmin_);
    if (clast_ != cfirst_) points_->emplace_back(x, clast_);
  }

 private:
  static constexpr int kNone = -1000000;
  float x0_;
  std::vector<ImVec2>* points_;
  int column_ = kNone;
  float cmin_ = 0, cmax_ = 0, cfirst_ = 0, clast_ = 0;
  bool minFirst_ = true;
};

}  // namespace

PlotWidget::PlotWidget(std::string title, std::string unit, std::vector<PlotLine> lines)
    : title_(std::move(title)), unit_(std::move(unit)), lines_(std::move(lines)) {}

namespace {

/// Whether the runs are bodies in their own colours (only the summary lines are drawn).
bool bodyColoured(const std::vector<PlotSeries>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const PlotSeries& r) { return r.color != 0; });
}

/// Rows of the runs' legend in `width` (greedy, left to right): the x of each entry's start
/// and its row.
std::vector<std::pair<float, int>> runLegendPlaces(const std::vector<PlotSeries>& runs, float width,
                                                   int* rows) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float sample = ImGui::GetTextLineHeight() * 1.6f;
  std::vector<std::pair<float, int>> places;
  float x = 0.0f;
  int row = 0;
  for (const PlotSeries& r : runs) {
    const float w = sample + style.ItemInnerSpacing.x + ImGui::CalcTextSize(r.label.c_str()).x +
                    style.ItemInnerSpacing.x * 3.0f;
    if (x > 0.0f && x + w > width) {
      x = 0.0f;
      ++row;
    }
    places.emplace_back(x, row);
    x += w;
  }
  *rows = runs.empty() ? 0 : row + 1;
  return places;
}

/// The runs' legend from `origin`, wrapped in `width`: a line sample in each run's colour
/// (dashed for a ghost) and its label. Returns the rows used.
int runLegendRows(ImDrawList* dl, const std::vector<PlotSeries>& runs, ImVec2 origin, float width,
                  std::vector<ImVec2>* dash) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lineH = ImGui::GetTextLineHeight();
  int rows = 0;
  const std::vector<std::pair<float, int>> places = runLegendPlaces(runs, width, &rows);
  const float sample = lineH * 1.6f;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const PlotSeries& r = runs[i];
    const float rx = origin.x + places[i].first;
    const float ry = origin.y + static_cast<float>(places[i].second) * (lineH + 2.0f);
    const float y = ry + lineH * 0.5f;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text, r.ghost ? 0.75f : 1.0f);
    const ImU32 c = r.color != 0 ? (r.ghost ? ghostColor(r.color) : r.color) : text;
    if (r.ghost) {
      dashedPolyline(dl, {ImVec2(rx, y), ImVec2(rx + sample, y)}, c, 2.0f, 4.0f, 3.0f, dash);
    } else {
      dl->AddLine(ImVec2(rx, y), ImVec2(rx + sample, y), c, 2.5f);
    }
    dl->AddText(ImVec2(rx + sample + style.ItemInnerSpacing.x, ry), text, r.label.c_str());
  }
  return rows;
}

}  // namespace

float PlotWidget::headerHeight(const std::vector<PlotSeries>& runs, float width) const {
  const float lineH = ImGui::GetTextLineHeight();
  int runRows = 0;
  if (runs.size() > 1) runLegendPlaces(runs, width, &runRows);
  const float rows =
      (legendBelow(width) ? 2.0f : 1.0f) + static_cast<float>(runs.size() > 1 ? runRows : 0);
  return rows * lineH + (rows - 1.0f) * 2.0f;
}

bool PlotWidget::legendBelow(float width) const {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float box = ImGui::GetTextLineHeight() * 0.6f;
  float need = ImGui::CalcTextSize((title_ + "  [" + unit_ + "]").c_str()).x;
  for (const PlotLine& l : lines_) {
    need += ImGui::CalcTextSize(l.label.c_str()).x + box + style.ItemInnerSpacing.x * 3.0f;
  }
  return need > width;
}

void PlotWidget::drawLegends(const std::vector<PlotSeries>& runs, ImVec2 origin, float width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lineH = ImGui::GetTextLineHeight();
  const bool bodies = bodyColoured(runs);
  // Title row: title [unit] on the left, the legend on the right (click toggles a line); in
  // a narrow panel the legend gets a row of its own under the title. Bodies in their own
  // colours: only the summary lines are drawn, and listed.
  const std::string heading = title_ + "  [" + unit_ + "]";
  dl->AddText(origin, ImGui::GetColorU32(ImGuiCol_Text), heading.c_str());
  if (legendBelow(width)) origin.y += lineH + 2.0f;
  float lx = origin.x + width;
  const float box = lineH * 0.6f;
  for (auto it = lines_.rbegin(); it != lines_.rend(); ++it) {
    if (bodies && !it->summary) continue;
    const ImVec2 ts = ImGui::CalcTextSize(it->label.c_str());
    lx -= ts.x + box + style.ItemInnerSpacing.x * 3.0f;
    const ImVec2 a(lx, origin.y + (lineH - box) * 0.5f);
    const ImU32 c = !it->visible ? ImGui::GetColorU32(ImGuiCol_TextDisabled)
                    : bodies     ? ImGui::GetColorU32(ImGuiCol_Text)
                                 : it->color;
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
  if (runs.size() <= 1) return;
  // Several runs: legend rows under the title's (solid = a main run, dashed = a ghost; a
  // body's own colour when the runs are bodies).
  runLegendRows(dl, runs, ImVec2(origin.x, origin.y + lineH + 2.0f), width, &dash_);
}

std::vector<PlotWidget::Range> PlotWidget::visibleRanges(const std::vector<PlotSeries>& runs,
                                                         double t0, double t1, bool fitGhosts,
                                                         double* ylo, double* yhi) const {
  std::vector<Range> ranges(runs.size());
  double lo = 1e300, hi = -1e300;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const runtime::TimeSeries* series = runs[r].series;
    if (!series || series->empty()) continue;
    std::size_t i0 = series->lowerBound(t0);
    if (i0 > 0) --i0;  // one sample before, so the line reaches the left edge
    const std::size_t i1 = std::min(series->lowerBound(t1) + 1, series->size());
    ranges[r] = Range{i0, i1};
    if (runs[r].ghost && !fitGhosts) continue;  // drawn, clipped, but not setting the axis
    for (const PlotLine& l : lines_) {
      if (!drawn(l, runs[r])) continue;
      for (std::size_t i = i0; i < i1; ++i) {
        const double v = denoised(series->value(i, l.channel), zeroBelow_);
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
  }
  plotRange(lo, hi, floor_, ylo, yhi, 4);
  return ranges;
}

void PlotWidget::drawAxes(const PlotFrame& f, ImVec2 origin, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lineH = ImGui::GetTextLineHeight();
  dl->AddRectFilled(f.p0, f.p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  dl->PushClipRect(ImVec2(origin.x, origin.y), ImVec2(origin.x + size.x, origin.y + size.y), true);
  const ImU32 gridCol = ImGui::GetColorU32(ImGuiCol_Border, 0.6f);
  const ImU32 textCol = ImGui::GetColorU32(ImGuiCol_Text, 0.8f);
  const Ticks yt = computeTicks(f.ylo, f.yhi, 4);
  for (double v : yt.values) {
    const float y = f.y(v);
    dl->AddLine(ImVec2(f.p0.x, y), ImVec2(f.p1.x, y),
                v == 0.0 ? ImGui::GetColorU32(ImGuiCol_Text, 0.5f) : gridCol);
    const std::string s = formatTick(v, yt.step);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(f.p0.x - ts.x - style.ItemInnerSpacing.x * 0.5f, y - ts.y * 0.5f), textCol,
                s.c_str());
  }
  // Time axis: tick labels, and the unit at the right end (labels that would overlap it
  // are left out).
  const char* unitX = "t [s]";
  const float unitW = ImGui::CalcTextSize(unitX).x;
  dl->AddText(ImVec2(f.p1.x - unitW, f.p1.y + 2.0f), textCol, unitX);
  const Ticks xt =
      computeTicks(f.t0, f.t1, std::max(2, static_cast<int>(f.width() / (lineH * 6.0f))));
  for (double t : xt.values) {
    const float x = f.x(t);
    dl->AddLine(ImVec2(x, f.p0.y), ImVec2(x, f.p1.y), gridCol);
    const std::string s = formatTick(t, xt.step);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    if (x + ts.x * 0.5f > f.p1.x - unitW - style.ItemInnerSpacing.x) continue;
    dl->AddText(ImVec2(x - ts.x * 0.5f, f.p1.y + 2.0f), textCol, s.c_str());
  }
  dl->PopClipRect();
}

void PlotWidget::drawLines(const std::vector<PlotSeries>& runs, const std::vector<Range>& ranges,
                           const PlotFrame& f) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Decimated to min/max per pixel column; ghosts first, so the main run is on top.
  for (std::size_t rr = runs.size(); rr-- > 0;) {
    const runtime::TimeSeries* series = runs[rr].series;
    const std::size_t i0 = ranges[rr].i0, i1 = ranges[rr].i1;
    if (!series || i1 <= i0) continue;
    const bool ghost = runs[rr].ghost;
    for (const PlotLine& l : lines_) {
      if (!drawn(l, runs[rr])) continue;
      ColumnDecimator columns(f.p0.x, &points_);
      for (std::size_t i = i0; i < i1; ++i) {
        const double v = denoised(series->value(i, l.channel), zeroBelow_);
        if (!std::isfinite(v)) continue;
        columns.add(f.x(series->time(i)), f.y(v));
      }
      columns.flush();
      const ImU32 color = lineColor(l, runs[rr]);
      // Thicker with the UI scale (presentation mode: a projector's audience reads them).
      const float thick = std::max(1.5f, 1.5f * ImGui::GetFontSize() / 15.0f);
      if (points_.size() >= 2 && ghost) {
        dashedPolyline(dl, points_, color, thick, 6.0f * thick / 1.5f, 4.0f * thick / 1.5f, &dash_);
      } else if (points_.size() >= 2) {
        dl->AddPolyline(points_.data(), static_cast<int>(points_.size()), color, 0, thick);
      } else if (points_.size() == 1) {
        dl->AddCircleFilled(points_[0], 2.0f, color);
      }
    }
  }
}

void PlotWidget::drawScrubCursor(const std::vector<PlotSeries>& runs, const PlotView& view,
                                 const PlotFrame& f) const {
  // The scrubbed time: the recorded step shown in the 3D view.
  if (view.cursorT < f.t0 || view.cursorT > f.t1) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 cursorCol = IM_COL32(255, 160, 40, 255);
  const float x = f.x(view.cursorT);
  dl->AddLine(ImVec2(x, f.p0.y), ImVec2(x, f.p1.y), cursorCol, 2.0f);
  for (const PlotSeries& run : runs) {
    const runtime::TimeSeries* series = run.series;
    if (!series || series->empty()) continue;
    const std::size_t k = series->nearest(view.cursorT);
    for (const PlotLine& l : lines_) {
      if (!drawn(l, run)) continue;
      dl->AddCircle(
          ImVec2(f.x(series->time(k)), f.y(denoised(series->value(k, l.channel), zeroBelow_))),
          4.0f, cursorCol, 0, 1.5f);
    }
  }
}

ImU32 PlotWidget::lineColor(const PlotLine& l, const PlotSeries& run) {
  const ImU32 c = run.color != 0 ? run.color : l.color;
  return run.ghost ? ghostColor(c) : c;
}

void drawRunLegend(const std::vector<PlotSeries>& runs) {
  if (runs.size() <= 1) return;
  const float width = ImGui::GetContentRegionAvail().x;
  std::vector<ImVec2> dash;
  const int rows =
      runLegendRows(ImGui::GetWindowDrawList(), runs, ImGui::GetCursorScreenPos(), width, &dash);
  ImGui::Dummy(ImVec2(width, static_cast<float>(rows) * (ImGui::GetTextLineHeight() + 2.0f)));
}

void PlotWidget::drawHover(const std::vector<PlotSeries>& runs, const PlotView& view,
                           const PlotFrame& f, bool hovered) const {
  if (view.hoverT < f.t0 || view.hoverT > f.t1) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool runLegend = runs.size() > 1;
  const float x = f.x(view.hoverT);
  dl->AddLine(ImVec2(x, f.p0.y), ImVec2(x, f.p1.y), ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
  bool tooltip = false;
  for (const PlotSeries& run : runs) {
    const runtime::TimeSeries* series = run.series;
    if (!series || series->empty()) continue;
    const std::size_t k = series->nearest(view.hoverT);
    const float sx = f.x(series->time(k));
    for (const PlotLine& l : lines_) {
      if (!drawn(l, run)) continue;
      const ImU32 color = lineColor(l, run);
      dl->AddCircleFilled(ImVec2(sx, f.y(denoised(series->value(k, l.channel), zeroBelow_))), 3.0f,
                          color);
    }
    if (!hovered) continue;
    if (!tooltip) ImGui::BeginTooltip();
    if (!tooltip || runLegend) {
      if (runLegend) ImGui::TextUnformatted(run.label.c_str());
      ImGui::Text("t = %.6g s", series->time(k));
    }
    tooltip = true;
    for (const PlotLine& l : lines_) {
      if (!drawn(l, run)) continue;
      const ImU32 color = lineColor(l, run);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color), "%s = %.6g %s", l.label.c_str(),
                         denoised(series->value(k, l.channel), zeroBelow_), unit_.c_str());
    }
  }
  if (tooltip) ImGui::EndTooltip();
}

void PlotWidget::draw(const std::vector<PlotSeries>& runs, PlotView* view, ImVec2 size) {
  ImGui::PushID(this);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lineH = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  size.x = std::max(size.x, 120.0f);
  // The title and legend rows (the legend under the title when narrow; several runs: rows
  // that name them, unless the caller shows one legend for all plots).
  const std::vector<PlotSeries> none;
  const std::vector<PlotSeries>& named = view->runLegends || runs.size() <= 1 ? runs : none;
  const float top = headerHeight(named, size.x);
  size.y = std::max(size.y, 3.0f * lineH + top + 20.0f);
  drawLegends(named.empty() ? std::vector<PlotSeries>(runs.begin(), runs.begin() + 1) : named,
              origin, size.x);

  // Plot frame.
  PlotFrame f;
  const float labelW = ImGui::CalcTextSize("-0.0000").x + style.ItemInnerSpacing.x;
  f.p0 = ImVec2(origin.x + labelW, origin.y + top + 4.0f);
  f.p1 = ImVec2(origin.x + size.x - 4.0f, origin.y + size.y - lineH - 4.0f);
  ImGui::SetCursorScreenPos(f.p0);
  ImGui::InvisibleButton("plot",
                         ImVec2(std::max(f.p1.x - f.p0.x, 1.0f), std::max(f.p1.y - f.p0.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0.0f));

  f.t1 = view->tEnd;
  f.t0 = f.t1 - view->window;
  const float w = f.width();

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
  const std::vector<Range> ranges =
      visibleRanges(runs, f.t0, f.t1, view->fitGhosts, &f.ylo, &f.yhi);
  drawAxes(f, origin, size);
  dl->PushClipRect(f.p0, f.p1, true);
  drawLines(runs, ranges, f);
  drawScrubCursor(runs, *view, f);
  // Cursor (shared by all plots) and the readout of the hovered plot.
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x;
    view->nextHoverT =
        f.t0 + static_cast<double>((mx - f.p0.x) / std::max(w, 1.0f)) * (f.t1 - f.t0);
  }
  drawHover(runs, *view, f, hovered);
  dl->PopClipRect();
  dl->AddRect(f.p0, f.p1, ImGui::GetColorU32(ImGuiCol_Border));
  ImGui::PopID();
}

}  // namespace samara::app
