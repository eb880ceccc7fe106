#include "app/render/body_batches.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <optional>

#include "app/render/mesh_match.h"

namespace samara::app {

namespace {

constexpr GLuint kModel = 1;  // attribute locations 1-4: the model matrix's columns
constexpr GLuint kFrontLocation = 5;
constexpr GLuint kBack = 6;
constexpr GLsizei kTransformStride = 16 * sizeof(float);
constexpr GLsizei kColorStride = 7 * sizeof(float);  // front RGB, body index, back RGB

const void* offsetOf(std::size_t bytes) { return reinterpret_cast<const void*>(bytes); }

/// Points the per-instance attributes at instance `first` of the group's buffers.
void pointInstances(GLuint transforms, GLuint colors, std::size_t first) {
  glBindBuffer(GL_ARRAY_BUFFER, transforms);
  for (GLuint c = 0; c < 4; ++c) {
    glVertexAttribPointer(kModel + c, 4, GL_FLOAT, GL_FALSE, kTransformStride,
                          offsetOf(first * kTransformStride + c * 4 * sizeof(float)));
  }
  glBindBuffer(GL_ARRAY_BUFFER, colors);
  glVertexAttribPointer(kFrontLocation, 4, GL_FLOAT, GL_FALSE, kColorStride,
                        offsetOf(first * kColorStride));
  glVertexAttribPointer(kBack, 3, GL_FLOAT, GL_FALSE, kColorStride,
                        offsetOf(first * kColorStride + 4 * sizeof(float)));
}

std::vector<GLuint> indicesOf(const geometry::FaceMatrix& F) {
  std::vector<GLuint> idx;
  idx.reserve(static_cast<std::size_t>(F.size()));
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    for (int k = 0; k < 3; ++k) idx.push_back(static_cast<GLuint>(F(f, k)));
  }
  return idx;
}

}  // namespace

void BodyBatches::release() {
  for (Group& g : groups_) {
    const GLuint buffers[] = {g.vbo, g.ebo, g.transforms, g.colors, g.lodTransforms, g.lodColors};
    glDeleteBuffers(6, buffers);
    glDeleteVertexArrays(1, &g.vao);
  }
  groups_.clear();
  slots_.clear();
  animated_.clear();
  colors_.clear();
  if (animVao_) {
    glDeleteBuffers(1, &animVbo_);
    glDeleteBuffers(1, &animEbo_);
    glDeleteVertexArrays(1, &animVao_);
    animVao_ = animVbo_ = animEbo_ = 0;
  }
  animVertices_ = 0;
}

int BodyBatches::findGroup(const runtime::BodySnapshot& b, float* scale, glm::vec3* offset) const {
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    const Group& g = groups_[i];
    const std::optional<ScaledCopy> c = scaledCopyOf(*g.meshV, *g.meshF, *b.restVertices, *b.faces);
    if (!c) continue;
    *scale = static_cast<float>(c->scale);
    *offset = glm::vec3(static_cast<float>(c->offset.x()), static_cast<float>(c->offset.y()),
                        static_cast<float>(c->offset.z()));
    return static_cast<int>(i);
  }
  return -1;
}

void BodyBatches::makeGroup(Group* g, const runtime::BodySnapshot& first) {
  g->meshV = first.restVertices;
  g->meshF = first.faces;
  const geometry::VertexMatrix& V = *first.restVertices;
  glGenVertexArrays(1, &g->vao);
  GLuint buffers[6];
  glGenBuffers(6, buffers);
  g->vbo = buffers[0];
  g->ebo = buffers[1];
  g->transforms = buffers[2];
  g->colors = buffers[3];
  g->lodTransforms = buffers[4];
  g->lodColors = buffers[5];
  const Eigen::RowVector3d lo = V.colwise().minCoeff(), hi = V.colwise().maxCoeff();
  const Eigen::RowVector3d mid = 0.5 * (lo + hi);
  g->center =
      glm::vec3(static_cast<float>(mid(0)), static_cast<float>(mid(1)), static_cast<float>(mid(2)));
  g->radius =
      V.rows() > 0 ? static_cast<float>((V.rowwise() - mid).rowwise().norm().maxCoeff()) : 0.0f;
  glBindVertexArray(g->vao);
  std::vector<float> pos(static_cast<std::size_t>(V.size()));
  for (Eigen::Index v = 0; v < V.rows(); ++v) {
    for (int k = 0; k < 3; ++k)
      pos[static_cast<std::size_t>(3 * v + k)] = static_cast<float>(V(v, k));
  }
  glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(pos.size() * sizeof(float)), pos.data(),
               GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
  std::vector<GLuint> idx = indicesOf(*first.faces);
  g->indexCount = static_cast<GLsizei>(idx.size());
  // The coarse mesh (a crowd's shadows, its far members), after the full mesh in one buffer.
  const std::vector<std::uint32_t> coarse = coarseIndices(V, *first.faces, kCoarseCells);
  idx.insert(idx.end(), coarse.begin(), coarse.end());
  g->coarseCount = static_cast<GLsizei>(coarse.size());
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(idx.size() * sizeof(GLuint)),
               idx.data(), GL_STATIC_DRAW);
  for (GLuint a = kModel; a <= kBack; ++a) {
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
  pointInstances(g->transforms, g->colors, 0);
  glBindVertexArray(0);
}

