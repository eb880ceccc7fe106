// The writers of io/export.h: glb (io::gltf::Builder), OBJ sequence, CSV, Houdini .chan and .pc2.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <utility>

#include "io/csv.h"
#include "io/error.h"
#include "io/export.h"
#include "io/gltf_builder.h"
#include "io/text_format.h"

namespace samara::io {

namespace {

/// Quaternion continuity: q or −q, whichever is nearer to `previous`.
Quat nearerSign(const Quat& q, const Quat& previous) {
  return q.coeffs().dot(previous.coeffs()) < 0.0 ? Quat(-q.coeffs()) : q;
}

/// Body-frame vertices from world ones: V = (W − b) R (rows), since W = V Rᵀ + b.
geometry::VertexMatrix toBodyFrame(const BodyFrame& f) {
  geometry::VertexMatrix V = f.worldVertices;
  V.rowwise() -= f.pose.b.transpose();
  return V * f.pose.R();
}

}  // namespace

// --- writers ---------------------------------------------------------------------------------

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
  virtual void finish() = 0;

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

namespace {

using Writer = MotionExporter::Writer;

// CSV: `samara run` rows (t = the step's time) + frame, body origin.
class CsvExport final : public Writer {
 public:
  using Writer::Writer;
  void addFrame(const Frame& frame) override {
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const BodyFrame& b = of(frame, i);
      std::ostringstream row;
      {
        CsvWriter csv(row);
        csv.writeRow(frame.stepTime, body(i).name, b.diagnostics);
      }
      std::string line = row.str();
      if (!line.empty() && line.back() == '\n') line.pop_back();
      text_ += line;
      text_ += ',';
      text_ += std::to_string(frame.index);
      for (int d = 0; d < 3; ++d) {
        text_ += ',';
        appendNumber(&text_, b.pose.b[d]);
      }
      text_ += '\n';
    }
  }
  void finish() override {
    files_->write(paths_[0], [&](std::ostream& s) {
      s << kExportCsvHeader << '\n';
      s.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    });
  }

 private:
  std::string text_;
};

// Houdini .chan: per body one line per frame, "tx ty tz rx ry rz".
class ChanExport final : public Writer {
 public:
  ChanExport(const ExportSettings& s, const std::vector<ExportBody>& bodies, OutputFiles* files)
      : Writer(s, bodies, files), text_(bodies.size()), previous_(bodies.size()) {}
  void addFrame(const Frame& frame) override {
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const core::Pose& g = of(frame, i).pose;
      const Vec3 r = houdiniEulerDegrees(g.R(), previous_[i]);
      previous_[i] = r;
      std::string& t = text_[i];
      for (int d = 0; d < 3; ++d) {
        appendNumber(&t, g.b[d]);
        t += ' ';
      }
      for (int d = 0; d < 3; ++d) {
        appendNumber(&t, r[d]);
        t += d < 2 ? ' ' : '\n';
      }
    }
  }
  void finish() override {
    for (std::size_t i = 0; i < numBodies(); ++i) {
      files_->write(paths_[i], [&](std::ostream& s) {
        s.write(text_[i].data(), static_cast<std::streamsize>(text_[i].size()));
      });
    }
  }

 private:
  std::vector<std::string> text_;
  std::vector<std::optional<Vec3>> previous_;
};

// PC2 point cache per body (little endian).
class Pc2Export final : public Writer {
 public:
  Pc2Export(const ExportSettings& s, const std::vector<ExportBody>& bodies, OutputFiles* files)
      : Writer(s, bodies, files), points_(bodies.size()) {}
  bool needsVertices(int, long long) const override { return true; }
  void addFrame(const Frame& frame) override {
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const BodyFrame& b = of(frame, i);
      requireVertices(b, i);
      if (frames_ == 0) numPoints_.push_back(b.worldVertices.rows());
      assert(b.worldVertices.rows() == numPoints_[i]);
      std::vector<float>& p = points_[i];
      for (Eigen::Index r = 0; r < b.worldVertices.rows(); ++r) {
        for (int d = 0; d < 3; ++d) p.push_back(static_cast<float>(b.worldVertices(r, d)));
      }
    }
    ++frames_;
  }
  void finish() override {
    for (std::size_t i = 0; i < numBodies(); ++i) {
      files_->write(paths_[i], [&](std::ostream& s) {
        s.write("POINTCACHE2\0", 12);
        putInt(s, 1);
        putInt(s, static_cast<std::int32_t>(numPoints_.empty() ? 0 : numPoints_[i]));
        putFloat(s, 0.0f);  // start frame
        putFloat(s, 1.0f);  // sample rate: frames between samples
        putInt(s, static_cast<std::int32_t>(frames_));
        for (const float x : points_[i]) putFloat(s, x);
      });
    }
  }

 private:
  static void putInt(std::ostream& s, std::int32_t v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    putWord(s, u);
  }
  static void putFloat(std::ostream& s, float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    putWord(s, u);
  }
  static void putWord(std::ostream& s, std::uint32_t u) {
    const char bytes[4] = {static_cast<char>(u & 0xff), static_cast<char>((u >> 8) & 0xff),
                           static_cast<char>((u >> 16) & 0xff),
                           static_cast<char>((u >> 24) & 0xff)};
    s.write(bytes, 4);
  }

  std::vector<std::vector<float>> points_;
  std::vector<Eigen::Index> numPoints_;
  long long frames_ = 0;
};

