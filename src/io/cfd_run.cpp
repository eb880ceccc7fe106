#include "io/cfd_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "io/atomic_file.h"
#include "io/cfd_reduced.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/output_folders.h"
#include "io/png.h"
#include "io/scene.h"
#include "io/text_format.h"

namespace samara::io {

namespace {

std::string num(double x) { return roundTripText(x); }

/// One trajectory row in `samara run`'s columns.
void trajectoryRow(std::string* out, double t, const CfdScene& s, const fluid::Body2State& b) {
  const fluid::Body2Def& bd = s.def.body;
  const double mass = bd.density * fluid::bodyArea(bd), inertia = fluid::bodyInertia(bd);
  const double half = 0.5 * b.angle;
  const fluid::Vec2 gUnit =
      s.def.gravity.norm() > 0.0 ? fluid::Vec2(s.def.gravity.normalized()) : fluid::Vec2(0.0, -1.0);
  const double lz = inertia * b.omega +
                    mass * (b.position.x() * b.velocity.y() - b.position.y() * b.velocity.x());
  const double ke = 0.5 * mass * b.velocity.squaredNorm() + 0.5 * inertia * b.omega * b.omega;
  const double values[] = {b.position.x(),
                           b.position.y(),
                           0.0,
                           std::cos(half),
                           0.0,
                           0.0,
                           std::sin(half),
                           b.velocity.x(),
                           b.velocity.y(),
                           0.0,
                           0.0,
                           0.0,
                           b.omega,
                           0.0,
                           0.0,
                           lz,
                           mass * b.velocity.x(),
                           mass * b.velocity.y(),
                           0.0,
                           b.velocity.dot(gUnit),
                           0.0,
                           ke};
  *out += num(t) + "," + csvField(bd.name);
  for (double v : values) *out += "," + num(v);
  *out += ",0\n";
}

void forcesRow(std::string* out, double t, const fluid::Body2State& b, double cfl) {
  *out += num(t) + "," + num(b.force.x()) + "," + num(b.force.y()) + "," + num(b.torque) + "," +
          num(cfl) + "\n";
}

std::string snapshotName(int k, const char* ext) {
  char name[64];
  std::snprintf(name, sizeof name, "vorticity_%04d.%s", k, ext);
  return name;
}

}  // namespace

std::string npyBytes(const std::vector<double>& field, int nx, int ny) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(ny) +
                       ", " + std::to_string(nx) + "), }";
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<unsigned>(header.size());
  out += static_cast<char>(len & 0xff);
  out += static_cast<char>((len >> 8) & 0xff);
  out += header;
  static_assert(sizeof(double) == 8);
  const std::size_t at = out.size();
  out.resize(at + field.size() * 8);
  std::memcpy(&out[at], field.data(), field.size() * 8);  // x86-64 and arm64: little-endian
  return out;
}

std::vector<unsigned char> vorticityImage(const std::vector<double>& omega,
                                          const std::vector<double>& mask, int nx, int ny,
                                          double scale) {
  std::vector<unsigned char> rgb(static_cast<std::size_t>(nx) * ny * 3);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const std::size_t src = static_cast<std::size_t>(j) * nx + i;
      const double s = std::clamp(omega[src] / scale, -1.0, 1.0);
      // white at 0, red (positive, anticlockwise) and blue (negative)
      double r = s > 0 ? 1.0 : 1.0 + s, g = 1.0 - std::abs(s), b = s < 0 ? 1.0 : 1.0 - s;
      const double c = mask.empty() ? 0.0 : mask[src];
      r = r * (1 - c) + 0.45 * c;
      g = g * (1 - c) + 0.45 * c;
      b = b * (1 - c) + 0.45 * c;
      unsigned char* p = &rgb[(static_cast<std::size_t>(ny - 1 - j) * nx + i) * 3];
      p[0] = static_cast<unsigned char>(std::lround(255 * r));
      p[1] = static_cast<unsigned char>(std::lround(255 * g));
      p[2] = static_cast<unsigned char>(std::lround(255 * b));
    }
  }
  return rgb;
}

