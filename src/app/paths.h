#pragma once
// Where the viewer finds its files: the shaders and the assets, searched from the
// executable's directory upwards (a build tree inside the source tree, or an install).
#include <string>

namespace samara::app {

/// Directory of the running executable ("" if unknown).
std::string executableDir();

/// The directory with the shaders: $SAMARA_SHADER_DIR if set, else shaders/ next to the
/// executable or in one of its parent directories (a build tree inside the source tree),
/// else the SAMARA_SHADER_DIR compile definition. Returns "" if none has mesh.vert;
/// `searched` (if not null) receives the places tried, for the error message.
std::string findShaderDir(std::string* searched = nullptr);

/// assets/ of the source tree or an install, searched from the executable's directory
/// upwards, then the working directory, then the SAMARA_SOURCE_DIR compile definition.
/// "" if not found.
std::string findAssetsDir();

/// assets/scenes/maple_seed.json (the default scene) (see findAssetsDir); "" if not found.
std::string findDefaultScene();

/// `name` in the viewer's configuration directory: $XDG_CONFIG_HOME/samara, else
/// ~/.config/samara. With `create`, the directory is made if missing. "" when there is no
/// home (or, with `create`, the directory cannot be made).
std::string configFile(const std::string& name, bool create = false);

}  // namespace samara::app