// OBJ sequence: one file per frame, every body an `o` object in world coordinates.
class ObjExport final : public Writer {
 public:
  using Writer::Writer;
  bool needsVertices(int, long long) const override { return true; }
  void addFrame(const Frame& frame) override {
    assert(frame.index < static_cast<long long>(paths_.size()));
    std::string text = "# samara export: scene " + settings_.sceneName + ", frame " +
                       std::to_string(frame.index) + ", t = ";
    appendNumber(&text, frame.time, "%.9g");
    text += " s (step at ";
    appendNumber(&text, frame.stepTime, "%.17g");
    text += " s); world frame, Y-up, metres\n";
    long long offset = 1;
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const BodyFrame& b = of(frame, i);
      requireVertices(b, i);
      text += "o " + body(i).name + "\n";
      const geometry::VertexMatrix& W = b.worldVertices;
      for (Eigen::Index r = 0; r < W.rows(); ++r) {
        text += 'v';
        for (int d = 0; d < 3; ++d) {
          text += ' ';
          appendNumber(&text, W(r, d), "%.9g");
        }
        text += '\n';
      }
      const geometry::FaceMatrix& F = body(i).faces;
      for (Eigen::Index f = 0; f < F.rows(); ++f) {
        text += 'f';
        for (int c = 0; c < 3; ++c) text += ' ' + std::to_string(offset + F(f, c));
        text += '\n';
      }
      offset += W.rows();
    }
    files_->write(paths_[static_cast<std::size_t>(frame.index)], [&](std::ostream& s) {
      s.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
  }
  void finish() override {}
};

// glTF 2.0 binary.
class GlbExport final : public Writer {
 public:
  GlbExport(const ExportSettings& s, const std::vector<ExportBody>& bodies, OutputFiles* files)
      : Writer(s, bodies, files), tracks_(bodies.size()) {}

  bool needsVertices(int body, long long frame) const override {
    return frame == 0 || bodies_[static_cast<std::size_t>(body)].deforming;
  }

  void addFrame(const Frame& frame) override {
    times_.push_back(static_cast<float>(frame.time));
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const BodyFrame& b = of(frame, i);
      Track& tr = tracks_[i];
      for (int d = 0; d < 3; ++d) tr.translation.push_back(static_cast<float>(b.pose.b[d]));
      const Quat q = tr.rotation.empty() ? b.pose.q : nearerSign(b.pose.q, tr.lastQ);
      tr.lastQ = q;
      for (const double c : {q.x(), q.y(), q.z(), q.w()}) {
        tr.rotation.push_back(static_cast<float>(c));
      }
      if (frame.index == 0) {
        requireVertices(b, i);
        tr.origin = b.pose.b;
        tr.q0 = q;
        tr.base = toBodyFrame(b);
      }
      if (body(i).deforming) {
        requireVertices(b, i);
        const geometry::VertexMatrix V = toBodyFrame(b);
        geometry::VertexMatrix D = V - tr.base;
        tr.targets.emplace_back();
        std::vector<float>& t = tr.targets.back();
        t.reserve(static_cast<std::size_t>(3 * D.rows()));
        for (Eigen::Index r = 0; r < D.rows(); ++r) {
          for (int d = 0; d < 3; ++d) t.push_back(static_cast<float>(D(r, d)));
        }
      }
    }
  }

  void finish() override;

 private:
  struct Track {
    std::vector<float> translation;  // 3 per frame
    std::vector<float> rotation;     // 4 per frame: x, y, z, w
    Quat lastQ = Quat::Identity();
    Vec3 origin = Vec3::Zero();
    Quat q0 = Quat::Identity();
    geometry::VertexMatrix base;              // body frame at frame 0
    std::vector<std::vector<float>> targets;  // per frame: displacement from base
  };

  int addMesh(std::size_t i);

  std::vector<float> times_;
  std::vector<Track> tracks_;
  gltf::Builder builder_{"samara export"};
};

