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
  void draw(const runtime::Snapshot& s);
  /// Cancels a running export (nothing half-written).
  void cancel() { job_.reset(); }

 private:
  void drawProgress(const runtime::ExportJob::Progress& p);
  void drawFormat();
  void start(const runtime::Snapshot& s);

  std::unique_ptr<runtime::ExportJob> job_;
  int format_ = 0;  // index into kExportFormats
  char path_[1024] = {};
  double fps_ = 30.0;
  double duration_ = 10.0;  // s
};

}  // namespace samara::app
