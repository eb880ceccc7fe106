// samara: light bodies in air and water. The command line lives in src/cli (cli::runCli);
// this executable adds the viewer (src/app) as the handler of `samara view`, so that the
// cli library never depends on the app. The headless build registers no handler.
#include <csignal>
#include <iostream>

#include "cli/commands.h"

#if defined(SAMARA_HAVE_VIEWER)
#include "app/viewer.h"

namespace {

/// `samara view`: the checked options as the viewer's.
int openViewer(const samara::cli::ViewArgs& a, std::ostream& out, std::ostream& err) {
  samara::app::ViewerOptions o;
  o.out = &out;
  o.err = &err;
  o.scenePath = a.scenePath;
  o.frames = a.frames;
  o.screenshotPath = a.screenshotPath;
  o.videoPath = a.videoPath;
  o.videoFps = a.videoFps;
  o.videoUi = a.videoUi;
  o.shotWidth = a.shotWidth;
  o.shotHeight = a.shotHeight;
  if (a.width) o.width = *a.width;
  if (a.height) o.height = *a.height;
  if (a.msaa) o.msaa = *a.msaa;
  if (a.uiScale) o.uiScale = *a.uiScale;
  o.sets = a.sets;
  o.realTime = a.realTime;
  o.present = a.present;
  o.ghostModel = a.ghostModel;
  if (a.threads) o.threads = *a.threads;
  o.overlays = a.overlays;
  o.layoutReportPath = a.layoutReportPath;
  return samara::app::runViewer(o);
}

}  // namespace
#endif

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  // Past a file size limit (ulimit -f) a write fails with EFBIG ("File too large") instead of
  // ending the process, so the temporary files are removed and the message says why.
  std::signal(SIGXFSZ, SIG_IGN);
  samara::cli::installInterruptHandler();
  samara::cli::ViewHandler view;
#if defined(SAMARA_HAVE_VIEWER)
  view = openViewer;
#endif
  const int code = samara::cli::runCli(argc, argv, std::cout, std::cerr, view);
  std::cout.flush();
  return code;
}
