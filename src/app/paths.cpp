#include "app/paths.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace samara::app {

namespace fs = std::filesystem;

namespace {

/// `name` and share/samara/`name` in the executable's directory and up to five of its
/// parents, nearest first.
void addInstallCandidates(const std::string& name, std::vector<fs::path>* out) {
  const std::string exe = executableDir();
  if (exe.empty()) return;
  fs::path d(exe);
  for (int up = 0; up < 6 && !d.empty(); ++up) {
    out->push_back(d / name);
    out->push_back(d / "share" / "samara" / name);
    if (d == d.parent_path()) break;
    d = d.parent_path();
  }
}

}  // namespace

std::string executableDir() {
  std::vector<char> buf(4096);
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return "";
  return fs::path(std::string(buf.data(), static_cast<std::size_t>(n))).parent_path().string();
}

std::string findShaderDir(std::string* searched) {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("SAMARA_SHADER_DIR"); env && *env) candidates.emplace_back(env);
  addInstallCandidates("shaders", &candidates);
#if defined(SAMARA_SHADER_DIR)
  candidates.emplace_back(SAMARA_SHADER_DIR);
#endif
  std::string tried;
  for (const fs::path& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c / "mesh.vert", ec)) return c.string();
    tried += (tried.empty() ? "" : ", ") + c.string();
  }
  if (searched) *searched = tried;
  return "";
}

std::string findAssetsDir() {
  std::vector<fs::path> candidates;
  addInstallCandidates("assets", &candidates);
  std::error_code ec;
  candidates.push_back(fs::current_path(ec) / "assets");
#if defined(SAMARA_SOURCE_DIR)
  candidates.push_back(fs::path(SAMARA_SOURCE_DIR) / "assets");
#endif
  for (const fs::path& c : candidates) {
    if (fs::is_directory(c / "scenes", ec)) return c.string();
  }
  return "";
}

std::string findDefaultScene() {
  const std::string assets = findAssetsDir();
  if (assets.empty()) return "";
  const fs::path p = fs::path(assets) / "scenes" / "maple_seed.json";
  std::error_code ec;
  return fs::is_regular_file(p, ec) ? p.string() : "";
}

std::string configFile(const std::string& name, bool create) {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path dir;
  if (xdg != nullptr && *xdg == '/') {
    dir = fs::path(xdg) / "samara";
  } else if (home != nullptr && *home != '\0') {
    dir = fs::path(home) / ".config" / "samara";
  } else {
    return "";
  }
  if (create) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "";
  }
  return (dir / name).string();
}

}  // namespace samara::app
