#include "io/animation_io.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "io/animation_detail.h"
#include "io/error.h"
#include "io/gltf_skin.h"
#include "io/obj.h"

namespace samara::io {

namespace fs = std::filesystem;

namespace detail {

/// Checks that `rel` names an existing regular file; returns the resolved path.
std::string existingFile(const Node& where, const std::string& rel, const std::string& baseDir,
                         const std::string& what) {
  if (rel.empty()) throw where.error("empty file path");
  const std::string file = resolvePath(baseDir, rel);
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec || !fs::exists(st)) {
    throw where.error(what + "file \"" + rel + "\" not found (looked for " + file + ")");
  }
  if (!fs::is_regular_file(st)) throw where.error(what + "\"" + file + "\" is not a regular file");
  return file;
}

Vec3 unitVector(const Node& n) {
  const Vec3 v = n.vec3();
  const double norm = v.norm();
  if (!(norm > 1e-12) || !std::isfinite(norm)) throw n.error("must be a non-zero vector");
  return v / norm;
}

const geometry::TriMesh& requireMesh(const Node& a, const AnimationContext& ctx, const char* type) {
  if (ctx.mesh == nullptr) {
    throw a.error(std::string("a \"") + type + "\" animation needs the body's \"mesh\"");
  }
  return *ctx.mesh;
}

}  // namespace detail

namespace {

using detail::existingFile;
using detail::kPi;
using detail::requireMesh;
using detail::unitVector;
using detail::usedBy;

std::string angleText(double deg) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", deg);
  return buf;
}

// Playback bounds: beyond them (t · time_scale + time_offset) · fps overflows a double
// within a run, and a looped or ping-pong animation would turn into NaN.
constexpr double kMaxTimeScale = 1e6;
constexpr double kMaxTimeOffset = 1e9;  // s
constexpr double kMaxFps = 1e6;

/// A finite number within [−limit, limit].
double within(const Node& n, double limit) {
  const double x = n.number();
  if (std::abs(x) > limit) {
    throw n.error("must be within ±" + formatNumber(limit) + " (got " + formatNumber(x) + ")");
  }
  return x;
}

/// A finite number in (0, limit].
double positiveAtMost(const Node& n, double limit) {
  const double x = n.positive();
  if (x > limit)
    throw n.error("must be at most " + formatNumber(limit) + " (got " + formatNumber(x) + ")");
  return x;
}

bool removeRootMotion(const Node& a) {
  return !a.has("root_motion") || a.at("root_motion").choice({"remove", "keep"}) == "remove";
}

std::string triangle(const geometry::FaceMatrix& F, Eigen::Index i) {
  return "f " + std::to_string(F(i, 0) + 1) + " " + std::to_string(F(i, 1) + 1) + " " +
         std::to_string(F(i, 2) + 1);
}

// --- sequence ------------------------------------------------------------------------------

