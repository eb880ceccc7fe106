#pragma once
// Scene files of the 2D fluid reference (`samara cfd`, issue 19): one object "cfd" with the
// grid, the fluid, the body, the run's length and what to write. Errors name the file and
// the field (JSON pointer), as for samara's scenes.
#include <string>

#include "fluid/ns2d.h"
#include "io/scene.h"

namespace samara::io {

/// A parsed CFD scene.
struct CfdScene {
  std::string name;             ///< "name", default the file's stem
  fluid::Ns2Def def;            ///< the solver's definition
  double duration = 1.0;        ///< simulated time, s
  double sampleEvery = 0.01;    ///< trajectory sample interval, s (a multiple of dt is exact)
  double snapshotEvery = 0.0;   ///< vorticity snapshot interval, s (0: only the last)
  double vorticityScale = 0.0;  ///< |ω| at full colour in the PNGs, 1/s (0: 5 U/L of the body)
};

/// Reads a CFD scene file with `--set` edits.
CfdScene loadCfdScene(const std::string& path, const SetList& sets = {});
/// The same from text (`path` names it in messages).
CfdScene parseCfdScene(const std::string& text, const std::string& path, const SetList& sets = {});

}  // namespace samara::io
