#pragma once
// The "Export" section of the controls: bake the current scene's motion to glb, obj, csv,
// chan or pc2 on a thread of its own (runtime::ExportJob), with progress and cancel.
#include <memory>

#include "app/context.h"
#include "runtime/export_job.h"

namespace samara::app {

class ExportPanel {
 public:
  /// A new scene: the output named after it, the duration the scene's.
  void onNewScene(const runtime::Snapshot& s);
  /// The panel; an export's glb camera is the 3D view's (ctx.camera) unless "camera: this
  /// view" is off (then one that sees every body over the whole run).
  void draw(const ViewerContext& ctx, const runtime::Snapshot& s);
  /// Cancels a running export (nothing half-written).
  void cancel() { job_.reset(); }

 private:
  void drawProgress(const runtime::ExportJob::Progress& p);
  void drawFormat();
  void start(const ViewerContext& ctx, const runtime::Snapshot& s);

  std::unique_ptr<runtime::ExportJob> job_;
  int format_ = 0;  // index into kExportFormats
  char path_[1024] = {};
  double fps_ = 24.0;
  int firstFrame_ = 1;
  bool thisView_ = true;
  double duration_ = 10.0;  // s
};

}  // namespace samara::app