int GlbExport::addMesh(std::size_t i) {
  const Track& tr = tracks_[i];
  const geometry::VertexMatrix& V = tr.base;
  const geometry::FaceMatrix& F = body(i).faces;
  // Area-weighted vertex normals of the frame-0 shape (body frame).
  geometry::VertexMatrix N = geometry::VertexMatrix::Zero(V.rows(), 3);
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const Vec3 a = V.row(F(f, 0)).transpose(), b = V.row(F(f, 1)).transpose(),
               c = V.row(F(f, 2)).transpose();
    const Vec3 n = (b - a).cross(c - a);
    for (int k = 0; k < 3; ++k) N.row(F(f, k)) += n.transpose();
  }
  std::vector<float> positions, normals;
  for (Eigen::Index r = 0; r < V.rows(); ++r) {
    Vec3 n = N.row(r).transpose();
    n = n.norm() > 0.0 ? Vec3(n.normalized()) : Vec3::UnitY();
    for (int d = 0; d < 3; ++d) {
      positions.push_back(static_cast<float>(V(r, d)));
      normals.push_back(static_cast<float>(n[d]));
    }
  }
  std::vector<std::uint32_t> indices;
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    for (int k = 0; k < 3; ++k) indices.push_back(static_cast<std::uint32_t>(F(f, k)));
  }

  gltf::Primitive prim;
  prim.attributes["POSITION"] = builder_.addFloats(positions, gltf::ElementType::kVec3,
                                                   gltf::BufferTarget::kArray, /*bounds=*/true);
  prim.attributes["NORMAL"] = builder_.addFloats(normals, gltf::ElementType::kVec3,
                                                 gltf::BufferTarget::kArray, /*bounds=*/false);
  prim.indices = builder_.addIndices(indices);
  gltf::Mesh mesh{.name = body(i).name};
  for (std::size_t k = 0; k < tr.targets.size(); ++k) {
    mesh.targetNames.push_back(strf("frame_%04zu", k));  // Blender's shape key names
    prim.targets.push_back({{"POSITION", builder_.addFloats(tr.targets[k], gltf::ElementType::kVec3,
                                                            gltf::BufferTarget::kArray,
                                                            /*bounds=*/true)}});
  }
  mesh.weights.assign(tr.targets.size(), 0.0);
  mesh.primitives.push_back(std::move(prim));
  return builder_.addMesh(mesh);
}

void GlbExport::finish() {
  const std::size_t frames = times_.size();
  const int timeAccessor = frames > 0 ? builder_.addFloats(times_, gltf::ElementType::kScalar,
                                                           gltf::BufferTarget::kNone, true)
                                      : -1;
  int animation = -1;
  std::vector<int> roots;
  for (std::size_t i = 0; i < numBodies(); ++i) {
    const Track& tr = tracks_[i];
    const int mesh = addMesh(i);
    const int n = builder_.addNode(
        {.name = body(i).name, .mesh = mesh, .translation = tr.origin, .rotation = tr.q0});
    roots.push_back(n);
    if (frames == 0) continue;
    if (animation < 0) animation = builder_.addAnimation(settings_.sceneName);
    auto channel = [&](const std::vector<float>& values, gltf::ElementType type,
                       gltf::Interpolation interpolation, const char* path) {
      const int output = builder_.addFloats(values, type, gltf::BufferTarget::kNone, false);
      builder_.addChannel(
          animation, builder_.addSampler(animation, timeAccessor, output, interpolation), n, path);
    };
    channel(tr.translation, gltf::ElementType::kVec3, gltf::Interpolation::kLinear, "translation");
    channel(tr.rotation, gltf::ElementType::kVec4, gltf::Interpolation::kLinear, "rotation");
    if (!tr.targets.empty()) {
      // STEP weights: at frame k target k has weight 1, the others 0.
      const std::size_t m = tr.targets.size();
      std::vector<float> w(frames * m, 0.0f);
      for (std::size_t k = 0; k < frames && k < m; ++k) w[k * m + k] = 1.0f;
      channel(w, gltf::ElementType::kScalar, gltf::Interpolation::kStep, "weights");
    }
  }
  builder_.addScene(settings_.sceneName, roots);
  files_->write(paths_[0], [&](std::ostream& s) { builder_.writeGlb(s, paths_[0]); });
}

}  // namespace

// --- the exporter ----------------------------------------------------------------------------

MotionExporter::MotionExporter(ExportSettings settings, std::vector<ExportBody> bodies,
                               OutputFiles* files) {
  assert(files != nullptr);
  switch (settings.format) {
    case ExportFormat::kGlb:
      writer_ = std::make_unique<GlbExport>(settings, bodies, files);
      break;
    case ExportFormat::kObj:
      writer_ = std::make_unique<ObjExport>(settings, bodies, files);
      break;
    case ExportFormat::kCsv:
      writer_ = std::make_unique<CsvExport>(settings, bodies, files);
      break;
    case ExportFormat::kChan:
      writer_ = std::make_unique<ChanExport>(settings, bodies, files);
      break;
    case ExportFormat::kPc2:
      writer_ = std::make_unique<Pc2Export>(settings, bodies, files);
      break;
  }
}

MotionExporter::~MotionExporter() = default;

bool MotionExporter::needsVertices(int body, long long frame) const {
  return writer_->needsVertices(body, frame);
}

void MotionExporter::addFrame(const Frame& frame) { writer_->addFrame(frame); }

void MotionExporter::addFrame(const core::World& world, long long k, double fps) {
  addFrame(captureFrame(world, k, fps, [&](int i) { return writer_->needsVertices(i, k); }));
}

void MotionExporter::finish() { writer_->finish(); }

}  // namespace samara::io
