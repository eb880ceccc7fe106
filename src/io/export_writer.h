#pragma once
// The writers behind io::MotionExporter (internal to io/): the base every format derives
// from, and the glb writer's factory (export_glb.cpp).
#include <memory>
#include <string>
#include <vector>

#include "io/error.h"
#include "io/export.h"

namespace samara::io {

/// Body-frame vertices from world ones: V = (W − b) R (rows), since W = V Rᵀ + b.
geometry::VertexMatrix toBodyFrame(const BodyFrame& f);

class MotionExporter::Writer {
 public:
  Writer(const ExportSettings& settings, const std::vector<ExportBody>& bodies, OutputFiles* files)
      : settings_(settings),
        bodies_(bodies),
        files_(files),
        paths_(exportPaths(settings, bodies)) {}
  virtual ~Writer() = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  virtual bool needsVertices(int /*body*/, long long /*frame*/) const { return false; }
  virtual void addFrame(const Frame& frame) = 0;
  virtual void addStep(const StepPoses& /*step*/) {}
  virtual void finish() = 0;
  virtual int rowsPerFrame() const { return 1; }

 protected:
  std::size_t numBodies() const { return bodies_.size(); }
  const ExportBody& body(std::size_t i) const { return bodies_[i]; }
  const BodyFrame& of(const Frame& f, std::size_t i) const {
    assert(f.bodies.size() == bodies_.size());
    return f.bodies[i];
  }
  void requireVertices(const BodyFrame& b, std::size_t i) const {
    if (b.worldVertices.rows() == 0) {
      throw Error(settings_.out, "frame without the vertices of body '" + bodies_[i].name + "'");
    }
  }

  ExportSettings settings_;
  std::vector<ExportBody> bodies_;
  OutputFiles* files_;
  std::vector<std::string> paths_;
};

std::unique_ptr<MotionExporter::Writer> makeGlbWriter(const ExportSettings& settings,
                                                      const std::vector<ExportBody>& bodies,
                                                      OutputFiles* files);

}  // namespace samara::io
