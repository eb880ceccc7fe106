#pragma once
// The input of `samara forces`: a CSV of body states at which to evaluate the fluid
// wrench. Header names the columns (any order); required: body, qw, qx, qy, qz, vx, vy,
// vz, wx, wy, wz (world frame: orientation body → world, COM velocity m/s, angular
// velocity rad/s); optional: x, y, z (world COM, m), windx, windy, windz (m/s), t (s).
// Lines end in LF, CRLF or CR; blank lines and lines starting with '#' are skipped; a UTF-8
// byte-order mark is ignored.
#include <optional>
#include <string>
#include <vector>

#include "geometry/types.h"

namespace samara::io {

struct StateRow {
  int line = 0;               ///< 1-based line in the file
  std::string body;           ///< a body name or index as written
  Quat q = Quat::Identity();  ///< normalised
  Vec3 velocity = Vec3::Zero();
  Vec3 omega = Vec3::Zero();
  std::optional<Vec3> com;
  std::optional<Vec3> wind;
  double t = 0.0;
};

/// Reads a states file. Throws Error naming the file, line and column for a missing
/// column, a non-numeric or non-finite value, a zero quaternion or a short row.
std::vector<StateRow> readStatesCsv(const std::string& path);
/// The same from text (`path` only names it in messages).
std::vector<StateRow> parseStatesCsv(const std::string& text, const std::string& path);

}  // namespace samara::io
