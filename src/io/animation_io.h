#pragma once
// A body's "animation" object in a scene file → core::ShapeAnimation (io-internal header,
// like io/json_util.h).
//
// How the scene reader calls it, for a body object `b` (a json_util Node):
//
//   core::BodyDef body;  ...
//   AnimationContext ctx;
//   ctx.scenePath = r->path;             // messages name the scene file
//   ctx.baseDir = r->baseDir;            // animation files are relative to it, like meshes
//   ctx.maxFileBytes = r->limits.maxMeshFileBytes;
//   if (b.has("mesh")) {
//     body.mesh = readMesh(b.at("mesh"), r);   // OBJ, primitive, or loadGltfMesh for .gltf/.glb
//     ctx.mesh = &body.mesh;
//     if (b.at("mesh").json().is_string()) ctx.meshFile = b.at("mesh").string();  // OBJ groups
//   }
//   if (b.has("animation")) {
//     LoadedAnimation a = parseAnimation(b.at("animation"), ctx);
//     if (!b.has("mesh")) {              // the animation supplied the mesh
//       body.mesh = std::move(a.mesh);
//       r->addFaces(b.at("animation"), body.mesh.numFaces());
//     }
//     body.animation = std::move(a.animation);
//   }
//
// "mesh" may then be omitted only when "animation" is a "sequence" (frame 0 is the mesh)
// or "gltf" (the bind pose is the mesh); "wave" and "parts" need it. Every error is an
// io::Error naming the scene file and the JSON pointer, or the animation file and its
// line / frame / glTF element (with "(used by <scene>: <pointer>)" appended).
//
// Schema (keys not listed are errors; defaults in brackets):
//
//   {"type": "sequence",                OBJ files of one topology, one per keyframe
//    "files": "meshes/eel_%04d.obj"     printf pattern with one %d / %0Nd / %Nd ("%%" = %),
//           | ["a.obj", "b.obj", ...],  or an explicit list
//    "first": 1,                        first frame number of a pattern [1]
//    "count": 24,                       number of frames of a pattern (required with one)
//    "fps": 24,                         keyframes per second, ≤ 10⁶ [24]
//    "mode": "loop"|"hold"|"pingpong",  past the last frame ["loop"]
//    "interpolation": "linear"|"catmull_rom",  ["linear"]
//    "time_scale": 1,                   playback speed, negative plays backwards, |·| ≤ 10⁶ [1]
//    "time_offset": 0,                  s of animation time added after scaling, |·| ≤ 10⁹ [0]
//    "root_motion": "remove"|"keep"}    remove the vertex centroid's drift ["remove"]
//   Every frame needs the vertex count and the triangles (F) of the body's mesh, or of
//   frame 0 when "mesh" is omitted (frame 0 is then the body's mesh).
//
//   {"type": "gltf", "file": "skins/x.gltf" (.gltf or .glb),
//    "animation": 0 | "name",           [the first animation; none = still bind pose]
//    "mesh": 0 | "name",                [the mesh of the first node with a mesh and a skin]
//    "skin": 0,                         [the skin of that node]
//    "loop": true, "time_scale": 1, "weld": true,  (see io/gltf_skin.h; |time_scale| ≤ 10⁶)
//    "root_motion": "remove"|"keep"}    ["remove"]
//   With a "mesh" given, the glTF mesh must have its vertex count (same order).
//
//   {"type": "wave",                    core::TravellingWave
//    "axis": [1, 0, 0],                 along the body [+x]
//    "lateral": [0, 0, 1],              displacement direction, ⟂ axis [+z]
//    "amplitude": [a0, a1, a2] | a,     envelope a0 + a1 ŝ + a2 ŝ², m (required)
//    "wavelength": 0.5,                 m (required)
//    "frequency": 1,                    Hz, negative reverses the wave [1]
//    "phase_deg": 0, "ramp_time": 0}    deg [0]; smooth start, s [0]
//
//   {"type": "parts",                   core::RigidPartsAnimation
//    "bones_file": "meshes/x.bones",    optional: one integer bone per vertex (−1 = none;
//                                       blank lines and # comments ignored)
//    "parts": [{"name": "prop",         unique ["part<i>"]
//               "group": "prop" | ["a", "b"],  OBJ g/o names of the body's mesh file
//               | "vertices": [0, 1, ...]      | "bone": 2,   (exactly one of the three)
//               "pivot": [0, 0, 0],     a point on the axis, body frame, m [origin]
//               "axis": [1, 0, 0],      rotation axis (required, non-zero)
//               "spin_rate": 10 | "spin_hz": 2,  constant spin, rad/s or Hz [0]
//               "keys": {"times": [0, 0.5, 1], "angles_deg": [0, 30, 0]},  [none]
//               "interpolation": "catmull_rom"|"linear",  for the keys ["catmull_rom"]
//               "loop": true,           a looped track must end at its first angle [true]
//               "parent": "hull"}]}     a part whose motion this one follows [none]
//   Parts must not share vertices or be empty; parents form no cycle.
#include <cstdint>
#include <memory>
#include <string>

#include "core/animation.h"
#include "geometry/tri_mesh.h"
#include "io/gltf_skin.h"  // isGltfPath, loadGltfMesh for a body "mesh" that is a glTF
#include "io/json_util.h"

namespace samara::io {

/// Where an animation is read from and the body it animates.
struct AnimationContext {
  std::string scenePath;  ///< the scene file, for messages
  std::string baseDir;    ///< animation file paths are relative to it ("" = working dir)
  /// The body's mesh (from its "mesh" key), or null when the body gives none: the
  /// animation then supplies it. Not owned; must outlive the call.
  const geometry::TriMesh* mesh = nullptr;
  /// The body's "mesh" string as written in the scene (relative to `baseDir`) when it is
  /// an OBJ file, else "": "parts" looks up its `g` / `o` groups there.
  std::string meshFile;
  std::uintmax_t maxFileBytes = 1ull << 30;  ///< per file read; default 1 GiB
  int maxFrames = 100'000;                   ///< frames of a sequence; default 10⁵
  /// Triangles an OBJ frame may have (read no further: the scene's remaining face budget,
  /// or the body's mesh's count); default io::kObjMaxFaces.
  std::int64_t maxFaces = 2'000'000'000;
  /// Frames × vertices of a sequence (memory bound, 24 bytes each); default 5·10⁷.
  std::int64_t maxSequenceVertices = 50'000'000;
};

/// An animation and the body's mesh it goes with.
struct LoadedAnimation {
  std::shared_ptr<const core::ShapeAnimation> animation;
  /// The body's mesh: a copy of `*ctx.mesh` when given, else the one the animation
  /// supplied (sequence frame 0, glTF bind pose).
  geometry::TriMesh mesh;
};

/// Reads a body's "animation" object (`node` carries the scene file and JSON pointer,
/// e.g. "/bodies/0/animation"). Throws io::Error; nothing is half-read.
LoadedAnimation parseAnimation(const Node& node, const AnimationContext& ctx);

/// As above from raw JSON at `pointer` (the file named in messages is ctx.scenePath).
LoadedAnimation parseAnimation(const Json& json, const std::string& pointer,
                               const AnimationContext& ctx);

/// `rel` resolved against `baseDir` (unless absolute or `baseDir` is empty), normalised.
std::string resolvePath(const std::string& baseDir, const std::string& rel);

/// Expands a printf-style frame pattern: exactly one %d, %Nd or %0Nd (N ≤ 20), "%%" for a
/// literal percent sign. Throws std::invalid_argument describing a bad pattern.
std::string expandFramePattern(const std::string& pattern, long long frame);

}  // namespace samara::io
