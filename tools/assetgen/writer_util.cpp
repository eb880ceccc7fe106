#include "writer_util.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace samara::assetgen {

bool writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::fprintf(stderr, "samara_assetgen: cannot write %s\n", path.string().c_str());
    return false;
  }
  std::printf("wrote %s\n", path.string().c_str());
  return true;
}

double r9(double x) {
  if (x == 0.0 || !std::isfinite(x)) return x;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return std::strtod(buf, nullptr);
}

nlohmann::ordered_json jsonVec3(const Vec3& v) {
  return nlohmann::ordered_json::array({r9(v.x()), r9(v.y()), r9(v.z())});
}

nlohmann::ordered_json jsonQuat(const Quat& q) {
  return nlohmann::ordered_json::array({r9(q.w()), r9(q.x()), r9(q.y()), r9(q.z())});
}

}  // namespace samara::assetgen
