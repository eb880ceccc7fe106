#pragma once
// "Save scene as" (issue 7): a scene file with edits applied, written so that it stands on
// its own in another directory and `samara run` of it reproduces `samara run SOURCE --set …`
// bit for bit.
//
// What the written file holds:
//   - a first line `// saved by samara from SOURCE` (no date: the same input gives the same
//     bytes), then the scene as JSON (the source's comments are not kept; keys in the
//     README's order, numbers in their shortest round-trip form);
//   - every `--set` edit applied (a missing parent object such as "sim" is created, unlike
//     `--set`, which needs it to exist);
//   - "name" written out (it would otherwise default to the new file's name);
//   - every relative file path rewritten to resolve from the destination's directory:
//     bodies[i].mesh (OBJ, glTF), animation "files" (a list, or a printf pattern, with '%'
//     of the added directories escaped as "%%"), animation "file" (glTF) and "bones_file";
//     absolute paths stay as they are;
//   - every seed explicit: fluid.gusts.seed when there are gusts, "seed" of every body
//     whose model is xie-miyata (a model given by name becomes {"type": …, "seed": …}) and
//     of every "spawn".
// The text is read back with the scene reader (resolving from the destination) before
// anything is written; the file is written to a temporary name beside the destination and
// renamed (io::StagedFiles), so a failure leaves no file and keeps an existing one.
#include <string>
#include <vector>

#include "core/world.h"
#include "io/atomic_file.h"
#include "io/scene.h"

namespace samara::io {

/// Reads the scene `sourcePath`, applies `sets` (as loadScene does), and writes it to
/// `destPath` as described above. Then loadScene(destPath) equals loadScene(sourcePath,
/// sets) field by field. Throws io::Error naming the source for a bad scene or edit, and
/// the destination when it cannot be written (a missing directory, a directory). With
/// `files` (e.g. StagedFiles) the file is written there and the caller commits it, so many
/// files can appear together.
void saveSceneAs(const std::string& sourcePath, const SetList& sets, const std::string& destPath,
                 OutputFiles* files = nullptr);

/// As saveSceneAs for a scene that has no file of its own: `def` as runtime's
/// defaultSceneForMesh builds it around a mesh file. Every body must be rigid, its mesh read
/// from `meshPaths[i]` (relative to the working directory, or absolute; its fluid model is
/// written with its parameters, io::modelJson) and no gusts; anything else cannot be written
/// (io::Error). `source` names the origin in the header line. The JSON must read back as
/// `def` bit for bit (definitionDifference) before `sets` are applied to it as to a scene
/// file; otherwise io::Error names the field that would change.
void saveDefinitionAs(const core::WorldDef& def, const std::vector<std::string>& meshPaths,
                      const std::string& source, const SetList& sets, const std::string& destPath);

/// "" if `a` and `b` agree bit for bit in every field a scene file sets (name, gravity,
/// fluid with water and gusts, floor, sim, and per body: name, mesh V and F, mass, point
/// masses, initial pose and velocities, δ, the fluid model (core::FluidModel::sameAs: name
/// and every parameter), and the animation's shape at a few times); otherwise the first field that
/// differs as a scene JSON pointer ("/bodies/0/orientation").
std::string definitionDifference(const core::WorldDef& a, const core::WorldDef& b);

}  // namespace samara::io
