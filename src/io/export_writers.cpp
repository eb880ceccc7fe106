// The writers of io/export.h: glb (io::gltf::Builder), OBJ sequence, CSV, Houdini .chan and .pc2.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <utility>

#include "io/csv.h"
#include "io/error.h"
#include "io/export.h"
#include "io/export_writer.h"
#include "io/text_format.h"

namespace samara::io {

namespace {

/// An OBJ object: "o NAME", its vertices (%.9g) and its faces, the vertex numbers from
/// `first` (1 for the first object of a file).
void appendObjObject(std::string* text, const std::string& name, const geometry::VertexMatrix& V,
                     const geometry::FaceMatrix& F, long long first) {
  *text += "o " + name + "\n";
  for (Eigen::Index r = 0; r < V.rows(); ++r) {
    *text += 'v';
    for (int d = 0; d < 3; ++d) {
      *text += ' ';
      appendNumber(text, V(r, d), "%.9g");
    }
    *text += '\n';
  }
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    *text += 'f';
    for (int c = 0; c < 3; ++c) *text += ' ' + std::to_string(first + F(f, c));
    *text += '\n';
  }
}

}  // namespace

geometry::VertexMatrix toBodyFrame(const BodyFrame& f) {
  geometry::VertexMatrix V = f.worldVertices;
  V.rowwise() -= f.pose.b.transpose();
  return V * f.pose.R();
}

