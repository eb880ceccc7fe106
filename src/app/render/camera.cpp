#include "app/render/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace samara::app {

void OrbitCamera::frame(const glm::vec3& center, float radius, float aspect) {
  target = center;
  yaw = 0.6f;
  pitch = 0.55f;  // 32° above the horizon: falling plates, leaves and seeds show their face
  distance = fitDistance(radius, aspect);
}

float OrbitCamera::fitDistance(float radius, float aspect) const {
  // The narrower of the two fields of view decides (a tall, narrow view: the horizontal).
  const float halfX = std::atan(std::tan(0.5f * fovY) * std::max(aspect, 1e-3f));
  const float half = std::min(0.5f * fovY, halfX);
  return std::max(radius, 1e-3f) / std::sin(half) * 1.1f;
}

void OrbitCamera::orbit(float dx, float dy) {
  yaw -= dx * 0.008f;
  pitch = std::clamp(pitch + dy * 0.008f, -1.55f, 1.55f);
}

void OrbitCamera::pan(float dx, float dy, float viewportHeight) {
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  const float metresPerPixel =
      2.0f * distance * std::tan(0.5f * fovY) / std::max(viewportHeight, 1.0f);
  target += (-dx * right + dy * up) * metresPerPixel;
}

void OrbitCamera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(0.88f, steps), 1e-3f, 1e4f);
}

glm::vec3 OrbitCamera::eye() const {
  const glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                      std::cos(pitch) * std::cos(yaw));
  return target + distance * dir;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  const float nearZ = std::max(distance * 0.01f, 1e-4f);
  const float farZ = distance * 200.0f + 100.0f;
  return glm::perspective(fovY, std::max(aspect, 1e-3f), nearZ, farZ);
}

}  // namespace samara::app
