#include "app/render/renderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "app/render/glm_eigen.h"
#include "io/palette.h"

namespace samara::app {

namespace {

// Front / back colours (linear RGB) per body: the front from io::kBodyColors (the glb export's
// materials too); the back of a sheet is a darker shade of its front, so that a thin blade or
// leaf seen from below stands out against the pale sky.
const std::array<glm::vec3, 12> kFront = [] {
  std::array<glm::vec3, 12> c{};
  for (std::size_t i = 0; i < c.size(); ++i) {
    c[i] = glm::vec3(io::kBodyColors[i][0], io::kBodyColors[i][1], io::kBodyColors[i][2]);
  }
  return c;
}();
constexpr int kPalette = 12;
glm::vec3 backOf(int k) { return kFront[k] * 0.35f + glm::vec3(0.02f); }
// Ghost bodies: each body's colours pulled most of the way towards a saturated sky blue,
// which stands out translucent against the grey ground and the pale sky and reads as "a
// ghost", never as a body of its own (a hint of the body's colour is left).
const glm::vec3 kGhostTint(0.03f, 0.40f, 1.0f);
constexpr float kGhostMix = 0.75f;

glm::vec3 ghostFront(int k) { return glm::mix(kFront[k], kGhostTint, kGhostMix); }
glm::vec3 ghostBack(int k) { return glm::mix(backOf(k), kGhostTint, kGhostMix); }

glm::vec3 toSrgb(const glm::vec3& c) {
  return glm::pow(glm::clamp(c, 0.0f, 1.0f), glm::vec3(1.0f / 2.2f));
}

int paletteIndex(int i) { return ((i % kPalette) + kPalette) % kPalette; }
BodyBatches::Colors bodyColors(int i) {
  const int k = paletteIndex(i);
  return {kFront[k], backOf(k)};
}
BodyBatches::Colors ghostColors(int i) {
  const int k = paletteIndex(i);
  return {ghostFront(k), ghostBack(k)};
}

constexpr int kTrailFloats = 7;  // position, opacity, colour

}  // namespace

glm::vec3 Renderer::bodyColor(int i) {
  return toSrgb(kFront[((i % kPalette) + kPalette) % kPalette]);
}

glm::vec3 Renderer::ghostColor(int i) {
  return toSrgb(ghostFront(((i % kPalette) + kPalette) % kPalette));
}

Renderer::Renderer(const std::string& shaderDir)
    : mesh_(Program::load(shaderDir, "mesh")),
      shadow_(Program::load(shaderDir, "shadow")),
      ground_(Program::load(shaderDir, "ground")),
      groundShadow_(Program::load(shaderDir, "ground", "#define SHADOW_PASS 1\n")),
      water_(Program::load(shaderDir, "water")),
      line_(Program::load(shaderDir, "line")),
      sky_(Program::load(shaderDir, "sky")),
      backdrop_(Program::load(shaderDir, "backdrop")),
      lightDir_(glm::normalize(glm::vec3(-0.35f, -1.0f, -0.45f))) {
  // Unit quad in the x-z plane, two triangles, [-1, 1]².
  const float quad[] = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, -1, 1, 0, 1, -1, 0, 1};
  glGenVertexArrays(1, &quadVao_);
  glGenBuffers(1, &quadVbo_);
  glBindVertexArray(quadVao_);
  glBindBuffer(GL_ARRAY_BUFFER, quadVbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
  glGenVertexArrays(1, &emptyVao_);
  for (TrailBatch* t : {&trails_, &ghostTrails_}) {
    glGenVertexArrays(1, &t->vao);
    glGenBuffers(1, &t->vbo);
    glBindVertexArray(t->vao);
    glBindBuffer(GL_ARRAY_BUFFER, t->vbo);
    const GLsizei stride = kTrailFloats * sizeof(float);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(3 * sizeof(float)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(4 * sizeof(float)));
  }
  glBindVertexArray(0);
  ensureShadowMap();
}

Renderer::~Renderer() {
  bodies_.release();
  ghosts_.release();
  for (TrailBatch* t : {&trails_, &ghostTrails_}) {
    glDeleteBuffers(1, &t->vbo);
    glDeleteVertexArrays(1, &t->vao);
  }
  glDeleteBuffers(1, &quadVbo_);
  glDeleteVertexArrays(1, &quadVao_);
  glDeleteVertexArrays(1, &emptyVao_);
  glDeleteFramebuffers(1, &shadowFbo_);
  glDeleteTextures(1, &shadowTex_);
  if (backdropTex_ != 0) glDeleteTextures(1, &backdropTex_);
}

void Renderer::setBackdrop(const Backdrop* b) {
  if (b == nullptr || b->rgb == nullptr || b->pixelsX <= 0 || b->pixelsY <= 0) {
    backdropId_ = -1;
    return;
  }
  backdropLowerLeft_ = b->lowerLeft;
  backdropSize_ = b->size;
  if (b->id == backdropId_) return;
  if (backdropTex_ == 0) glGenTextures(1, &backdropTex_);
  glBindTexture(GL_TEXTURE_2D, backdropTex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, b->pixelsX, b->pixelsY, 0, GL_RGB, GL_UNSIGNED_BYTE,
               b->rgb);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  backdropId_ = b->id;
}

void Renderer::ensureShadowMap() {
  if (shadowFbo_) return;
  glGenTextures(1, &shadowTex_);
  glBindTexture(GL_TEXTURE_2D, shadowTex_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, shadowSize_, shadowSize_, 0,
               GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const float border[] = {1.0f, 1.0f, 1.0f, 1.0f};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  glGenFramebuffers(1, &shadowFbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, shadowFbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, shadowTex_, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void Renderer::update(const runtime::Snapshot& s) {
  const bool newRun = s.generation != generation_ || bodies_.size() != s.bodies.size() ||
                      ghosts_.size() != s.ghostBodies.size();
  if (newRun) {
    generation_ = s.generation;
    bodies_.setup(s.bodies, bodyColors);
    ghosts_.setup(s.ghostBodies, ghostColors);
    // Ground: the floor, or a reference plane 1 m below the lowest starting vertex.
    if (s.params.floor) {
      // The contact is a spring: a resting body sinks by its static deflection g/ω². Draw
      // the floor 1.5 deflections lower so resting bodies stay visible on top of it.
      const double omega = 2.0 * M_PI * s.params.floor->frequencyHz;
      const double sag = s.params.gravity.norm() / (omega * omega);
      groundY_ = static_cast<float>(s.params.floor->height - 1.5 * sag - 1e-4);
    } else {
      double lowest = 0.0;
      for (const auto& b : s.bodies) {
        if (b.vertices.rows() > 0) lowest = std::min(lowest, b.boundsLo.y() - 1.0);
      }
      groundY_ = static_cast<float>(lowest);
    }
    hasWater_ = s.params.water.has_value();
    hasFloor_ = s.params.floor.has_value();
    // Entirely in a dense fluid (water, no surface): tint the background like water.
    immersed_ = !hasWater_ && s.params.fluidDensity > 100.0;
    waterY_ = hasWater_ ? static_cast<float>(s.params.water->level) : 0.0f;
  }
  // Poses (rigid bodies) and vertices (shape-changing bodies); the bounds of the main bodies
  // (the shadow map frames them) from each body's box: O(bodies).
  bodies_.update(s.bodies);
  ghosts_.update(s.ghostBodies);
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const runtime::BodySnapshot& b : s.bodies) {
    if (b.vertices.rows() == 0) continue;
    lo = glm::min(lo, toGlm(b.boundsLo));
    hi = glm::max(hi, toGlm(b.boundsHi));
  }
  if (lo.x <= hi.x) {
    boundsCenter_ = 0.5f * (lo + hi);
    boundsRadius_ = std::max(0.5f * glm::length(hi - lo), 1e-3f);
  }
}

void Renderer::fillTrails(TrailBatch* batch, const std::vector<Trail>& trails, bool ghost) {
  batch->first.clear();
  batch->count.clear();
  batch->data.clear();
  GLint at = 0;
  for (std::size_t i = 0; i < trails.size(); ++i) {
    const Trail& tr = trails[i];
    if (tr.size() < 2) continue;
    const int body = static_cast<int>(i);
    const glm::vec3 c = ghost ? ghostColor(body) * 0.9f : bodyColor(body) * 0.8f;
    for (std::size_t k = 0; k < tr.size(); ++k) {
      const float alpha = 0.9f * static_cast<float>(k + 1) / static_cast<float>(tr.size());
      batch->data.insert(batch->data.end(), {tr[k].x, tr[k].y, tr[k].z, alpha, c.r, c.g, c.b});
    }
    batch->first.push_back(at);
    batch->count.push_back(static_cast<GLsizei>(tr.size()));
    at += static_cast<GLint>(tr.size());
  }
  glBindBuffer(GL_ARRAY_BUFFER, batch->vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(batch->data.size() * sizeof(float)),
               batch->data.data(), GL_STREAM_DRAW);
}

void Renderer::setTrails(const std::vector<Trail>& mainTrails,
                         const std::vector<Trail>& ghostTrails) {
  fillTrails(&trails_, mainTrails, false);
  fillTrails(&ghostTrails_, ghostTrails, true);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

glm::mat4 Renderer::lightViewProj() {
  // A tight box around the casters (the bodies' bounding sphere) in light space, deep
  // enough to reach the ground below them: the texels go where the shadows are.
  const glm::vec3 c = boundsCenter_;
  const float r = boundsRadius_ * 1.05f + 1e-3f;
  const float down = std::max(-lightDir_.y, 0.1f);
  const float toGround = std::max((c.y - groundY_) / down, 0.0f);
  shadowCenter_ = c;
  shadowRadius_ = r;
  const glm::vec3 up = std::abs(lightDir_.y) > 0.99f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  const glm::mat4 view = glm::lookAt(c - lightDir_ * (2.0f * r), c, up);
  const glm::mat4 proj = glm::ortho(-r, r, -r, r, 0.0f, 4.0f * r + toGround);
  return proj * view;
}

namespace {

// The sky gradient (sRGB); the ground fades into its bottom colour.
const glm::vec3 kSkyTop(0.55f, 0.66f, 0.80f);
const glm::vec3 kSkyBottom(0.86f, 0.88f, 0.90f);

}  // namespace

/// What every pass of one draw() needs.
struct Renderer::Frame {
  const RenderSettings& settings;
  glm::mat4 lightViewProj;
  glm::mat4 viewProj;
  glm::vec3 eye;
  float fade;             // ground and water fade distance, m
  glm::vec2 center;       // the camera target in x-z
  float pixelsPerRadian;  // the viewport's height / 2 · projection[1][1]
};

void Renderer::setLighting(Program& p, const Frame& f) const {
  p.set("uLightDir", lightDir_);
  p.set("uEye", f.eye);
  p.set("uShadowMap", 0);
  p.set("uShadowTexel", 1.0f / static_cast<float>(shadowSize_));
  p.set("uShadowStrength", f.settings.shadows ? 0.85f : 0.0f);
  p.set("uLightViewProj", f.lightViewProj);
  p.set("uViewProj", f.viewProj);
}

void Renderer::drawQuad(Program& p, const glm::vec3& at, float halfSize) {
  glm::mat4 model = glm::translate(glm::mat4(1.0f), at);
  p.set("uModel", glm::scale(model, glm::vec3(halfSize, 1.0f, halfSize)));
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

void Renderer::drawGradient(const glm::vec3& top, const glm::vec3& bottom, float alpha) {
  sky_.use();
  sky_.set("uTop", top);
  sky_.set("uBottom", bottom);
  sky_.set("uAlpha", alpha);
  glBindVertexArray(emptyVao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
}

void Renderer::drawShadowMap(const glm::mat4& lightVP, GLuint target) {
  // Both sides of every triangle cast.
  glBindFramebuffer(GL_FRAMEBUFFER, shadowFbo_);
  glViewport(0, 0, shadowSize_, shadowSize_);
  glClear(GL_DEPTH_BUFFER_BIT);
  shadow_.use();
  shadow_.set("uLightViewProj", lightVP);
  bodies_.draw(/*casters=*/true);
  glBindFramebuffer(GL_FRAMEBUFFER, target);
}

void Renderer::drawGround(const Frame& f, float cameraDistance) {
  ground_.use();
  setLighting(ground_, f);
  const float minor =
      std::max(0.001f, std::pow(10.0f, std::floor(std::log10(cameraDistance / 3.0f))));
  ground_.set("uMinor", minor);
  ground_.set("uMajor", minor * 10.0f);
  ground_.set("uFogColor", glm::pow(kSkyBottom, glm::vec3(2.2f)));
  ground_.set("uFadeDistance", f.fade);
  ground_.set("uCenter", f.center);
  glBindVertexArray(quadVao_);
  drawQuad(ground_, glm::vec3(f.center.x, groundY_, f.center.y), f.fade);
  if (!f.settings.shadows) return;
  // Shadow overlay: only where the shadow map reaches, darkening what is there.
  groundShadow_.use();
  setLighting(groundShadow_, f);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ZERO, GL_SRC_COLOR);
  // Drawn right after the ground and before anything else that could cover it, so no
  // depth test (a second coplanar quad would z-fight with the ground).
  glDisable(GL_DEPTH_TEST);
  const float reach = shadowRadius_ / std::max(-lightDir_.y, 0.3f) * 1.5f;
  const float t = (shadowCenter_.y - groundY_) / std::max(-lightDir_.y, 0.1f);
  const glm::vec3 foot = shadowCenter_ + lightDir_ * t;
  drawQuad(groundShadow_, glm::vec3(foot.x, groundY_, foot.z), reach);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
}

void Renderer::drawBodies(const Frame& f) {
  mesh_.use();
  setLighting(mesh_, f);
  // Bodies do not receive shadows: a sheet's self-shadow is mostly acne, and the ground
  // shadow already shows where a body is and how it is turned.
  mesh_.set("uShadowStrength", 0.0f);
  mesh_.set("uAlpha", 1.0f);
  const bool highlight = f.settings.selected >= 0 && bodies_.size() > 1;
  mesh_.set("uSelected", highlight ? static_cast<float>(f.settings.selected) : -1.0f);
  bodies_.draw(BodyBatches::View{f.viewProj, f.pixelsPerRadian});
}

void Renderer::drawTrailBatch(const TrailBatch& batch) {
  if (batch.first.empty()) return;
  glBindVertexArray(batch.vao);
  glMultiDrawArrays(GL_LINE_STRIP, batch.first.data(), batch.count.data(),
                    static_cast<GLsizei>(batch.first.size()));
}

void Renderer::drawTrails(const Frame& f) {
  line_.use();
  line_.set("uViewProj", f.viewProj);
  drawTrailBatch(trails_);
  if (f.settings.ghosts) drawTrailBatch(ghostTrails_);
}

void Renderer::drawGhosts() {
  // A depth-only pass first so that only the nearest surface of each ghost is blended (no
  // doubled layers where a closed ghost overlaps itself), then the colour pass with depth
  // test LEQUAL and no depth writes. Opaque bodies drawn before hide what is behind them;
  // trails and the water surface blend as usual.
  mesh_.use();
  mesh_.set("uAlpha", kGhostAlpha);
  mesh_.set("uSelected", -1.0f);
  for (int i = 0; i < static_cast<int>(ghosts_.size()); ++i) {
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glDepthMask(GL_TRUE);
    ghosts_.drawOne(i);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthMask(GL_FALSE);
    glDepthFunc(GL_LEQUAL);
    ghosts_.drawOne(i);
    glDepthFunc(GL_LESS);
  }
  mesh_.set("uAlpha", 1.0f);
}

void Renderer::drawWater(const Frame& f) {
  water_.use();
  water_.set("uViewProj", f.viewProj);
  water_.set("uEye", f.eye);
  water_.set("uLightDir", lightDir_);
  water_.set("uFadeDistance", f.fade);
  water_.set("uCenter", f.center);
  glBindVertexArray(quadVao_);
  drawQuad(water_, glm::vec3(f.center.x, waterY_, f.center.y), f.fade);
}

void Renderer::drawBackdrop(const Frame& f) {
  backdrop_.use();
  backdrop_.set("uViewProj", f.viewProj);
  backdrop_.set("uLowerLeft", backdropLowerLeft_);
  backdrop_.set("uSize", backdropSize_);
  backdrop_.set("uPicture", 1);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, backdropTex_);
  glBindVertexArray(quadVao_);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
}

void Renderer::draw(const OrbitCamera& camera, int targetWidth, int targetHeight,
                    const Viewport& vp, const RenderSettings& settings, bool clear) {
  const glm::mat4 lightVP = lightViewProj();
  // The target: the window, or an offscreen framebuffer (pictures at a chosen size).
  GLint target = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);

  // 1. Shadow map.
  if (settings.shadows) drawShadowMap(lightVP, static_cast<GLuint>(target));

  // Clear the whole target, then draw the scene into the viewport (the 3D view's room).
  glViewport(0, 0, targetWidth, targetHeight);
  glClearColor(0.8f, 0.84f, 0.9f, 1.0f);
  if (clear) {
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  } else {
    glClear(GL_DEPTH_BUFFER_BIT);  // another pane: its own depth, the colour of the others kept
  }
  glViewport(vp.x, vp.y, std::max(vp.width, 1), std::max(vp.height, 1));
  const float aspect =
      static_cast<float>(std::max(vp.width, 1)) / static_cast<float>(std::max(vp.height, 1));
  const glm::mat4 projection = camera.projection(aspect);
  const Frame f{settings,
                lightVP,
                projection * camera.view(),
                camera.eye(),
                std::clamp(camera.distance * 12.0f, 4.0f, 2000.0f),
                glm::vec2(camera.target.x, camera.target.z),
                0.5f * static_cast<float>(std::max(vp.height, 1)) * projection[1][1]};

  // 2. Sky gradient.
  glDepthMask(GL_FALSE);
  drawGradient(kSkyTop, kSkyBottom, 1.0f);
  glDepthMask(GL_TRUE);

  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, shadowTex_);
  // 3. Ground grid.
  // (only under a floor: a grid in mid-air would read as a floor the bodies fall through)
  if (settings.grid && hasFloor_) drawGround(f, camera.distance);
  if (backdropId_ >= 0) drawBackdrop(f);
  // 4. Bodies.
  drawBodies(f);
  // 5. Trails, ghost bodies (translucent) and water (blended, no depth writes).
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  if (settings.trails) drawTrails(f);
  if (settings.ghosts && ghosts_.size() > 0) drawGhosts();
  if (settings.water && hasWater_) drawWater(f);
  // 6. Under the water surface: tint everything (a scene entirely in water: lighter, so that
  // the bodies keep their colours).
  const bool underSurface = settings.water && hasWater_ && f.eye.y < waterY_;
  // (Not with a reference's picture: it shows the water itself, and the tint would fade
  // its vortices.)
  if (underSurface || (settings.water && immersed_ && backdropId_ < 0)) {
    glDisable(GL_DEPTH_TEST);
    drawGradient(glm::vec3(0.25f, 0.55f, 0.70f), glm::vec3(0.05f, 0.25f, 0.40f),
                 underSurface ? 0.5f : 0.3f);
    glEnable(GL_DEPTH_TEST);
  }
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace samara::app