void BodyBatches::setup(const std::vector<runtime::BodySnapshot>& bodies, ColorFn colors) {
  release();
  slots_.resize(bodies.size());
  colors_.resize(bodies.size());
  std::vector<GLuint> animIdx;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const runtime::BodySnapshot& b = bodies[i];
    colors_[i] = colors(static_cast<int>(i));
    Slot& slot = slots_[i];
    if (!b.restVertices || !b.faces) {
      Animated a;
      a.body = static_cast<int>(i);
      a.baseVertex = static_cast<GLint>(animVertices_);
      a.firstIndex = animIdx.size();
      if (b.faces) {
        const std::vector<GLuint> idx = indicesOf(*b.faces);
        animIdx.insert(animIdx.end(), idx.begin(), idx.end());
      }
      a.indexCount = static_cast<GLsizei>(animIdx.size() - a.firstIndex);
      animVertices_ += static_cast<std::size_t>(b.vertices.rows());
      slot.animated = static_cast<int>(animated_.size());
      animated_.push_back(a);
      continue;
    }
    float scale = 1.0f;
    glm::vec3 offset(0.0f);
    int g = findGroup(b, &scale, &offset);
    if (g < 0) {
      g = static_cast<int>(groups_.size());
      groups_.emplace_back();
      makeGroup(&groups_.back(), b);
    }
    Group& group = groups_[static_cast<std::size_t>(g)];
    slot.group = g;
    slot.instance = static_cast<int>(group.members.size());
    group.members.push_back(static_cast<int>(i));
    group.scale.push_back(scale);
    group.offset.push_back(offset);
  }
  // Colours, once per run.
  for (Group& g : groups_) {
    scratch_.clear();
    for (int body : g.members) {
      const Colors& c = colors_[static_cast<std::size_t>(body)];
      scratch_.insert(scratch_.end(), {c.front.r, c.front.g, c.front.b, static_cast<float>(body),
                                       c.back.r, c.back.g, c.back.b});
    }
    glBindBuffer(GL_ARRAY_BUFFER, g.colors);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(scratch_.size() * sizeof(float)),
                 scratch_.data(), GL_STATIC_DRAW);
  }
  if (!animated_.empty()) {
    glGenVertexArrays(1, &animVao_);
    glGenBuffers(1, &animVbo_);
    glGenBuffers(1, &animEbo_);
    glBindVertexArray(animVao_);
    glBindBuffer(GL_ARRAY_BUFFER, animVbo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, animEbo_);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(animIdx.size() * sizeof(GLuint)),
                 animIdx.data(), GL_STATIC_DRAW);
    glBindVertexArray(0);
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void BodyBatches::update(const std::vector<runtime::BodySnapshot>& bodies) {
  for (Group& g : groups_) {
    scratch_.resize(16 * g.members.size());
    float* out = scratch_.data();
    for (std::size_t k = 0; k < g.members.size(); ++k, out += 16) {
      const runtime::BodySnapshot& b = bodies[static_cast<std::size_t>(g.members[k])];
      const Mat3 R = b.orientation.toRotationMatrix();
      const glm::vec3& o = g.offset[k];
      const Vec3 t = R * Vec3(o.x, o.y, o.z) + b.position;
      for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) out[4 * c + r] = static_cast<float>(R(r, c) * g.scale[k]);
        out[4 * c + 3] = 0.0f;
        out[12 + c] = static_cast<float>(t(c));
      }
      out[15] = 1.0f;
    }
    glBindBuffer(GL_ARRAY_BUFFER, g.transforms);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(scratch_.size() * sizeof(float)),
                 scratch_.data(), GL_STREAM_DRAW);
    if (coarseCasters(g)) g.xf = scratch_;
  }
  if (!animated_.empty()) {
    // Every shape-changing body's world vertices in one buffer, one upload.
    scratch_.resize(3 * animVertices_);
    std::size_t at = 0;
    for (const Animated& a : animated_) {
      const geometry::VertexMatrix& V = bodies[static_cast<std::size_t>(a.body)].vertices;
      for (Eigen::Index v = 0; v < V.rows() && at + 3 <= scratch_.size(); ++v) {
        for (int k = 0; k < 3; ++k) scratch_[at++] = static_cast<float>(V(v, k));
      }
    }
    glBindBuffer(GL_ARRAY_BUFFER, animVbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(scratch_.size() * sizeof(float)),
                 scratch_.data(), GL_STREAM_DRAW);
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void BodyBatches::drawAnimated(const Animated& a) const {
  // No instance arrays in this VAO: the model matrix (identity: the vertices are in world
  // coordinates) and the colours are constant attributes.
  glBindVertexArray(animVao_);
  glVertexAttrib4f(kModel + 0, 1.0f, 0.0f, 0.0f, 0.0f);
  glVertexAttrib4f(kModel + 1, 0.0f, 1.0f, 0.0f, 0.0f);
  glVertexAttrib4f(kModel + 2, 0.0f, 0.0f, 1.0f, 0.0f);
  glVertexAttrib4f(kModel + 3, 0.0f, 0.0f, 0.0f, 1.0f);
  const Colors& c = colors_[static_cast<std::size_t>(a.body)];
  glVertexAttrib4f(kFrontLocation, c.front.r, c.front.g, c.front.b, static_cast<float>(a.body));
  glVertexAttrib3f(kBack, c.back.r, c.back.g, c.back.b);
  glDrawElementsBaseVertex(GL_TRIANGLES, a.indexCount, GL_UNSIGNED_INT,
                           offsetOf(a.firstIndex * sizeof(GLuint)), a.baseVertex);
}

bool BodyBatches::coarseCasters(const Group& g) {
  return g.members.size() >= kCoarseCrowd && g.coarseCount > 0;
}

void BodyBatches::draw(bool casters) const {
  for (const Group& g : groups_) {
    glBindVertexArray(g.vao);
    const bool coarse = casters && coarseCasters(g);
    const std::size_t first = coarse ? static_cast<std::size_t>(g.indexCount) : 0;
    glDrawElementsInstanced(GL_TRIANGLES, coarse ? g.coarseCount : g.indexCount, GL_UNSIGNED_INT,
                            offsetOf(first * sizeof(GLuint)),
                            static_cast<GLsizei>(g.members.size()));
  }
  for (const Animated& a : animated_) drawAnimated(a);
}

void BodyBatches::draw(const View& view) {
  for (Group& g : groups_) {
    const std::size_t n = g.members.size();
    if (!coarseCasters(g) || g.xf.size() != 16 * n) continue;
    // Near members first, then the far ones, into the group's second pair of buffers.
    lodXf_.clear();
    lodColors_.clear();
    // A member is near when its bounding sphere is at least kCoarsePixels across on screen.
    lodNear_.resize(n);
    std::size_t nNear = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const glm::mat4 model = glm::make_mat4(&g.xf[16 * k]);
      const glm::vec4 clip = view.viewProj * (model * glm::vec4(g.center, 1.0f));
      const float scale = glm::length(glm::vec3(model[0]));
      const bool near =
          clip.w > 0.0f && 2.0f * g.radius * scale * view.pixelsPerRadian >= kCoarsePixels * clip.w;
      lodNear_[k] = near ? 1 : 0;
      nNear += near ? 1 : 0;
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t k = 0; k < n; ++k) {
        if ((lodNear_[k] != 0) != (pass == 0)) continue;
        const float* m = &g.xf[16 * k];
        lodXf_.insert(lodXf_.end(), m, m + 16);
        const Colors& c = colors_[static_cast<std::size_t>(g.members[k])];
        lodColors_.insert(lodColors_.end(),
                          {c.front.r, c.front.g, c.front.b, static_cast<float>(g.members[k]),
                           c.back.r, c.back.g, c.back.b});
      }
    }
    glBindBuffer(GL_ARRAY_BUFFER, g.lodTransforms);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lodXf_.size() * sizeof(float)),
                 lodXf_.data(), GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, g.lodColors);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lodColors_.size() * sizeof(float)),
                 lodColors_.data(), GL_STREAM_DRAW);
    glBindVertexArray(g.vao);
    if (nNear > 0) {
      pointInstances(g.lodTransforms, g.lodColors, 0);
      glDrawElementsInstanced(GL_TRIANGLES, g.indexCount, GL_UNSIGNED_INT, nullptr,
                              static_cast<GLsizei>(nNear));
    }
    if (nNear < n) {
      pointInstances(g.lodTransforms, g.lodColors, nNear);
      glDrawElementsInstanced(GL_TRIANGLES, g.coarseCount, GL_UNSIGNED_INT,
                              offsetOf(static_cast<std::size_t>(g.indexCount) * sizeof(GLuint)),
                              static_cast<GLsizei>(n - nNear));
    }
    pointInstances(g.transforms, g.colors, 0);
  }
  for (const Group& g : groups_) {
    if (coarseCasters(g) && g.xf.size() == 16 * g.members.size()) continue;
    glBindVertexArray(g.vao);
    glDrawElementsInstanced(GL_TRIANGLES, g.indexCount, GL_UNSIGNED_INT, nullptr,
                            static_cast<GLsizei>(g.members.size()));
  }
  for (const Animated& a : animated_) drawAnimated(a);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void BodyBatches::drawOne(int body) const {
  if (body < 0 || body >= static_cast<int>(slots_.size())) return;
  const Slot& s = slots_[static_cast<std::size_t>(body)];
  if (s.animated >= 0) {
    drawAnimated(animated_[static_cast<std::size_t>(s.animated)]);
    return;
  }
  const Group& g = groups_[static_cast<std::size_t>(s.group)];
  glBindVertexArray(g.vao);
  pointInstances(g.transforms, g.colors, static_cast<std::size_t>(s.instance));
  glDrawElementsInstanced(GL_TRIANGLES, g.indexCount, GL_UNSIGNED_INT, nullptr, 1);
  pointInstances(g.transforms, g.colors, 0);
}

}  // namespace samara::app
