#pragma once
// The bodies of one run (the main run's, or the ghost run's) on the GPU, drawn with a cost per
// frame that does not grow with their face counts:
//   - rigid bodies that share a mesh (the same triangles, and body-frame vertices equal up
//     to a uniform scale and an offset) form a group: the mesh is uploaded once per run, and
//     the group is drawn with one instanced call from a per-instance transform buffer
//     (rewritten from the bodies' poses, 16 floats a body) and colour buffer (set once);
//   - shape-changing bodies' world vertices go into one buffer, uploaded once per snapshot,
//     and are drawn from it body by body.
// Vertex attributes (shaders/mesh.vert, shadow.vert): 0 position (body frame, or world for
// a shape-changing body), 1-4 the instance's model matrix (body frame → world), 5 front
// colour (linear RGB) and body index, 6 back colour.
#include <epoxy/gl.h>

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <vector>

#include "runtime/snapshot.h"

namespace samara::app {

class BodyBatches {
 public:
  /// Front and back colour (linear RGB) of body i.
  struct Colors {
    glm::vec3 front;
    glm::vec3 back;
  };
  using ColorFn = Colors (*)(int body);

  BodyBatches() = default;
  ~BodyBatches() { release(); }
  BodyBatches(const BodyBatches&) = delete;
  BodyBatches& operator=(const BodyBatches&) = delete;

  /// A new run: groups the rigid bodies by mesh and uploads the meshes, the triangles of the
  /// shape-changing bodies and every body's colours. O(faces), once per run.
  void setup(const std::vector<runtime::BodySnapshot>& bodies, ColorFn colors);
  /// A new snapshot of the same run: the instance transforms (O(bodies)) and the
  /// shape-changing bodies' vertices (one upload).
  void update(const std::vector<runtime::BodySnapshot>& bodies);
  /// Draws every body with the bound program: one call per mesh group, one per
  /// shape-changing body. `casters`: the shadow pass, where a crowd's group (at least
  /// kCoarseCrowd members) draws its coarse mesh (coarseIndices) instead.
  void draw(bool casters = false) const;
  /// What the main pass needs to pick a crowd member's mesh by its size on screen.
  struct View {
    glm::mat4 viewProj;     ///< world → clip
    float pixelsPerRadian;  ///< the view's height in pixels / 2 · projection[1][1]
  };
  /// The main pass: as draw(), but a crowd's members that are less than kCoarsePixels
  /// across on screen are drawn from the coarse mesh (two instanced calls per crowd).
  void draw(const View& view);
  /// Draws body i alone (the ghosts' two passes, body by body).
  void drawOne(int body) const;
  /// Frees the GL objects (a GL context must be current).
  void release();

  std::size_t size() const { return slots_.size(); }
  /// Mesh groups (instanced draw calls) of the rigid bodies.
  std::size_t groups() const { return groups_.size(); }

  /// Groups with at least this many members cast their shadows from a coarse mesh.
  static constexpr std::size_t kCoarseCrowd = 16;
  /// Cells along the mesh's longest extent of the coarse mesh's vertex grid.
  static constexpr int kCoarseCells = 8;
  /// Below this diameter on screen (pixels) a crowd member is drawn coarse: a cell of the
  /// grid is then under 2 pixels.
  static constexpr float kCoarsePixels = 16.0f;

 private:
  struct Group {
    GLuint vao = 0, vbo = 0, ebo = 0, transforms = 0, colors = 0;
    GLsizei indexCount = 0;
    GLsizei coarseCount = 0;  // the coarse mesh's indices, after the full mesh's in ebo
    glm::vec3 center{0.0f};   // the mesh's bounding sphere (mesh coordinates)
    float radius = 0.0f;
    std::vector<float> xf;  // the instance transforms last uploaded (16 floats each)
    GLuint lodTransforms = 0, lodColors = 0;  // near members first, then the far ones
    std::vector<int> members;                 // body indices, in order: instance k is members[k]
    std::vector<float> scale;  // per member: body-frame vertices = scale · mesh + offset
    std::vector<glm::vec3> offset;
    // The mesh the group draws (the first member's), kept to match later members at setup.
    std::shared_ptr<const geometry::VertexMatrix> meshV;
    std::shared_ptr<const geometry::FaceMatrix> meshF;
  };
  struct Slot {
    int group = -1;     // rigid: its group and its instance
    int instance = 0;   //
    int animated = -1;  // shape-changing: its index in animated_
  };
  struct Animated {
    int body = 0;
    GLint baseVertex = 0;
    std::size_t firstIndex = 0;
    GLsizei indexCount = 0;
  };
  /// The group body `b` joins (scale and offset out), or -1.
  int findGroup(const runtime::BodySnapshot& b, float* scale, glm::vec3* offset) const;
  static void makeGroup(Group* g, const runtime::BodySnapshot& first);
  static bool coarseCasters(const Group& g);
  void drawAnimated(const Animated& a) const;

  std::vector<Group> groups_;
  std::vector<Slot> slots_;
  std::vector<Animated> animated_;
  std::vector<Colors> colors_;  // per body
  GLuint animVao_ = 0, animVbo_ = 0, animEbo_ = 0;
  std::size_t animVertices_ = 0;  // vertices the animated buffer holds
  std::vector<float> scratch_;
  std::vector<float> lodXf_, lodColors_;  // draw(View)'s scratch
  std::vector<std::uint8_t> lodNear_;
};

}  // namespace samara::app
