#pragma once
// Making a scene file stand on its own elsewhere (io/scene_writer.cpp): the objects a
// `--set` path needs, and relative file paths rewritten for another directory. Internal
// to io/.
#include <string>
#include <vector>

#include "io/json_util.h"

namespace samara::io::detail {

/// Creates the missing objects on the way to the parent of `path` (a `--set` path), so that
/// a scene without "sim" still takes a "/sim/dt" edit. Arrays are left to applySet.
void createParents(Json* root, const std::string& path);

/// Rewrites paths relative to the source's directory into paths relative to the
/// destination's directory. Both directories are taken as canonical absolute paths (real
/// directories, so ".." out of them is exact); a path's leading ".." climb the source's
/// directories, the rest of it is kept as written; the common part with the destination is
/// dropped and the rest of the destination climbed with "..".
class Relocator {
 public:
  Relocator(const std::string& sourceDir, const std::string& destDir);

  /// `path` as written in the source; `pattern`: a printf frame pattern, whose literal '%'
  /// are "%%" (also in the directories this adds).
  std::string apply(const std::string& path, bool pattern) const;
  /// An absolute (or working-directory relative) path made relative to the destination.
  std::string relative(const std::string& path) const;

 private:
  std::string relocate(const std::vector<std::string>& from, const std::string& path,
                       bool pattern) const;

  std::vector<std::string> source_;
  std::vector<std::string> dest_;
};

/// Every file path of the scene through `r`: bodies[i].mesh, animation "files" (a list, or
/// a printf pattern), "file" and "bones_file".
void relocatePaths(Json* scene, const Relocator& r);

}  // namespace samara::io::detail
