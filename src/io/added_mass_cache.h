#pragma once
// The exact (potential-flow) added mass of the scene's bodies that ask for it
// ("added_mass": "exact"), solved once per mesh and kept on disk: a second start is instant.
// Files: <cache>/added-mass/<hash>.json with the tensor per unit fluid density, keyed by a
// hash of the mesh's vertex and face arrays (the body-frame shape, scale included) and the
// solver's version. <cache> is $SAMARA_CACHE_DIR, else $XDG_CACHE_HOME/samara, else
// $HOME/.cache/samara; none of them: no cache.
#include <functional>
#include <string>

#include "core/world.h"

namespace samara::io {

/// What resolveExactAddedMass did.
struct AddedMassCacheReport {
  int solved = 0;         ///< bodies whose tensor was solved now
  int cached = 0;         ///< bodies whose tensor came from the cache (or an identical body)
  std::string directory;  ///< the cache directory ("" if none)
};

/// Fills exactAddedUnit of every body with "added_mass": "exact" and none yet: from the
/// cache, from an identical mesh of the scene, or by solving (then stored; a cache that
/// cannot be written is skipped). `progress(fraction, body)` as the solver's (false
/// cancels: geometry::PotentialFlowCancelled). Errors of a solve name `scenePath` and the
/// body's /added_mass field.
AddedMassCacheReport resolveExactAddedMass(core::WorldDef* def, const std::string& scenePath,
                                           const std::function<bool(double, int)>& progress = {});

/// The cache directory as described above ("" if none).
std::string addedMassCacheDirectory();

/// The cache key of a mesh: 16 hex digits.
std::string addedMassCacheKey(const geometry::TriMesh& mesh);

}  // namespace samara::io
