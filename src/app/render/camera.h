#pragma once
// Orbit camera around a target point (Y up): orbit, pan, zoom, follow, reset.
#include <glm/glm.hpp>

namespace samara::app {

class OrbitCamera {
 public:
  /// Looks at `center` from a distance that shows a sphere of `radius` (m) in a view of
  /// `aspect` (width / height), from the default direction (front-right, slightly above).
  void frame(const glm::vec3& center, float radius, float aspect = 1.0f);
  /// The distance at which a sphere of `radius` fills the view of `aspect` (with a margin).
  float fitDistance(float radius, float aspect) const;
  /// Rotates by a mouse drag of (dx, dy) pixels.
  void orbit(float dx, float dy);
  /// Moves the target in the view plane by a drag of (dx, dy) pixels in a viewport
  /// `viewportHeight` pixels tall.
  void pan(float dx, float dy, float viewportHeight);
  /// Zooms by mouse-wheel `steps` (positive = closer).
  void zoom(float steps);

  glm::vec3 eye() const;
  glm::mat4 view() const;
  /// Perspective projection for a view of `aspect` (width / height).
  glm::mat4 projection(float aspect) const;

  glm::vec3 target{0.0f, 1.0f, 0.0f};
  float distance = 3.0f;  ///< m
  float yaw = 0.6f;       ///< rad, about +Y
  float pitch = 0.25f;    ///< rad above the horizon
  float fovY = 0.7f;      ///< rad
};

}  // namespace samara::app
