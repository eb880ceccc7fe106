#pragma once
// Helpers shared by the test modules (io, cli): whole-file text.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace samara::test {

/// The bytes of the file `path` ("" if it cannot be read).
inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Writes `text` to `path` (binary).
inline void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace samara::test