LoadedAnimation readSequence(const Node& a, const AnimationContext& ctx) {
  a.expectObject({"type", "files", "first", "count", "fps", "mode", "interpolation", "time_scale",
                  "time_offset", "root_motion"});
  const Node files = a.at("files");
  std::vector<std::string> rel;
  const bool isList = files.json().is_array();
  if (files.json().is_string()) {
    const std::string pattern = files.string();
    const long long first = a.has("first") ? a.at("first").integer(0, 1'000'000'000) : 1;
    if (!a.has("count")) {
      throw a.error("\"count\" (the number of frames) is required with a pattern in \"files\"");
    }
    const int count = a.at("count").integer(1, ctx.maxFrames);
    for (int k = 0; k < count; ++k) {
      try {
        rel.push_back(expandFramePattern(pattern, first + k));
      } catch (const std::invalid_argument& e) {
        throw files.error(e.what());
      }
    }
  } else if (files.json().is_array()) {
    for (const char* key : {"first", "count"}) {
      if (a.has(key)) {
        throw a.at(key).error("only used with a printf pattern in \"files\", not a list");
      }
    }
    if (files.size() == 0) throw files.error("needs at least one file");
    if (files.size() > static_cast<std::size_t>(ctx.maxFrames)) {
      throw files.error("more than " + std::to_string(ctx.maxFrames) + " frames");
    }
    for (std::size_t k = 0; k < files.size(); ++k) {
      rel.push_back(files.item(k).string());
    }
  } else {
    throw files.error(
        "expected a printf pattern (\"meshes/eel_%04d.obj\") or a list of OBJ "
        "files, got " +
        files.describe());
  }

  core::MeshSequence::Settings s;
  if (a.has("fps")) s.fps = positiveAtMost(a.at("fps"), kMaxFps);
  if (a.has("mode")) {
    const std::string mode = a.at("mode").choice({"loop", "hold", "pingpong"});
    s.mode = mode == "loop"   ? core::LoopMode::kLoop
             : mode == "hold" ? core::LoopMode::kHold
                              : core::LoopMode::kPingPong;
  }
  if (a.has("interpolation")) {
    s.smooth = a.at("interpolation").choice({"linear", "catmull_rom"}) == "catmull_rom";
  }
  if (a.has("time_scale")) s.timeScale = within(a.at("time_scale"), kMaxTimeScale);
  if (a.has("time_offset")) s.timeOffset = within(a.at("time_offset"), kMaxTimeOffset);
  const bool removeRoot = removeRootMotion(a);

  std::vector<geometry::VertexMatrix> frames;
  frames.reserve(rel.size());
  std::map<std::string, std::size_t> frameOfFile;  // resolved path → first frame using it
  geometry::TriMesh first;
  std::string firstFile;
  const geometry::TriMesh* ref = ctx.mesh;
  for (std::size_t k = 0; k < rel.size(); ++k) {
    const Node where = isList ? files.item(k) : files;
    const std::string frameName = "frame " + std::to_string(k);
    const std::string file = existingFile(where, rel[k], ctx.baseDir, frameName + ": ");
    const auto cached = frameOfFile.find(file);
    if (cached != frameOfFile.end()) {  // a file listed again (a hold or a return)
      frames.push_back(frames[cached->second]);
      continue;
    }
    frameOfFile.emplace(file, frames.size());
    geometry::TriMesh m =
        usedBy(files, frameName, [&] { return loadObj(file, ctx.maxFileBytes, ctx.maxFaces); });
    const std::string refName =
        ctx.mesh != nullptr ? "the body's mesh" : "frame 0 (" + firstFile + ")";
    auto mismatch = [&](const std::string& what) {
      return Error(file, frameName + ": " + what)
          .withNote(" (all frames need one topology; used by " + a.file() + ": " + files.pointer() +
                    ")");
    };
    if (ref != nullptr) {
      if (m.numVertices() != ref->numVertices()) {
        throw mismatch(std::to_string(m.numVertices()) + " vertices, " + refName + " has " +
                       std::to_string(ref->numVertices()));
      }
      if (m.numFaces() != ref->numFaces()) {
        throw mismatch(std::to_string(m.numFaces()) + " triangles, " + refName + " has " +
                       std::to_string(ref->numFaces()));
      }
      for (Eigen::Index f = 0; f < m.F.rows(); ++f) {
        if (m.F.row(f) != ref->F.row(f)) {
          throw mismatch("triangle " + std::to_string(f + 1) + " is " + triangle(m.F, f) + ", " +
                         refName + " has " + triangle(ref->F, f));
        }
      }
    }
    if (static_cast<std::int64_t>(m.numVertices()) * static_cast<std::int64_t>(rel.size()) >
        ctx.maxSequenceVertices) {
      throw files.error(std::to_string(rel.size()) + " frames of " +
                        std::to_string(m.numVertices()) + " vertices exceed the limit of " +
                        std::to_string(ctx.maxSequenceVertices) + " vertices in all");
    }
    frames.push_back(m.V);
    if (k == 0) {
      first = std::move(m);
      firstFile = file;
      if (ref == nullptr) ref = &first;
    }
  }

  LoadedAnimation out;
  out.mesh = ctx.mesh != nullptr ? *ctx.mesh : first;
  const std::size_t numFrames = frames.size();
  std::shared_ptr<const core::ShapeAnimation> anim =
      std::make_shared<core::MeshSequence>(std::move(frames), s);
  if (removeRoot && numFrames > 1) anim = std::make_shared<core::RootMotionRemoved>(anim);
  out.animation = std::move(anim);
  return out;
}

// --- glTF ------------------------------------------------------------------------------------

LoadedAnimation readGltf(const Node& a, const AnimationContext& ctx) {
  a.expectObject(
      {"type", "file", "animation", "mesh", "skin", "loop", "time_scale", "weld", "root_motion"});
  const Node fileNode = a.at("file");
  const std::string rel = fileNode.string();
  GltfSkinOptions o;
  auto indexOrName = [](const Node& n, int* index, std::string* name) {
    if (n.json().is_string()) {
      *name = n.string();
      if (name->empty()) throw n.error("must not be empty");
    } else if (n.json().is_number()) {
      *index = n.integer(0, 1'000'000'000);
    } else {
      throw n.error("expected an index or a name, got " + n.describe());
    }
  };
  if (a.has("animation")) indexOrName(a.at("animation"), &o.animation, &o.animationName);
  if (a.has("mesh")) indexOrName(a.at("mesh"), &o.mesh, &o.meshName);
  if (a.has("skin")) o.skin = a.at("skin").integer(0, 1'000'000'000);
  if (a.has("loop")) o.loop = a.at("loop").boolean();
  if (a.has("time_scale")) o.timeScale = within(a.at("time_scale"), kMaxTimeScale);
  if (a.has("weld")) o.weld = a.at("weld").boolean();
  const bool removeRoot = removeRootMotion(a);
  if (!isGltfPath(rel)) throw fileNode.error("expected a .gltf or .glb file, got \"" + rel + "\"");
  const std::string file = existingFile(fileNode, rel, ctx.baseDir, "glTF ");

  geometry::TriMesh rest;
  std::shared_ptr<const core::ShapeAnimation> anim =
      usedBy(a, "", [&] { return loadGltfSkin(file, o, &rest, ctx.maxFileBytes); });
  if (ctx.mesh != nullptr && ctx.mesh->numVertices() != rest.numVertices()) {
    throw fileNode.error("the glTF mesh has " + std::to_string(rest.numVertices()) + " vertices" +
                         (o.weld ? " (after welding)" : "") + ", the body's mesh has " +
                         std::to_string(ctx.mesh->numVertices()) +
                         "; omit the body's \"mesh\" to use the glTF's");
  }
  LoadedAnimation out;
  if (ctx.mesh != nullptr) {
    out.mesh = *ctx.mesh;
  } else {
    out.mesh = std::move(rest);
  }
  if (removeRoot) anim = std::make_shared<core::RootMotionRemoved>(anim);
  out.animation = std::move(anim);
  return out;
}

// --- travelling wave ------------------------------------------------------------------------

LoadedAnimation readWave(const Node& a, const AnimationContext& ctx) {
  a.expectObject({"type", "axis", "lateral", "amplitude", "wavelength", "frequency", "phase_deg",
                  "ramp_time"});
  const geometry::TriMesh& mesh = requireMesh(a, ctx, "wave");
  auto w = std::make_shared<core::TravellingWave>();
  w->rest = mesh.V;
  if (a.has("axis")) w->axis = unitVector(a.at("axis"));
  if (a.has("lateral")) {
    const Node n = a.at("lateral");
    const Vec3 lateral = unitVector(n);
    const double c = lateral.dot(w->axis);
    if (std::abs(c) > 1e-6) {
      throw n.error("must be perpendicular to \"axis\" (the angle between them is " +
                    angleText(std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / kPi) + " deg)");
    }
    w->lateral = (lateral - c * w->axis).normalized();
  } else if (std::abs(w->lateral.dot(w->axis)) > 1e-6) {
    throw a.error("give \"lateral\" (the default +z is not perpendicular to \"axis\")");
  }
  const Node amp = a.at("amplitude");
  if (amp.json().is_number()) {
    w->a0 = amp.number();
    w->a1 = 0.0;
    w->a2 = 0.0;
  } else {
    amp.expectArray(3);
    w->a0 = amp.item(0).number();
    w->a1 = amp.item(1).number();
    w->a2 = amp.item(2).number();
  }
  w->wavelength = a.at("wavelength").positive();
  w->frequency = a.has("frequency") ? a.at("frequency").number() : 1.0;
  w->phase = a.has("phase_deg") ? a.at("phase_deg").number() * kPi / 180.0 : 0.0;
  w->rampTime = a.has("ramp_time") ? a.at("ramp_time").nonNegative() : 0.0;
  w->prepare();
  LoadedAnimation out;
  out.mesh = mesh;
  out.animation = std::move(w);
  return out;
}

}  // namespace

std::string resolvePath(const std::string& baseDir, const std::string& rel) {
  fs::path p(rel);
  if (p.is_relative() && !baseDir.empty()) p = fs::path(baseDir) / p;
  return p.lexically_normal().string();
}

std::string expandFramePattern(const std::string& pattern, long long frame) {
  std::string out;
  int conversions = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    const bool zero = j < pattern.size() && pattern[j] == '0';
    if (zero) ++j;
    int width = 0;
    while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9') {
      width = width * 10 + (pattern[j] - '0');
      if (width > 20) throw std::invalid_argument("field width in \"" + pattern + "\" over 20");
      ++j;
    }
    if (j >= pattern.size() || pattern[j] != 'd') {
      throw std::invalid_argument("unsupported conversion in \"" + pattern +
                                  "\": use %d, %4d or %04d for the frame number (%% for %)");
    }
    if (++conversions > 1) {
      throw std::invalid_argument("\"" + pattern + "\" has more than one %d");
    }
    std::string digits = std::to_string(frame < 0 ? -frame : frame);
    const std::size_t sign = frame < 0 ? 1 : 0;
    const auto w = static_cast<std::size_t>(width);
    if (digits.size() + sign < w) {
      const std::size_t pad = w - digits.size() - sign;
      digits = zero ? std::string(pad, '0') + digits : digits;
      if (!zero) out += std::string(pad, ' ');
    }
    if (sign) out += '-';
    out += digits;
    i = j;
  }
  if (conversions == 0) {
    throw std::invalid_argument("\"" + pattern +
                                "\" has no %d for the frame number (e.g. \"meshes/eel_%04d.obj\")");
  }
  return out;
}

LoadedAnimation parseAnimation(const Node& node, const AnimationContext& ctx) {
  if (!node.json().is_object()) {
    throw node.error("expected an animation object {\"type\": ...}, got " + node.describe());
  }
  const std::string type = node.at("type").choice({"sequence", "gltf", "wave", "parts"});
  if (type == "sequence") return readSequence(node, ctx);
  if (type == "gltf") return readGltf(node, ctx);
  if (type == "wave") return readWave(node, ctx);
  return detail::readParts(node, ctx);
}

LoadedAnimation parseAnimation(const Json& json, const std::string& pointer,
                               const AnimationContext& ctx) {
  return parseAnimation(Node(json, ctx.scenePath, pointer), ctx);
}

}  // namespace samara::io
