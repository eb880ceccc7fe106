#include "io/cfd_reference.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "io/error.h"
#include "io/json_util.h"
#include "io/png.h"

namespace samara::io {

namespace fs = std::filesystem;

std::optional<CfdReference> findCfdReference(const std::string& scenePath) {
  const fs::path scene(scenePath);
  if (scene.filename() != "reduced_scene.json") return std::nullopt;
  const fs::path dir = scene.parent_path().empty() ? fs::path(".") : scene.parent_path();
  std::error_code ec;
  if (!fs::is_regular_file(dir / "trajectory.csv", ec) ||
      !fs::is_regular_file(dir / "snapshots.json", ec)) {
    return std::nullopt;
  }
  return loadCfdReference(dir.string());
}

CfdReference loadCfdReference(const std::string& dir) {
  CfdReference r;
  r.dir = dir;
  const std::string trajectory = (fs::path(dir) / "trajectory.csv").string();
  r.states = readStatesCsv(trajectory);
  if (r.states.empty()) throw Error(trajectory, "no samples");
  for (std::size_t k = 1; k < r.states.size(); ++k) {
    if (!(r.states[k].t > r.states[k - 1].t)) {
      throw Error::atLine(trajectory, r.states[k].line, "times must increase");
    }
  }
  const std::string index = (fs::path(dir) / "snapshots.json").string();
  const Json doc = parseJson(readFile(index, std::uintmax_t{1} << 24), index);
  const Node root(doc, index);
  root.expectObject({"scene", "nx", "ny", "dx", "vorticity_scale", "snapshots"});
  r.sceneName = root.at("scene").string();
  const int nx = root.at("nx").integer(8, 1 << 14), ny = root.at("ny").integer(8, 1 << 14);
  const double dx = root.at("dx").positive();
  r.width = nx * dx;
  r.height = ny * dx;
  const Node list = root.at("snapshots");
  list.expectArray();
  for (std::size_t k = 0; k < list.size(); ++k) {
    const Node item = list.item(k);
    item.expectObject({"t", "origin", "png", "npy"});
    CfdPicture p;
    p.t = item.at("t").nonNegative();
    if (!r.pictures.empty() && !(p.t > r.pictures.back().t)) {
      throw item.at("t").error("times must increase");
    }
    const Node origin = item.at("origin");
    origin.expectArray(2);
    p.x0 = origin.item(0).number();
    p.y0 = origin.item(1).number();
    const std::string name = item.at("png").string();
    if (name.empty() || fs::path(name).has_parent_path()) {
      throw item.at("png").error("must be a file name in the run's folder");
    }
    p.file = (fs::path(dir) / name).string();
    const Image image = decodePng(readFile(p.file, std::uintmax_t{1} << 28), p.file);
    if (image.width != nx || image.height != ny) {
      throw Error(p.file, "is " + std::to_string(image.width) + " × " +
                              std::to_string(image.height) + " pixels; snapshots.json says " +
                              std::to_string(nx) + " × " + std::to_string(ny));
    }
    p.pixelsX = image.width;
    p.pixelsY = image.height;
    p.rgb = image.rgb;
    r.pictures.push_back(std::move(p));
  }
  return r;
}

CfdPose cfdPoseAt(const CfdReference& r, double t) {
  const auto& s = r.states;
  const auto after = std::upper_bound(s.begin(), s.end(), t,
                                      [](double v, const StateRow& row) { return v < row.t; });
  auto pose = [](const StateRow& row) { return CfdPose{row.com.value_or(Vec3::Zero()), row.q}; };
  if (after == s.begin()) return pose(s.front());
  if (after == s.end()) return pose(s.back());
  const StateRow& a = *(after - 1);
  const StateRow& b = *after;
  const double w = (t - a.t) / (b.t - a.t);
  const Vec3 pa = a.com.value_or(Vec3::Zero()), pb = b.com.value_or(Vec3::Zero());
  return CfdPose{pa + w * (pb - pa), a.q.slerp(w, b.q).normalized()};
}

int cfdPictureAt(const CfdReference& r, double t) {
  int best = -1;
  double gap = 0.0;
  for (std::size_t k = 0; k < r.pictures.size(); ++k) {
    const double g = std::abs(r.pictures[k].t - t);
    if (best < 0 || g < gap) {
      best = static_cast<int>(k);
      gap = g;
    }
  }
  return best;
}

}  // namespace samara::io