// --- writers ---------------------------------------------------------------------------------

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
      text_ += std::to_string(settings_.plan.frameNumber(frame.index));
      for (int d = 0; d < 3; ++d) {
        text_ += ',';
        appendNumber(&text_, b.stepPose.b[d]);
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

// Houdini .chan: per body a row per sample "tx ty tz rx ry rz", rows_per_frame samples per
// frame (a power of two, enough that no body turns more than chanMaxTurn between rows); the
// body's mesh in its own frame as OBJ; a JSON sidecar with the rate and the frame range.
class ChanExport final : public Writer {
 public:
  ChanExport(const ExportSettings& s, const std::vector<ExportBody>& bodies, OutputFiles* files)
      : Writer(s, bodies, files), samples_(bodies.size()), meshes_(bodies.size()) {}
  bool needsVertices(int, long long frame) const override { return frame == 0; }
  void addFrame(const Frame& frame) override {
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const BodyFrame& b = of(frame, i);
      samples_[i].push_back({frame.time, b.pose, b.com});
      if (frame.index == 0) {
        requireVertices(b, i);
        meshes_[i] = toBodyFrame(b);
      }
    }
    ++frames_;
  }
  void addStep(const StepPoses& step) override {
    for (std::size_t i = 0; i < numBodies() && i < step.bodies.size(); ++i) {
      samples_[i].push_back(step.bodies[i]);
    }
  }
  void finish() override {
    // The fewest rows per frame with which no body turns more than chanMaxTurn between rows.
    int perFrame = 1;
    double turnDeg = 0.0;
    for (; perFrame <= kMaxRowsPerFrame; perFrame *= 2) {
      turnDeg = 0.0;
      for (std::size_t i = 0; i < numBodies(); ++i)
        turnDeg = std::max(turnDeg, maxTurn(i, perFrame));
      if (turnDeg <= settings_.chanMaxTurn * 180.0 / M_PI || perFrame == kMaxRowsPerFrame) break;
    }
    for (std::size_t i = 0; i < numBodies(); ++i) {
      std::string t;
      std::optional<Vec3> previous;
      for (const PoseSample& p : rows(i, perFrame)) {
        const Vec3 r = houdiniEulerDegrees(p.pose.R(), previous);
        previous = r;
        for (int d = 0; d < 3; ++d) {
          appendNumber(&t, p.pose.b[d]);
          t += ' ';
        }
        for (int d = 0; d < 3; ++d) {
          appendNumber(&t, r[d]);
          t += d < 2 ? ' ' : '\n';
        }
      }
      files_->write(paths_[i], [&](std::ostream& s) {
        s.write(t.data(), static_cast<std::streamsize>(t.size()));
      });
    }
    perFrame_ = perFrame;
    if (!settings_.chanSidecars) return;
    for (std::size_t i = 0; i < numBodies(); ++i) writeMesh(i, paths_[numBodies() + i]);
    writeSidecar(perFrame, turnDeg);
  }

 private:
  static constexpr int kMaxRowsPerFrame = 64;

  /// The rows of body i at perFrame rows per frame: poses at times r / (fps·perFrame).
  std::vector<PoseSample> rows(std::size_t i, int perFrame) const {
    const std::vector<PoseSample>& s = samples_[i];
    std::vector<PoseSample> out;
    if (s.empty()) return out;
    const long long n = (frames_ - 1) * perFrame + 1;
    std::size_t j = 0;
    for (long long r = 0; r < n; ++r) {
      const double t = static_cast<double>(r) / (settings_.plan.fps * perFrame);
      if (r % perFrame == 0) {  // a frame: its own sample
        const std::size_t k = static_cast<std::size_t>(r / perFrame);
        while (j < s.size() && s[j].time < frameTime(k)) ++j;
        out.push_back(j < s.size() ? s[j] : s.back());
        continue;
      }
      while (j + 1 < s.size() && s[j + 1].time < t) ++j;
      out.push_back(j + 1 < s.size() ? interpolatePose(s[j], s[j + 1], t) : s.back());
    }
    return out;
  }
  double frameTime(std::size_t k) const {
    return settings_.plan.frameTime(static_cast<long long>(k));
  }
  /// The largest rotation between consecutive rows of body i, degrees.
  double maxTurn(std::size_t i, int perFrame) const {
    const std::vector<PoseSample> r = rows(i, perFrame);
    double m = 0.0;
    for (std::size_t k = 1; k < r.size(); ++k) {
      m = std::max(m, r[k - 1].pose.q.angularDistance(r[k].pose.q));
    }
    return m * 180.0 / M_PI;
  }
  void writeMesh(std::size_t i, const std::string& path) const {
    std::string text = "# samara export: body " + body(i).name +
                       " in its own frame (the .chan channels place it); Y-up, metres\n";
    appendObjObject(&text, body(i).name, meshes_[i], body(i).faces, 1);
    files_->write(path, [&](std::ostream& s) {
      s.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
  }
  void writeSidecar(int perFrame, double turnDeg) const {
    const FramePlan& p = settings_.plan;
    nlohmann::ordered_json j;
    j["format"] = "Houdini .chan: one row per sample, tx ty tz (m) rx ry rz (degrees)";
    j["fps"] = p.fps;
    j["rows_per_frame"] = perFrame;
    j["sample_rate"] = p.fps * perFrame;
    j["first_frame"] = p.frameNumber(0);
    j["last_frame"] = p.frameNumber(frames_ - 1);
    j["rows"] = (frames_ - 1) * perFrame + 1;
    j["duration_s"] = p.frameTime(frames_ - 1);
    j["transform_order"] = "srt";
    j["rotation_order"] = "xyz";
    j["up_axis"] = "Y";
    j["max_turn_between_rows_deg"] = turnDeg;
    j["houdini"] =
        "File CHOP: sample rate = sample_rate, start = first_frame (frames); channels "
        "tx ty tz rx ry rz onto a Transform SOP or object of the body's .obj";
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < numBodies(); ++i) {
      // JSON text is UTF-8; a file name need not be (printable escapes its other bytes).
      const auto fileName = [](const std::string& path) {
        return printable(std::filesystem::path(path).filename().string());
      };
      list.push_back({{"name", body(i).name},
                      {"chan", fileName(paths_[i])},
                      {"mesh", fileName(paths_[numBodies() + i])},
                      {"deforming", body(i).deforming}});
    }
    j["bodies"] = list;
    const std::string text = j.dump(2) + "\n";
    files_->write(paths_.back(), [&](std::ostream& s) {
      s.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
  }

  int rowsPerFrame() const override { return perFrame_; }

  std::vector<std::vector<PoseSample>> samples_;  // per body: frames and steps, in time order
  int perFrame_ = 1;
  std::vector<geometry::VertexMatrix> meshes_;  // per body: frame 0, body frame
  long long frames_ = 0;
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
        putFloat(s, static_cast<float>(settings_.plan.frameNumber(0)));  // start frame
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
                       std::to_string(settings_.plan.frameNumber(frame.index)) + ", t = ";
    appendNumber(&text, frame.time, "%.9g");
    text += " s; world frame, Y-up, metres\n";
    long long offset = 1;
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const BodyFrame& b = of(frame, i);
      requireVertices(b, i);
      appendObjObject(&text, body(i).name, b.worldVertices, body(i).faces, offset);
      offset += b.worldVertices.rows();
    }
    files_->write(paths_[static_cast<std::size_t>(frame.index)], [&](std::ostream& s) {
      s.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
  }
  void finish() override {}
};

}  // namespace

// --- the exporter ----------------------------------------------------------------------------

MotionExporter::MotionExporter(ExportSettings settings, std::vector<ExportBody> bodies,
                               OutputFiles* files) {
  assert(files != nullptr);
  switch (settings.format) {
    case ExportFormat::kGlb:
      writer_ = makeGlbWriter(settings, bodies, files);
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

void MotionExporter::addStep(const StepPoses& step) { writer_->addStep(step); }

void MotionExporter::finish() { writer_->finish(); }

int MotionExporter::rowsPerFrame() const { return writer_->rowsPerFrame(); }

}  // namespace samara::io
