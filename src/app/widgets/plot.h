#pragma once
// A small time-series plot widget drawn with ImDrawList (ImPlot is not packaged here):
// axes with nice ticks and units, a legend (click to hide a line), a rolling time window,
// and freeze-and-inspect (hover readout, wheel zoom and drag pan while frozen). A plot can
// show several runs of the same quantities (the main run and a ghost run under another
// model): the ghost's lines are lighter and dashed, and a second legend row names each run
// ("plate (gwtf)", "plate (vacuum)").
#include <imgui.h>

#include <string>
#include <vector>

#include "runtime/time_series.h"

namespace samara::app {

struct PlotLine {
  int channel = 0;    ///< runtime::Channel
  std::string label;  ///< legend text
  ImU32 color = IM_COL32_WHITE;
  bool visible = true;
  /// The line drawn for each body when several bodies share the plot (|P|, fall speed...).
  bool summary = false;
};

/// One run's samples in a plot.
struct PlotSeries {
  const runtime::TimeSeries* series = nullptr;  ///< null: nothing to draw
  std::string label;   ///< run legend, e.g. "plate (gwtf)" (shown when there are several)
  bool ghost = false;  ///< lighter, dashed lines
  /// A body's colour: the run draws only the summary lines, in this colour (several bodies
  /// in one plot); 0 = the lines' own colours.
  ImU32 color = 0;
};

/// The time axis shared by all plots (they scroll, zoom and show the cursor together).
struct PlotView {
  double window = 5.0;   ///< width of the time axis, s
  double tEnd = 0.0;     ///< right edge of the time axis, s (follows the data unless frozen)
  bool frozen = false;   ///< stop following the data; hover, zoom and pan to inspect
  double hoverT = -1.0;  ///< time under the mouse in any plot this frame (< 0 = none)
  double nextHoverT = -1.0;
  /// The scrubbed time (history scrubbing), s: an orange cursor with the values' dots in
  /// every plot (< 0 = none).
  double cursorT = -1.0;
  /// Ghost runs set the y axis too (off: the axis fits the main runs, a ghost far off scale,
  /// such as a body falling in vacuum, is clipped instead of flattening them).
  bool fitGhosts = false;
  /// Each plot names its runs under its title (off: the caller shows one legend for all,
  /// drawRunLegend).
  bool runLegends = true;
};

/// The runs' legend (a line sample in each run's colour, dashed for a ghost, and its label),
/// wrapped over rows of the current window's width, at the cursor.
void drawRunLegend(const std::vector<PlotSeries>& runs);

struct PlotFrame;

class PlotWidget {
 public:
  PlotWidget(std::string title, std::string unit, std::vector<PlotLine> lines);

  /// Draws the plot of `series` (may be null: empty axes) at the cursor, `size` px.
  void draw(const runtime::TimeSeries* series, PlotView* view, ImVec2 size) {
    draw(std::vector<PlotSeries>{{series, "", false}}, view, size);
  }
  /// Draws every run in `series` (the first is the main one) in the same axes.
  void draw(const std::vector<PlotSeries>& series, PlotView* view, ImVec2 size);

  /// The plotted quantity's natural scale (e.g. m·√(g r) for a momentum): samples below
  /// 1e-9 of it are drawn as 0 and the axis never spans less than ±1e-4 of it. 0: none.
  void setNaturalScale(double scale) {
    zeroBelow_ = 1e-9 * scale;
    floor_ = 1e-4 * scale;
  }

  const std::string& title() const { return title_; }
  std::vector<PlotLine>& lines() { return lines_; }

 private:
  /// Whether line `l` is drawn for `run` (a body-coloured run draws the summary lines only).
  static bool drawn(const PlotLine& l, const PlotSeries& run) {
    return l.visible && (run.color == 0 || l.summary);
  }
  /// The colour of line `l` of `run`.
  static ImU32 lineColor(const PlotLine& l, const PlotSeries& run);
  /// Samples [i0, i1) of a run in the time window.
  struct Range {
    std::size_t i0 = 0, i1 = 0;
  };
  /// The title, unit and line legend (click to hide a line), and the runs' legend when
  /// there are several.
  void drawLegends(const std::vector<PlotSeries>& runs, ImVec2 origin, float width);
  /// Whether the legend goes under the title (they do not fit on one row `width` wide).
  bool legendBelow(float width) const;
  /// Height of the title and legend rows.
  float headerHeight(const std::vector<PlotSeries>& runs, float width) const;
  /// Each run's samples in [t0, t1] and the nice y range around their visible values.
  /// Ghost runs count only with `fitGhosts`.
  std::vector<Range> visibleRanges(const std::vector<PlotSeries>& runs, double t0, double t1,
                                   bool fitGhosts, double* ylo, double* yhi) const;
  /// Background, grid, tick labels and the time unit.
  void drawAxes(const PlotFrame& f, ImVec2 origin, ImVec2 size);
  void drawLines(const std::vector<PlotSeries>& runs, const std::vector<Range>& ranges,
                 const PlotFrame& f);
  /// The scrubbed time's cursor and the values there.
  void drawScrubCursor(const std::vector<PlotSeries>& runs, const PlotView& view,
                       const PlotFrame& f) const;
  /// The hovered time's cursor, dots and (in the hovered plot) the tooltip.
  void drawHover(const std::vector<PlotSeries>& runs, const PlotView& view, const PlotFrame& f,
                 bool hovered) const;

  std::string title_;
  double zeroBelow_ = 0.0;  // |samples| below: drawn as 0
  double floor_ = 0.0;      // the axis spans at least ±floor_
  std::string unit_;
  std::vector<PlotLine> lines_;
  std::vector<ImVec2> points_;
  std::vector<ImVec2> dash_;
};

}  // namespace samara::app
