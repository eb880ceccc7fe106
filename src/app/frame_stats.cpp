#include "app/frame_stats.h"

#include <cstdio>
#include <ostream>

namespace samara::app {

void printStats(const FrameStats& f, const runtime::Snapshot& s, double frameSeconds,
                std::ostream& out) {
  const double span = f.lastWall - f.firstWall;
  const double meanFrameMs = f.frames > 1 ? 1000.0 * span / static_cast<double>(f.frames - 1) : 0.0;
  const auto steps = static_cast<double>(s.stepIndex - f.stepsAtFirstFrame);
  char fixed[64] = "";
  if (frameSeconds > 0.0) {
    std::snprintf(fixed, sizeof fixed, " (fixed 1/%.6g s per frame)", 1.0 / frameSeconds);
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "samara view: %lld frames, mean frame %.2f ms (%.1f fps), render %.2f ms/frame; "
                "simulated time %.6g s (%lld steps), %.0f steps/s, real-time factor %.3g%s\n",
                f.frames, meanFrameMs, meanFrameMs > 0 ? 1000.0 / meanFrameMs : 0.0,
                f.frames > 0 ? 1000.0 * f.renderSeconds / static_cast<double>(f.frames) : 0.0,
                s.time, static_cast<long long>(s.stepIndex), span > 0 ? steps / span : 0.0,
                span > 0 ? steps * s.params.dt / span : 0.0, fixed);
  out << buf;
}

}  // namespace samara::app
