#include "io/export.h"

#include <tiny_gltf.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>

#include "io/csv.h"
#include "io/error.h"

namespace samara::io {

namespace fs = std::filesystem;

const char* const kExportFormatNames = "glb, obj, csv, chan, pc2";

const char* const kExportCsvHeader =
    "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,Lx,Ly,Lz,Px,Py,Pz,fall_speed,spin_rate,"
    "kinetic_energy,newton_iters,frame,ox,oy,oz";

namespace {

constexpr ExportFormat kFormats[] = {ExportFormat::kGlb, ExportFormat::kObj, ExportFormat::kCsv,
                                     ExportFormat::kChan, ExportFormat::kPc2};

/// x within 1e-9 (relative, at least absolute) of an integer counts as that integer.
double snapToInteger(double x) {
  const double r = std::round(x);
  return std::abs(x - r) <= 1e-9 * std::max(1.0, std::abs(x)) ? r : x;
}

/// "%.17g" without "-0".
void appendNumber(std::string* s, double x, const char* format = "%.17g") {
  if (x == 0.0) x = 0.0;
  char buf[40];
  const int n = std::snprintf(buf, sizeof buf, format, x);
  s->append(buf, static_cast<std::size_t>(n));
}

/// A name usable in a file name: [A-Za-z0-9._-] kept, anything else '_'; "body" if empty.
std::string fileSafe(const std::string& name) {
  std::string s;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    s += ok ? c : '_';
  }
  if (s.empty() || s == "." || s == "..") s = "body";
  return s;
}

/// OUT is a directory: an existing one, or a path ending in '/'.
bool isDirectoryTarget(const std::string& out) {
  if (!out.empty() && out.back() == '/') return true;
  std::error_code ec;
  return fs::is_directory(out, ec);
}

std::string withoutExtension(const std::string& out, const std::string& ext) {
  if (out.size() > ext.size() && out.compare(out.size() - ext.size(), ext.size(), ext) == 0) {
    return out.substr(0, out.size() - ext.size());
  }
  return out;
}

std::string joinPath(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

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

double wrapNear(double angle, double previous) {
  return angle + 360.0 * std::round((previous - angle) / 360.0);
}

}  // namespace

// --- names, frames ---------------------------------------------------------------------------

std::optional<ExportFormat> exportFormatFromName(const std::string& name) {
  for (const ExportFormat f : kFormats) {
    if (name == exportFormatName(f)) return f;
  }
  return std::nullopt;
}

const char* exportFormatName(ExportFormat format) {
  switch (format) {
    case ExportFormat::kGlb:
      return "glb";
    case ExportFormat::kObj:
      return "obj";
    case ExportFormat::kCsv:
      return "csv";
    case ExportFormat::kChan:
      return "chan";
    case ExportFormat::kPc2:
      return "pc2";
  }
  return "glb";
}

long long FramePlan::numFrames() const {
  assert(fps > 0.0 && dt > 0.0 && duration >= 0.0);
  return static_cast<long long>(std::floor(snapToInteger(duration * fps))) + 1;
}

long long FramePlan::frameStep(long long k) const {
  const double x = snapToInteger(static_cast<double>(k) / (fps * dt) + 0.5);
  return static_cast<long long>(std::floor(x));
}

std::vector<ExportBody> exportBodies(const core::World& world) {
  std::vector<ExportBody> bodies;
  for (int i = 0; i < world.numBodies(); ++i) {
    const core::BodyDef& def = world.bodyDef(i);
    bodies.push_back({def.name, def.mesh.F, def.animation != nullptr});
  }
  return bodies;
}

namespace {

Frame capture(const core::World& world, long long k, double fps,
              const std::function<bool(int)>& vertices) {
  Frame f;
  f.index = k;
  f.time = static_cast<double>(k) / fps;
  f.stepTime = world.time();
  f.bodies.resize(static_cast<std::size_t>(world.numBodies()));
  for (int i = 0; i < world.numBodies(); ++i) {
    BodyFrame& b = f.bodies[static_cast<std::size_t>(i)];
    b.diagnostics = world.diagnostics(i);
    b.pose = world.state(i).g;
    if (vertices(i)) b.worldVertices = world.worldVertices(i);
  }
  return f;
}

}  // namespace

Frame captureFrame(const core::World& world, long long k, double fps) {
  return capture(world, k, fps, [](int) { return true; });
}

// --- output files ----------------------------------------------------------------------------

StagedFiles::~StagedFiles() {
  if (committed_) return;
  for (const Entry& e : entries_) {
    std::error_code ec;
    fs::remove(e.temp, ec);
  }
}

void StagedFiles::write(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  const fs::path t(path);
  if (t.filename().empty()) throw Error(path, "not a file name");
  std::error_code ec;
  if (fs::is_directory(t, ec)) throw Error(path, "is a directory");
  for (const Entry& e : entries_) {
    if (e.target == path) throw Error(path, "the export writes this file twice");
  }
  Entry e;
  e.target = path;
  e.temp = (t.parent_path() /
            ("." + t.filename().string() + ".tmp." + std::to_string(static_cast<long>(::getpid()))))
               .string();
  std::ofstream stream(e.temp, std::ios::binary | std::ios::trunc);
  if (!stream) throw Error(path, "cannot write here (does the directory exist?)");
  entries_.push_back(e);
  fill(stream);
  stream.close();
  if (!stream) throw Error(path, "write error (disk full?)");
}

void StagedFiles::commit() {
  for (const Entry& e : entries_) {
    std::error_code ec;
    if (fs::is_directory(e.target, ec)) throw Error(e.target, "is a directory");
  }
  while (!entries_.empty()) {
    const Entry& e = entries_.front();
    std::error_code ec;
    fs::rename(e.temp, e.target, ec);
    if (ec) throw Error(e.target, "cannot rename the temporary file: " + ec.message());
    entries_.erase(entries_.begin());
  }
  committed_ = true;
}

std::vector<std::string> StagedFiles::targets() const {
  std::vector<std::string> t;
  for (const Entry& e : entries_) t.push_back(e.target);
  return t;
}

void MemoryFiles::write(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  std::ostringstream s;
  fill(s);
  if (files.count(path) == 0) order.push_back(path);
  files[path] = s.str();
}

// --- paths -----------------------------------------------------------------------------------

std::vector<std::string> exportPaths(const ExportSettings& settings,
                                     const std::vector<ExportBody>& bodies) {
  const std::string& out = settings.out;
  const bool dir = isDirectoryTarget(out);
  switch (settings.format) {
    case ExportFormat::kGlb:
    case ExportFormat::kCsv:
      return {out};
    case ExportFormat::kObj: {
      const std::string prefix =
          dir ? joinPath(out, fileSafe(settings.sceneName)) : withoutExtension(out, ".obj");
      const long long n = settings.plan.numFrames();
      const std::size_t width = std::max<std::size_t>(4, std::to_string(n - 1).size());
      std::vector<std::string> paths;
      paths.reserve(static_cast<std::size_t>(n));
      for (long long k = 0; k < n; ++k) {
        std::string digits = std::to_string(k);
        digits.insert(0, width - std::min(digits.size(), width), '0');
        paths.push_back(prefix + "_" + digits + ".obj");
      }
      return paths;
    }
    case ExportFormat::kChan:
    case ExportFormat::kPc2: {
      const std::string ext = settings.format == ExportFormat::kChan ? ".chan" : ".pc2";
      const std::string prefix = dir ? std::string() : withoutExtension(out, ext) + "_";
      std::vector<std::string> paths;
      std::set<std::string> used;
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::string name = fileSafe(bodies[i].name);
        if (used.count(name) != 0) name += "_" + std::to_string(i);
        used.insert(name);
        paths.push_back(dir ? joinPath(out, name + ext) : prefix + name + ext);
      }
      return paths;
    }
  }
  return {out};
}

