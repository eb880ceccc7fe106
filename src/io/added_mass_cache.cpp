// The exact added mass of a scene's bodies, cached on disk (added_mass_cache.h).
#include "io/added_mass_cache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/fluid_model.h"
#include "geometry/potential_flow.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace samara::io {
namespace {

/// Bumped whenever the solver's result for a mesh changes.
constexpr int kSolverVersion = 2;  // 2: crossing parts solved as their union

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::string cacheFile(const std::string& dir, const std::string& key) {
  return dir.empty() ? std::string() : dir + "/added-mass/" + key + ".json";
}

/// The tensor of a cache file, or null if it is missing, unreadable or not ours.
std::shared_ptr<const Mat6> readCached(const std::string& file, int faces) {
  if (file.empty()) return nullptr;
  std::ifstream in(file);
  if (!in) return nullptr;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.at("version").get<int>() != kSolverVersion || j.at("faces").get<int>() != faces) {
      return nullptr;
    }
    const auto& u = j.at("added_unit");
    if (!u.is_array() || u.size() != 36) return nullptr;
    auto m = std::make_shared<Mat6>();
    for (int i = 0; i < 36; ++i)
      (*m)(i / 6, i % 6) = u.at(static_cast<std::size_t>(i)).get<double>();
    if (!m->allFinite()) return nullptr;
    return m;
  } catch (const std::exception&) {
    return nullptr;  // another version's or a damaged file: solve again and replace it
  }
}

void writeCached(const std::string& file, int faces, const geometry::PotentialFlowResult& r) {
  if (file.empty()) return;
  std::ostringstream s;
  s << "{\"version\": " << kSolverVersion << ", \"faces\": " << faces
    << ", \"asymmetry\": " << r.asymmetry << ", \"added_unit\": [";
  char buf[40];
  for (int i = 0; i < 36; ++i) {
    std::snprintf(buf, sizeof buf, "%.17g", r.addedUnit(i / 6, i % 6));  // exact round trip
    s << (i ? ", " : "") << buf;
  }
  s << "]}\n";
  try {
    std::filesystem::create_directories(std::filesystem::path(file).parent_path());
    writeFileAtomically(file, s.str());
  } catch (const std::exception&) {
    // A read-only or full cache only costs the next start the solve.
  }
}

}  // namespace

std::string addedMassCacheDirectory() {
  if (const char* d = std::getenv("SAMARA_CACHE_DIR"); d != nullptr && *d != '\0') return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/') {
    return std::string(x) + "/samara";
  }
  if (const char* h = std::getenv("HOME"); h != nullptr && *h == '/') {
    return std::string(h) + "/.cache/samara";
  }
  return {};
}

std::string addedMassCacheKey(const geometry::TriMesh& mesh) {
  std::uint64_t h = 14695981039346656037ull;
  const std::int64_t header[3] = {kSolverVersion, mesh.V.rows(), mesh.F.rows()};
  h = fnv1a(header, sizeof header, h);
  h = fnv1a(mesh.V.data(), sizeof(double) * static_cast<std::size_t>(mesh.V.size()), h);
  h = fnv1a(mesh.F.data(), sizeof(int) * static_cast<std::size_t>(mesh.F.size()), h);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

AddedMassCacheReport resolveExactAddedMass(core::WorldDef* def, const std::string& scenePath,
                                           const std::function<bool(double, int)>& progress) {
  AddedMassCacheReport report;
  report.directory = addedMassCacheDirectory();
  std::map<std::string, std::shared_ptr<const Mat6>> solvedNow;  // identical meshes (spawn)
  for (std::size_t i = 0; i < def->bodies.size(); ++i) {
    core::BodyDef& b = def->bodies[i];
    // Only what the core accepts: the others get its message (shape change, peer models).
    if (b.addedMass != core::AddedMassSource::kExact || b.exactAddedUnit || b.animation ||
        !b.model || !b.model->localFaces() || b.model->firstOrder()) {
      continue;
    }
    const std::string key = addedMassCacheKey(b.mesh);
    if (const auto it = solvedNow.find(key); it != solvedNow.end()) {
      b.exactAddedUnit = it->second;
      ++report.cached;
      continue;
    }
    const std::string file = cacheFile(report.directory, key);
    if (auto m = readCached(file, b.mesh.numFaces())) {
      b.exactAddedUnit = m;
      solvedNow[key] = m;
      ++report.cached;
      continue;
    }
    geometry::PotentialFlowOptions options;
    if (progress) options.progress = [&](double f) { return progress(f, static_cast<int>(i)); };
    geometry::PotentialFlowResult r;
    try {
      r = geometry::exactAddedMass(b.mesh, options);
    } catch (const geometry::PotentialFlowCancelled&) {
      throw;
    } catch (const std::exception& e) {  // too many faces, a bad mesh, no convergence
      throw Error::atField(scenePath, "/bodies/" + std::to_string(i) + "/added_mass", e.what());
    }
    auto m = std::make_shared<const Mat6>(r.addedUnit);
    b.exactAddedUnit = m;
    solvedNow[key] = m;
    writeCached(file, b.mesh.numFaces(), r);
    ++report.solved;
  }
  return report;
}

}  // namespace samara::io