CfdRunResult runCfd(const CfdScene& scene, const std::string& scenePath, const CfdRunOptions& opt) {
  const bool withReduced = !opt.reducedModel.empty() && hasReducedModel(scene);
  const double dtr = scene.sampleEvery / std::ceil(scene.sampleEvery / 1e-3 - 1e-9);
  if (withReduced) {  // a bad --reduced model is refused before the long run, not after it
    (void)parseScene(reducedSceneText(scene, dtr, opt.reducedModel), scenePath + " (reduced model)",
                     "");
  }
  OutputFolders folders;
  folders.create(opt.outDir);
  StagedFiles files;
  const std::filesystem::path dir(opt.outDir);
  auto path = [&](const std::string& name) { return (dir / name).string(); };
  const fluid::Ns2Def& d = scene.def;
  fluid::Ns2Solver solver(d);
  const long long steps = std::llround(scene.duration / d.dt);
  const long long sampleSteps = std::max(1LL, std::llround(scene.sampleEvery / d.dt));
  const long long snapSteps =
      scene.snapshotEvery > 0.0 ? std::max(1LL, std::llround(scene.snapshotEvery / d.dt)) : steps;
  double scale = scene.vorticityScale;
  if (scale <= 0.0) {
    const double len = d.hasBody ? fluid::boundingRadius(d.body) : d.dx * d.nx / 8.0;
    // The flow's speed: the stream, a falling body's √(g ℓ), a swimmer's tail (2π A/T).
    const double tail =
        fluid::undulates(d.body) ? 2.0 * M_PI * d.body.wave.amplitude / d.body.wave.period : 0.0;
    const double speed =
        std::max({d.stream.norm(), std::sqrt(d.gravity.norm() * len), d.hasBody ? tail : 0.0});
    scale = 5.0 * std::max(speed, 1e-6) / len;
  }
  std::string traj = std::string(kCsvHeader) + "\n", forces = "t,fx,fy,torque,cfl\n";
  std::string index = "{\n  \"scene\": " + Json(scene.name).dump() +
                      ",\n  \"nx\": " + std::to_string(d.nx) +
                      ",\n  \"ny\": " + std::to_string(d.ny) + ",\n  \"dx\": " + num(d.dx) +
                      ",\n  \"vorticity_scale\": " + num(scale) + ",\n  \"snapshots\": [";
  CfdRunResult res;
  auto snapshot = [&]() {
    ++res.snapshots;
    const std::vector<double> w = solver.vorticity();
    const std::vector<double> chi = solver.mask();
    const std::string png = encodePng(vorticityImage(w, chi, d.nx, d.ny, scale), d.nx, d.ny);
    const std::string npy = npyBytes(w, d.nx, d.ny);
    files.write(path(snapshotName(res.snapshots, "png")), [&](std::ostream& o) { o << png; });
    files.write(path(snapshotName(res.snapshots, "npy")), [&](std::ostream& o) { o << npy; });
    index += std::string(res.snapshots > 1 ? "," : "") + "\n    {\"t\": " + num(solver.time()) +
             ", \"origin\": [" + num(solver.origin().x()) + ", " + num(solver.origin().y()) +
             "], \"png\": \"" + snapshotName(res.snapshots, "png") + "\", \"npy\": \"" +
             snapshotName(res.snapshots, "npy") + "\"}";
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<fluid::PlateSample> samples;
  auto sample = [&]() {
    const fluid::Body2State& b = solver.body();
    samples.push_back({solver.time(), b.position.x(), b.position.y(), b.angle, b.omega});
  };
  if (d.hasBody) {
    trajectoryRow(&traj, 0.0, scene, solver.body());
    sample();
  }
  double cfl = 0.0;
  for (long long k = 1; k <= steps; ++k) {
    if (opt.cancel && opt.cancel->load()) {
      res.cancelled = true;
      return res;  // nothing committed: the staged files and made folders go away
    }
    const fluid::Ns2Report rep = solver.step();
    if (rep.status != fluid::Ns2Status::kOk) {
      res.failed = true;
      res.steps = k - 1;
      res.body = solver.body();
      res.message = scenePath + ": the fluid solver stopped after " + std::to_string(k - 1) +
                    " steps: " + rep.message;
      return res;
    }
    cfl = rep.cfl;
    if (k % sampleSteps == 0 || k == steps) {
      if (d.hasBody) {
        trajectoryRow(&traj, solver.time(), scene, solver.body());
        sample();
      }
      forcesRow(&forces, solver.time(), solver.body(), cfl);
    }
    if (k % snapSteps == 0 || (k == steps && steps % snapSteps != 0)) snapshot();
    if (opt.progress) opt.progress(solver.time(), static_cast<double>(k) / steps);
  }
  index += "\n  ]\n}\n";
  if (withReduced) {
    std::vector<fluid::PlateSample> reducedSamples;
    const std::string reducedCsv =
        reducedTrajectory(scene, scenePath, dtr, opt.reducedModel, &reducedSamples);
    res.hasReduced = true;
    res.reducedMotion = fluid::classifyPlate(reducedSamples, 0.5 * scene.duration);
    const std::string sceneText = reducedSceneText(scene, dtr, opt.reducedModel);
    files.write(path("reduced.csv"), [&](std::ostream& o) { o << reducedCsv; });
    files.write(path("reduced_scene.json"), [&](std::ostream& o) { o << sceneText; });
  }
  if (d.hasBody) files.write(path("trajectory.csv"), [&](std::ostream& o) { o << traj; });
  files.write(path("forces.csv"), [&](std::ostream& o) { o << forces; });
  files.write(path("snapshots.json"), [&](std::ostream& o) { o << index; });
  files.commit();
  folders.keep();
  res.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  res.steps = steps;
  res.body = solver.body();
  if (d.hasBody) res.motion = fluid::classifyPlate(samples, 0.5 * scene.duration);
  res.cellStepsPerSecond =
      res.wallSeconds > 0 ? static_cast<double>(d.nx) * d.ny * steps / res.wallSeconds : 0.0;
  return res;
}

}  // namespace samara::io
