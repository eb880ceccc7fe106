#pragma once
// OpenGL 3.3 renderer: bodies (rigid bodies instanced by shared mesh, shape-changing
// bodies' vertices uploaded from every new snapshot in one buffer: BodyBatches), a soft
// shadow map from a key light, a ground grid, a translucent water surface, COM trails (one
// buffer and one draw call for all of them), a sky gradient and an optional picture on a
// plane behind the bodies (a Navier–Stokes reference's vorticity). Ghost bodies
// (Snapshot::ghostBodies, a comparison run under another model) are drawn translucent in a cool
// tint after the opaque bodies and cast no shadow. Only the UI thread touches it; it reads
// snapshots, never the World.
#include <epoxy/gl.h>

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "app/render/body_batches.h"
#include "app/render/camera.h"
#include "app/render/shader.h"
#include "runtime/snapshot.h"

namespace samara::app {

struct RenderSettings {
  bool shadows = true;         ///< key-light shadow map
  bool grid = true;            ///< ground grid
  bool water = true;           ///< water surface (when the scene has water)
  bool trails = true;          ///< centre-of-mass trails
  double trailSeconds = 10.0;  ///< trail length (simulated s); whole seconds are ticked
  bool ghosts = true;          ///< ghost bodies (when the snapshot has a ghost run)
  int selected = -1;           ///< highlighted body (-1 = none)
};

/// A trail: COM positions (world, m), oldest first.
using Trail = std::vector<glm::vec3>;

class Renderer {
 public:
  /// Loads the shaders from `shaderDir`; throws ShaderError naming a missing or bad file.
  explicit Renderer(const std::string& shaderDir);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  /// Takes the bodies and ghost bodies of a new snapshot (new generation → new index
  /// buffers).
  void update(const runtime::Snapshot& snapshot);
  /// Replaces the trails (one per body, and one per ghost body): one upload per kind.
  void setTrails(const std::vector<Trail>& trails, const std::vector<Trail>& ghostTrails = {});
  /// A picture on a vertical plane behind the bodies (the fluid reference's vorticity):
  /// RGB rows top to bottom, covering lowerLeft + [0, size.x] × [0, size.y] at z =
  /// lowerLeft.z (world, m). `id` names the picture: the same id is not uploaded again.
  struct Backdrop {
    int id = -1;
    const unsigned char* rgb = nullptr;
    int pixelsX = 0, pixelsY = 0;
    glm::vec3 lowerLeft{0.0f};
    glm::vec2 size{0.0f};
  };
  /// Shows `b` from the next draw on (nullptr: none).
  void setBackdrop(const Backdrop* b);
  /// A rectangle of the target in GL pixels (origin at the bottom left).
  struct Viewport {
    int x = 0, y = 0, width = 0, height = 0;
  };
  /// Draws everything into the bound draw framebuffer (the window's, or an offscreen one),
  /// `targetWidth` × `targetHeight` px: clears it all (the colour only if `clear`: panes of
  /// a split view after the first), then draws the scene into `viewport` (its aspect is the
  /// camera's).
  void draw(const OrbitCamera& camera, int targetWidth, int targetHeight, const Viewport& viewport,
            const RenderSettings& settings, bool clear = true);

  /// Height of the ground grid (the floor, or a reference plane below the bodies), m.
  float groundHeight() const { return groundY_; }
  /// Whether the scene has a floor (otherwise no ground grid is drawn).
  bool hasFloor() const { return hasFloor_; }
  /// Bounding sphere of the bodies (world, m).
  glm::vec3 boundsCenter() const { return boundsCenter_; }
  float boundsRadius() const { return boundsRadius_; }

  /// Display colour (sRGB) of body i's front side, for the panels and plots.
  static glm::vec3 bodyColor(int i);
  /// Display colour (sRGB) of the ghost of body i (its front side, before translucency).
  static glm::vec3 ghostColor(int i);
  /// Opacity of ghost bodies (face-on; edges are a little more opaque).
  static constexpr float kGhostAlpha = 0.35f;

 private:
  /// The trails of one kind (main or ghost) in one buffer: position, opacity and colour per
  /// point, each trail a line strip of it.
  struct TrailBatch {
    GLuint vao = 0, vbo = 0;
    std::vector<GLint> first;
    std::vector<GLsizei> count;
    std::vector<float> data;
  };
  static void fillTrails(TrailBatch* batch, const std::vector<Trail>& trails, bool ghost);
  static void drawTrailBatch(const TrailBatch& batch);
  void ensureShadowMap();
  glm::mat4 lightViewProj();  // also sets shadowCenter_ / shadowRadius_
  // The passes of draw().
  struct Frame;
  void setLighting(Program& p, const Frame& f) const;
  /// The unit x-z quad (bound) at `at`, scaled to `halfSize` m.
  static void drawQuad(Program& p, const glm::vec3& at, float halfSize);
  /// A full-screen vertical gradient (the sky, the underwater tint).
  void drawGradient(const glm::vec3& top, const glm::vec3& bottom, float alpha);
  void drawShadowMap(const glm::mat4& lightVP, GLuint target);
  void drawGround(const Frame& f, float cameraDistance);
  void drawBodies(const Frame& f);
  void drawTrails(const Frame& f);
  void drawGhosts();
  void drawWater(const Frame& f);
  void drawBackdrop(const Frame& f);

  Program mesh_, shadow_, ground_, groundShadow_, water_, line_, sky_, backdrop_;
  GLuint backdropTex_ = 0;
  int backdropId_ = -1;  // the uploaded picture (-1 = none shown)
  glm::vec3 backdropLowerLeft_{0.0f};
  glm::vec2 backdropSize_{0.0f};
  BodyBatches bodies_;
  BodyBatches ghosts_;
  TrailBatch trails_;
  TrailBatch ghostTrails_;
  std::uint64_t generation_ = ~0ull;
  GLuint quadVao_ = 0, quadVbo_ = 0;  // unit quad in x-z, scaled per draw
  GLuint emptyVao_ = 0;               // for the full-screen triangle
  GLuint shadowFbo_ = 0, shadowTex_ = 0;
  int shadowSize_ = 1024;
  float groundY_ = 0.0f;
  bool hasWater_ = false;
  bool hasFloor_ = false;  // the scene has a floor (the grid is drawn only there)
  bool immersed_ = false;  // the whole scene is in water (no surface): a water background
  float waterY_ = 0.0f;
  glm::vec3 boundsCenter_{0.0f};
  float boundsRadius_ = 1.0f;
  glm::vec3 lightDir_;
  glm::vec3 shadowCenter_{0.0f};  // centre of the shadow map's reach (world, m)
  float shadowRadius_ = 1.0f;     // its half-width, m
};

}  // namespace samara::app
