#pragma once
// The one place where Eigen (double, core) meets GLM (float, renderer).
#include <glm/glm.hpp>

#include "geometry/types.h"

namespace samara::app {

inline glm::vec3 toGlm(const Vec3& v) {
  return glm::vec3(static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()));
}

}  // namespace samara::app
