#pragma once
// Scene files (JSON with comments) → core::WorldDef. The schema is in README.md
// ("Scene files"); every error names the file and the field (a JSON pointer) or, for a
// mesh file, the OBJ line.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/world.h"

namespace samara::io {

/// `--set PATH=VALUE` edits, applied in order to the parsed JSON before it is read.
using SetList = std::vector<std::pair<std::string, std::string>>;

/// Bounds that keep a hostile or mistyped scene from allocating gigabytes. At the defaults
/// the largest scene needs about 2.1 GB to load and step (7.5 GB when every triangle is a
/// part of its own): README, "Memory".
struct SceneLimits {
  std::int64_t maxFaces = 10'000'000;            ///< triangles over all bodies; default 10⁷
  std::int64_t maxVertices = 30'000'000;         ///< vertices over all bodies; default 3·10⁷
  std::uintmax_t maxSceneBytes = 64ull << 20;    ///< scene file size; default 64 MiB
  std::uintmax_t maxMeshFileBytes = 1ull << 30;  ///< per OBJ file; default 1 GiB
  int maxBodies = 10'000;                        ///< default 10⁴
  int maxPointMasses = 100'000;                  ///< per body; default 10⁵
};

/// Reads a scene file. Mesh paths are relative to the scene file's directory. `sets` are
/// applied first (a JSON pointer "/fluid/density" or a dotted path "bodies.0.delta"; the
/// value is JSON text or a bare string). Throws io::Error naming the file and the field or
/// line. The definition is checked field by field; makeWorld() adds the core's checks.
core::WorldDef loadScene(const std::string& path, const SetList& sets = {});
core::WorldDef loadScene(const std::string& path, const SetList& sets, const SceneLimits& limits);

/// As loadScene, from the file's text: `path` names it in messages and gives the default
/// scene name; mesh paths are resolved against `baseDir` ("" = the working directory).
core::WorldDef parseScene(const std::string& text, const std::string& path,
                          const std::string& baseDir, const SetList& sets = {},
                          const SceneLimits& limits = {});

/// The optional top-level "lesson" of a scene (teaching scenes, assets/lessons): what the
/// viewer shows beside it. Not part of the world definition.
/// A number a lesson's text quotes, with how to measure it (tests/gallery/test_lessons.cpp
/// runs the lesson and checks every one).
struct LessonCheck {
  std::string body;  ///< the body's name
  /// What is measured over [from, to] (s): "fall_speed" (mean, m/s), "spin_rev_s" (mean of
  /// |spin about up| / 2π), "horizontal_speed" (mean, m/s), "speed" (|v| at `to`, m/s),
  /// "distance" (COM displacement from `from` to `to`, m), "fall_acceleration" (change of
  /// the fall speed over the window / its length, m/s²), "axis_velocity_deg" (angle between
  /// the body's x axis and its COM velocity at `to`, folded to [0, 90]°), "flip_interval"
  /// (mean time between reversals of the body's y axis along its angular momentum, s).
  std::string quantity;
  double from = 0.0, to = 0.0;  ///< s
  double value = 0.0;           ///< what the text says
  double tolerance = 0.05;      ///< relative (of |value|)
  std::string quote;            ///< the words of the text that state it, e.g. "0.34 m/s"
};

/// What the viewer shows when the lesson opens ("lesson"/"view"); unset: the defaults.
struct LessonView {
  /// Teaching overlays switched on: "forces", "face-forces", "added-mass", "velocity".
  std::vector<std::string> overlays;
  /// The plots shown, in the plots' order: "linear_momentum", "angular_momentum",
  /// "fall_speed", "rotation_speed", "kinetic_energy"; empty = all.
  std::vector<std::string> plots;
  /// Panels shown in presentation mode: "controls", "teaching", "plots", "history",
  /// "lesson", "pattern"; empty = the user's choice.
  std::vector<std::string> presentPanels;
  std::optional<bool> split;       ///< a pane per body (View panel); unset: the user's choice
  std::optional<double> yawDeg;    ///< camera direction about the vertical, degrees
  std::optional<double> pitchDeg;  ///< camera elevation above the horizon, degrees
  /// The camera this many times nearer than the framing of every body (a small part of a
  /// large body, a swimmer on a wide sheet); unset: 1.
  std::optional<double> zoom;
};

struct Lesson {
  std::string title;                ///< "lesson"/"title": a short name for the Lessons menu
  std::string text;                 ///< "lesson"/"text": one paragraph of explanation
  std::vector<LessonCheck> checks;  ///< "lesson"/"checks": the numbers of the text, checked
  LessonView view;                  ///< "lesson"/"view"
};

/// The "lesson": {"title": …, "text": …} of a scene file, or nullopt when it has none.
/// Throws io::Error naming the file and field (as loadScene, which accepts the same key).
std::optional<Lesson> loadLesson(const std::string& path);
/// As loadLesson, from the file's text (`path` names it in messages).
std::optional<Lesson> parseLesson(const std::string& text, const std::string& path);

/// Builds the World (core validation and set-up). core::DefinitionError and
/// geometry::MeshError become io::Error naming `scenePath` and the scene field.
core::World makeWorld(core::WorldDef def, const std::string& scenePath);

/// Maps a core::DefinitionError field ("/bodies/0/pointMasses/1/mass", "/dt",
/// "/solver/maxIterations") to the scene's JSON pointer ("/bodies/0/point_masses/1/mass",
/// "/sim/dt", "/sim/max_iterations").
std::string definitionFieldToPointer(const std::string& field);

}  // namespace samara::io
