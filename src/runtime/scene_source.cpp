#include "runtime/scene_source.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <utility>

#include "io/error.h"
#include "io/obj.h"
#if defined(SAMARA_HAVE_GLTF)
#include "io/gltf_skin.h"
#endif

namespace samara::runtime {

namespace {

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace

FileKind fileKind(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".json") return FileKind::kScene;
  if (ext == ".obj") return FileKind::kObj;
  if (ext == ".gltf" || ext == ".glb") return FileKind::kGltf;
  return FileKind::kUnknown;
}

bool gltfSupported() {
#if defined(SAMARA_HAVE_GLTF)
  return true;
#else
  return false;
#endif
}

core::WorldDef defaultSceneForMesh(geometry::TriMesh mesh, const std::string& name) {
  core::WorldDef def;
  def.name = name;
  def.fluid.density = 1.225;
  def.floor = core::FloorDef{};
  def.dt = 0.002;
  def.duration = 10.0;
  Vec3 lo, hi;
  geometry::boundingBox(mesh, &lo, &hi);
  const Vec3 centre = 0.5 * (lo + hi);
  const double size = (hi - lo).maxCoeff();
  core::BodyDef b;
  b.name = name;
  b.mesh = std::move(mesh);
  b.mass.mode = core::MassMode::kDensity;
  b.mass.density = 700.0;
  b.mass.thickness = 0.0002;
  b.orientation = Quat(Eigen::AngleAxisd(20.0 * M_PI / 180.0, Vec3::UnitZ()));
  const double height = std::max(2.0, 3.0 * size);
  // Place the rotated bounding-box centre at (0, height, 0).
  b.position = Vec3(0.0, height, 0.0) - b.orientation * centre;
  def.bodies.push_back(std::move(b));
  return def;
}

core::WorldDef loadSceneOrMesh(const std::string& path, const io::SetList& sets) {
  const std::string stem = std::filesystem::path(path).stem().string();
  switch (fileKind(path)) {
    case FileKind::kScene:
      return io::loadScene(path, sets);
    case FileKind::kObj:
      return defaultSceneForMesh(io::loadObj(path), stem.empty() ? "mesh" : stem);
    case FileKind::kGltf:
#if defined(SAMARA_HAVE_GLTF)
      return defaultSceneForMesh(io::loadGltfMesh(path), stem.empty() ? "mesh" : stem);
#else
      throw io::Error(path, "glTF files are not supported yet in this build");
#endif
    case FileKind::kUnknown:
      break;
  }
  throw io::Error(path, "unknown file type (expected a .json scene, an .obj or a .gltf/.glb)");
}

}  // namespace samara::runtime