void checkOutputPaths(const std::vector<std::string>& paths) {
  std::set<std::string> dirs;  // checked already
  for (const std::string& path : paths) {
    const fs::path t(path);
    if (t.filename().empty()) throw Error(path, "not a file name");
    std::error_code ec;
    if (fs::is_directory(t, ec)) throw Error(path, "is a directory");
    const std::string dir = t.parent_path().empty() ? "." : t.parent_path().string();
    if (dirs.count(dir) != 0) continue;
    if (!fs::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0) {
      throw Error(path, "cannot write here (does the directory exist?)");
    }
    dirs.insert(dir);
  }
}

// --- Houdini angles --------------------------------------------------------------------------

Vec3 houdiniEulerDegrees(const Mat3& R, const std::optional<Vec3>& previous) {
  constexpr double kDeg = 180.0 / M_PI;
  // R = Rz Ry Rx: R(2,0) = −sin ry, R(2,1) = cos ry sin rx, R(2,2) = cos ry cos rx,
  // R(0,0) = cos ry cos rz, R(1,0) = cos ry sin rz.
  const double cy = std::hypot(R(0, 0), R(1, 0));
  double rx = 0.0, ry = 0.0, rz = 0.0;
  if (cy > 1e-12) {
    rx = std::atan2(R(2, 1), R(2, 2));
    ry = std::atan2(-R(2, 0), cy);
    rz = std::atan2(R(1, 0), R(0, 0));
  } else {
    // Gimbal lock (ry = ±90°): only rx − rz (ry = 90°) or rx + rz (ry = −90°) is fixed;
    // keep rx at its previous value.
    rx = previous ? previous->x() / kDeg : 0.0;
    if (R(2, 0) < 0.0) {
      ry = M_PI / 2;
      rz = rx - std::atan2(R(0, 1), R(1, 1));
    } else {
      ry = -M_PI / 2;
      rz = std::atan2(-R(0, 1), R(1, 1)) - rx;
    }
  }
  const Vec3 a(rx * kDeg, ry * kDeg, rz * kDeg);
  if (!previous) return a;
  // The other solution: (rx + 180, 180 − ry, rz + 180).
  const Vec3 b(a.x() + 180.0, 180.0 - a.y(), a.z() + 180.0);
  Vec3 best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (const Vec3& c : {a, b}) {
    Vec3 w;
    for (int i = 0; i < 3; ++i) w[i] = wrapNear(c[i], (*previous)[i]);
    const double d = (w - *previous).cwiseAbs().sum();
    if (d < bestDistance) {
      bestDistance = d;
      best = w;
    }
  }
  return best;
}

