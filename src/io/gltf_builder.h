#pragma once
// Builds a glTF 2.0 document in memory and writes it as .glb (one binary chunk) or as .gltf
// with its buffer in a .bin file beside it. The one place that assembles glTF documents:
// the motion export (.glb) and the asset generator (skinned .gltf) both use it.
//
// Everything is appended in call order (buffer views, accessors, meshes, nodes, skins,
// animations, scenes), and the same calls give the same bytes. Indices returned by add*()
// are the glTF indices of what was added. The document has one buffer; every view is
// 4-byte aligned in it. tinygltf does the serialisation; its types stay out of this header.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "geometry/types.h"

namespace samara::io::gltf {

/// Accessor component types (the glTF enumeration values).
enum class ComponentType : int {
  kUnsignedShort = 5123,
  kUnsignedInt = 5125,
  kFloat = 5126,
};

/// Accessor element types ("SCALAR", "VEC3", …).
enum class ElementType { kScalar, kVec2, kVec3, kVec4, kMat4 };

/// Number of components of an element: 1, 2, 3, 4 or 16.
int componentCount(ElementType type);

/// bufferView.target: none (animation and skin data), vertex attributes, or indices.
enum class BufferTarget : int {
  kNone = 0,
  kArray = 34962,         ///< ARRAY_BUFFER
  kElementArray = 34963,  ///< ELEMENT_ARRAY_BUFFER
};

/// Attribute name ("POSITION", "NORMAL", "JOINTS_0", …) → accessor.
using Attributes = std::map<std::string, int>;

/// One triangle primitive (mode TRIANGLES).
struct Primitive {
  Attributes attributes{};            ///< vertex attributes
  int indices = -1;                   ///< accessor of the indices, −1 = none
  std::vector<Attributes> targets{};  ///< morph targets (e.g. {"POSITION": accessor})
  int material = -1;                  ///< −1 = none (the default material)
};

/// A metallic-roughness material.
struct Material {
  std::string name{};
  std::array<double, 4> baseColor{1, 1, 1, 1};  ///< linear RGBA
  double metallic = 0.0;
  double roughness = 0.6;
  bool doubleSided = false;  ///< sheets: both sides lit and drawn
};

/// A mesh: its primitives, default morph weights and morph target names.
struct Mesh {
  std::string name{};
  std::vector<Primitive> primitives{};
  std::vector<double> weights{};  ///< default morph weights (empty = none written)
  /// extras.targetNames (Blender's shape key names); empty = none written
  std::vector<std::string> targetNames{};
};

/// A node; unset TRS properties are not written (identity).
struct Node {
  std::string name{};
  int mesh = -1;    ///< −1 = none
  int skin = -1;    ///< −1 = none
  int camera = -1;  ///< −1 = none
  int light = -1;   ///< KHR_lights_punctual light, −1 = none
  std::optional<Vec3> translation{};
  std::optional<Quat> rotation{};  ///< written as x, y, z, w as given (not normalised)
  std::optional<Vec3> scale{};
};

/// A skin: joint nodes, skeleton root and inverse bind matrices.
struct Skin {
  std::string name{};
  std::vector<int> joints{};     ///< node indices
  int skeleton = -1;             ///< root node, −1 = none
  int inverseBindMatrices = -1;  ///< accessor (MAT4 floats), −1 = none
};

/// Animation sampler interpolation.
enum class Interpolation { kLinear, kStep, kCubicSpline };

/// The document under construction.
class Builder {
 public:
  /// An empty document: asset version "2.0", `generator` as asset.generator, one buffer.
  explicit Builder(const std::string& generator);
  ~Builder();
  Builder(Builder&&) noexcept;
  Builder& operator=(Builder&&) noexcept;
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  // --- data ---------------------------------------------------------------------------------

  /// Appends `bytes` bytes to the buffer (first padding it with zeros to a multiple of 4)
  /// and a view over them; returns the view.
  int addView(const void* data, std::size_t bytes, BufferTarget target);
  /// An accessor (byte offset 0) over view `view`; `min`/`max` are written when not empty.
  int addAccessor(int view, ComponentType component, ElementType type, std::size_t count,
                  std::vector<double> min = {}, std::vector<double> max = {});
  /// A float accessor over `values` (componentCount(type) floats per element) in a new view;
  /// with `bounds`, per-component min and max of the values.
  int addFloats(std::span<const float> values, ElementType type, BufferTarget target, bool bounds);
  /// An unsigned-short accessor over `values` in a new view (no bounds).
  int addUnsignedShorts(std::span<const std::uint16_t> values, ElementType type,
                        BufferTarget target);
  /// Triangle indices: an unsigned-int SCALAR accessor in an ELEMENT_ARRAY_BUFFER view.
  int addIndices(std::span<const std::uint32_t> indices);

  // --- structure ----------------------------------------------------------------------------

  int addMesh(const Mesh& mesh);
  /// Adds JOINTS_0 and WEIGHTS_0 (accessors) to every primitive of mesh `mesh`.
  void addSkinAttributes(int mesh, int joints, int weights);
  int addMaterial(const Material& material);
  /// A perspective camera (looks along its node's −Z, Y up).
  int addCamera(const std::string& name, double yfov, double aspect, double znear, double zfar);
  /// A directional light (KHR_lights_punctual; shines along its node's −Z), `intensity` in lux.
  int addSunLight(const std::string& name, const std::array<double, 3>& color, double intensity);
  int addNode(const Node& node);
  /// Makes `child` a child of `parent` (both existing nodes).
  void addChild(int parent, int child);
  int addSkin(const Skin& skin);
  /// A new, empty animation called `name`.
  int addAnimation(const std::string& name);
  /// A sampler of animation `animation`: key times (accessor `input`) → values (`output`).
  int addSampler(int animation, int input, int output, Interpolation interpolation);
  /// A channel of animation `animation`: sampler → node's `path` ("translation",
  /// "rotation", "scale" or "weights").
  void addChannel(int animation, int sampler, int node, const std::string& path);
  /// A scene with these root nodes and `extras` (numbers by name; none written when empty);
  /// the first scene added is the default scene.
  int addScene(const std::string& name, const std::vector<int>& nodes,
               const std::map<std::string, double>& extras = {});

  std::size_t numAccessors() const;
  std::size_t numNodes() const;

  // --- output ---------------------------------------------------------------------------------

  /// The document as .glb (buffer embedded as the binary chunk). `path` names the file in
  /// the io::Error thrown if tinygltf cannot serialise it.
  void writeGlb(std::ostream& out, const std::string& path) const;
  /// Writes `path` (.gltf, indented JSON) and its buffer as `<stem>.bin` beside it (the
  /// buffer's uri), then reads the file back with tinygltf and checks that the buffer,
  /// accessors and nodes round-trip. Throws io::Error naming `path`.
  void writeGltf(const std::string& path);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace samara::io::gltf