Mat3 houdiniRotation(const Vec3& anglesDegrees) {
  const Vec3 r = anglesDegrees * (M_PI / 180.0);
  return (Eigen::AngleAxisd(r.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(r.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(r.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

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

  /// Appends bytes (4-aligned) and a buffer view; returns the view.
  int view(const void* data, std::size_t bytes, int target) {
    std::vector<unsigned char>& buf = model_.buffers[0].data;
    buf.resize((buf.size() + 3) / 4 * 4, 0);
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = buf.size();
    v.byteLength = bytes;
    v.target = target;
    const auto* p = static_cast<const unsigned char*>(data);
    buf.insert(buf.end(), p, p + bytes);
    model_.bufferViews.push_back(v);
    return static_cast<int>(model_.bufferViews.size()) - 1;
  }

  /// A float accessor over `values` (`width` components per element), with min/max.
  int floatAccessor(const std::vector<float>& values, int width, int type, int target,
                    bool bounds) {
    tinygltf::Accessor a;
    a.bufferView = view(values.data(), values.size() * sizeof(float), target);
    a.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
    a.type = type;
    a.count = values.size() / static_cast<std::size_t>(width);
    if (bounds) {
      a.minValues.assign(static_cast<std::size_t>(width), std::numeric_limits<double>::max());
      a.maxValues.assign(static_cast<std::size_t>(width), std::numeric_limits<double>::lowest());
      for (std::size_t k = 0; k < values.size(); ++k) {
        const std::size_t c = k % static_cast<std::size_t>(width);
        a.minValues[c] = std::min(a.minValues[c], static_cast<double>(values[k]));
        a.maxValues[c] = std::max(a.maxValues[c], static_cast<double>(values[k]));
      }
    }
    model_.accessors.push_back(a);
    return static_cast<int>(model_.accessors.size()) - 1;
  }

  int sampler(int input, int output, const char* interpolation) {
    tinygltf::AnimationSampler s;
    s.input = input;
    s.output = output;
    s.interpolation = interpolation;
    animation_.samplers.push_back(s);
    return static_cast<int>(animation_.samplers.size()) - 1;
  }

  void channel(int node, const char* path, int samplerIndex) {
    tinygltf::AnimationChannel c;
    c.sampler = samplerIndex;
    c.target_node = node;
    c.target_path = path;
    animation_.channels.push_back(c);
  }

  int addMesh(std::size_t i);

  std::vector<float> times_;
  std::vector<Track> tracks_;
  tinygltf::Model model_;
  tinygltf::Animation animation_;
};

constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;

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

  tinygltf::Primitive prim;
  prim.mode = TINYGLTF_MODE_TRIANGLES;
  prim.attributes["POSITION"] =
      floatAccessor(positions, 3, TINYGLTF_TYPE_VEC3, kArrayBuffer, /*bounds=*/true);
  prim.attributes["NORMAL"] =
      floatAccessor(normals, 3, TINYGLTF_TYPE_VEC3, kArrayBuffer, /*bounds=*/false);
  tinygltf::Accessor idx;
  idx.bufferView =
      view(indices.data(), indices.size() * sizeof(std::uint32_t), kElementArrayBuffer);
  idx.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
  idx.type = TINYGLTF_TYPE_SCALAR;
  idx.count = indices.size();
  model_.accessors.push_back(idx);
  prim.indices = static_cast<int>(model_.accessors.size()) - 1;

  tinygltf::Mesh mesh;
  mesh.name = body(i).name;
  if (!tr.targets.empty()) {
    tinygltf::Value::Array names;
    for (std::size_t k = 0; k < tr.targets.size(); ++k) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "frame_%04zu", k);
      names.emplace_back(std::string(buf));
      prim.targets.push_back(
          {{"POSITION", floatAccessor(tr.targets[k], 3, TINYGLTF_TYPE_VEC3, kArrayBuffer,
                                      /*bounds=*/true)}});
    }
    mesh.weights.assign(tr.targets.size(), 0.0);
    tinygltf::Value::Object extras;
    extras["targetNames"] = tinygltf::Value(std::move(names));  // Blender's shape key names
    mesh.extras = tinygltf::Value(std::move(extras));
  }
  mesh.primitives.push_back(std::move(prim));
  model_.meshes.push_back(std::move(mesh));
  return static_cast<int>(model_.meshes.size()) - 1;
}

void GlbExport::finish() {
  model_.asset.version = "2.0";
  model_.asset.generator = "samara export";
  model_.buffers.resize(1);
  tinygltf::Scene scene;
  scene.name = settings_.sceneName;
  animation_.name = settings_.sceneName;

  const std::size_t frames = times_.size();
  const int timeAccessor =
      frames > 0 ? floatAccessor(times_, 1, TINYGLTF_TYPE_SCALAR, 0, /*bounds=*/true) : -1;
  for (std::size_t i = 0; i < numBodies(); ++i) {
    const Track& tr = tracks_[i];
    tinygltf::Node node;
    node.name = body(i).name;
    node.mesh = addMesh(i);
    node.translation = {tr.origin.x(), tr.origin.y(), tr.origin.z()};
    node.rotation = {tr.q0.x(), tr.q0.y(), tr.q0.z(), tr.q0.w()};
    model_.nodes.push_back(std::move(node));
    const int n = static_cast<int>(model_.nodes.size()) - 1;
    scene.nodes.push_back(n);
    if (frames == 0) continue;
    const int tAcc = floatAccessor(tr.translation, 3, TINYGLTF_TYPE_VEC3, 0, false);
    const int rAcc = floatAccessor(tr.rotation, 4, TINYGLTF_TYPE_VEC4, 0, false);
    channel(n, "translation", sampler(timeAccessor, tAcc, "LINEAR"));
    channel(n, "rotation", sampler(timeAccessor, rAcc, "LINEAR"));
    if (!tr.targets.empty()) {
      // STEP weights: at frame k target k has weight 1, the others 0.
      const std::size_t m = tr.targets.size();
      std::vector<float> w(frames * m, 0.0f);
      for (std::size_t k = 0; k < frames && k < m; ++k) w[k * m + k] = 1.0f;
      const int wAcc = floatAccessor(w, 1, TINYGLTF_TYPE_SCALAR, 0, false);
      channel(n, "weights", sampler(timeAccessor, wAcc, "STEP"));
    }
  }
  if (!animation_.channels.empty()) model_.animations.push_back(std::move(animation_));
  model_.scenes.push_back(std::move(scene));
  model_.defaultScene = 0;

  files_->write(paths_[0], [&](std::ostream& s) {
    tinygltf::TinyGLTF gltf;
    if (!gltf.WriteGltfSceneToStream(&model_, s, /*prettyPrint=*/false, /*writeBinary=*/true)) {
      throw Error(paths_[0], "cannot serialise the glTF model");
    }
  });
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
  addFrame(capture(world, k, fps, [&](int i) { return writer_->needsVertices(i, k); }));
}

void MotionExporter::finish() { writer_->finish(); }

// --- the run ---------------------------------------------------------------------------------

long long exportStepCount(double duration, double dt) {
  const double n = duration / dt;
  const double rounded = std::round(n);
  if (std::abs(n - rounded) <= 1e-9 * std::max(1.0, n)) return static_cast<long long>(rounded);
  return static_cast<long long>(std::ceil(n));
}

ExportOutcome runExport(core::World* world, const FramePlan& plan, MotionExporter* exporter,
                        const ExportControl& control) {
  ExportOutcome outcome;
  outcome.steps = exportStepCount(plan.duration, plan.dt);
  const long long frames = plan.numFrames();
  auto cancelled = [&control] { return control.cancel && control.cancel->load(); };
  auto addFramesUpTo = [&](long long step) {
    while (outcome.frames < frames &&
           std::min(plan.frameStep(outcome.frames), outcome.steps) <= step) {
      exporter->addFrame(*world, outcome.frames, plan.fps);
      ++outcome.frames;
    }
  };
  addFramesUpTo(0);
  for (long long s = 1; s <= outcome.steps; ++s) {
    if (cancelled()) {
      outcome.status = ExportStatus::kCancelled;
      return outcome;
    }
    const double t = world->time();
    const core::StepReport report = world->step();
    std::string failure = report.ok() ? std::string() : report.message;
    for (int i = 0; failure.empty() && i < world->numBodies(); ++i) {
      const core::BodyState& st = world->state(i);
      if (!(st.g.q.coeffs().allFinite() && st.g.b.allFinite() && st.Y.allFinite() &&
            st.mu.allFinite())) {
        failure = "body '" + world->bodyDef(i).name + "': the state is not finite";
      }
    }
    if (!failure.empty()) {
      outcome.status = ExportStatus::kFailed;
      outcome.failedStep = s;
      outcome.failedTime = t;
      outcome.message = failure;
      return outcome;
    }
    addFramesUpTo(s);
    if (control.onStep) control.onStep(s, outcome.steps, world->time());
  }
  if (cancelled()) {
    outcome.status = ExportStatus::kCancelled;
    return outcome;
  }
  exporter->finish();
  return outcome;
}

}  // namespace samara::io
