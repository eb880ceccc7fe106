#include "io/cfd_reduced.h"

#include <cmath>

#include "core/world.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/scene.h"
#include "io/text_format.h"

namespace samara::io {

bool hasReducedModel(const CfdScene& scene) {
  return scene.def.hasBody && !scene.def.body.fixed &&
         scene.def.body.shape != fluid::Shape2::kCircle;
}

std::string reducedSceneText(const CfdScene& scene, double dt, const std::string& model) {
  const fluid::Ns2Def& d = scene.def;
  const fluid::Body2Def& b = d.body;
  const double chord = 2.0 * b.a, span = kReducedSpanChords * chord;
  // Areal density × thickness = mass per area; the sheet's buoyancy is ρ_f × thickness × area.
  const double thickness = fluid::bodyArea(b) / chord;
  Json s;
  s["name"] = scene.name + "_reduced";
  s["gravity"] = {d.gravity.x(), d.gravity.y(), 0.0};
  s["fluid"] = {{"density", d.fluidDensity},
                {"viscosity", d.viscosity * d.fluidDensity},
                {"wind", {d.stream.x(), d.stream.y(), 0.0}}};
  s["sim"] = {{"dt", dt}, {"duration", scene.duration}};
  Json body;
  body["name"] = b.name;
  // A model name, or a model object in JSON ({"type": "samara", "ct": 1.2, "cr": 3.14159}).
  body["model"] = !model.empty() && model[0] == '{' ? parseJson(model, "--reduced") : Json(model);
  body["mesh"] = {{"primitive", "plate"},
                  {"size", {chord, span}},
                  {"segments", {16, static_cast<int>(16 * kReducedSpanChords)}}};
  body["mass"] = {{"density", b.density}, {"thickness", thickness}};
  const bool swims = fluid::undulates(b);
  if (swims) {
    // The same wave on the sheet's midline (core/animation.h, TravellingWave): along −x from
    // the head (x = a), so s = −x, ŝ = ξ and k s = 2π ξ L/λ − 2π a/λ; the sheet's normal is
    // the 2D body's y axis. Its ramp is a smoothstep over the first period (the reference's
    // is linear).
    const fluid::Wave2& w = b.wave;
    const double lambda = w.wavelength > 0.0 ? w.wavelength : chord;
    body["animation"] = {
        {"type", "wave"},
        {"axis", {-1.0, 0.0, 0.0}},
        {"lateral", {0.0, 1.0, 0.0}},
        {"amplitude", {w.amplitude * 0.03125 / 1.03125, w.amplitude / 1.03125, 0.0}},
        {"wavelength", lambda},
        {"frequency", (w.reverse ? -1.0 : 1.0) / w.period},
        {"phase_deg", (w.phase + 2.0 * M_PI * b.a / lambda) * 180.0 / M_PI},
        {"ramp_time", w.period}};
  }
  body["position"] = {b.position.x(), b.position.y(), 0.0};
  body["orientation"] = {{"axis", {0, 0, 1}}, {"angle_deg", b.angle * 180.0 / M_PI}};
  body["velocity"] = {b.velocity.x(), b.velocity.y(), 0.0};
  body["angular_velocity"] = {0.0, 0.0, b.omega};
  s["bodies"] = Json::array({body});
  // Opened in samara view beside the run's files, the run is the ghost (runtime/
  // reference_ghost.h): looked at along the span, in one view, with the plots that differ.
  const std::string modelName = body["model"].is_string() ? model : "the model object's";
  const std::string what = swims ? "swimmer" : "plate";
  const std::string spanText = strf("%g", kReducedSpanChords);
  const std::string text =
      "The sheet is the " + what + (swims ? ", its wave on the midline," : "") +
      " under samara's reduced model (" + modelName + "), " + spanText +
      (swims ? " lengths wide so that it behaves as a 2D swimmer"
             : " chords long so that it behaves as a 2D plate") +
      ". Opened from the folder samara cfd wrote, the translucent blue ghost is the 2D "
      "Navier-Stokes run of the same " +
      what +
      ", with its vorticity (red anticlockwise, blue clockwise, grey inside the body) on the "
      "plane through the middle of the span: the vortices the reduced model replaces. " +
      (swims ? "The reduced swimmer pulls ahead of the ghost: it has no wake to push off and "
               "too little skin friction. The rotation plot shows both swimmers' yaw."
             : "The plots show both.");
  s["lesson"] = {{"title", scene.name + ": reduced vs Navier-Stokes"},
                 {"text", text},
                 {"view",
                  {{"split", false},
                   {"camera", swims ? Json{{"yaw_deg", 20.0}, {"pitch_deg", 12.0}, {"zoom", 4.0}}
                                    : Json{{"yaw_deg", 20.0}, {"pitch_deg", 12.0}}},
                   {"plots", swims ? Json::array({"rotation_speed", "linear_momentum"})
                                   : Json::array({"fall_speed", "rotation_speed"})}}}};
  return "// The reduced counterpart of the CFD scene " + Json(scene.name).dump() +
         " (samara cfd): a sheet\n// of the same chord, " + strf("%g", kReducedSpanChords) +
         " chords long, with the same mass and displaced volume per metre of span.\n" + s.dump(2) +
         "\n";
}

std::string reducedTrajectory(const CfdScene& scene, const std::string& cfdPath, double dt,
                              const std::string& model, std::vector<fluid::PlateSample>* samples) {
  const std::string text = reducedSceneText(scene, dt, model);
  core::World world(parseScene(text, cfdPath + " (reduced model)", ""));
  const double span = kReducedSpanChords * 2.0 * scene.def.body.a;
  const long long steps = std::llround(scene.duration / dt);
  const long long every = std::max(1LL, std::llround(scene.sampleEvery / dt));
  std::string out = std::string(kCsvHeader) + "\n";
  auto row = [&]() {
    core::BodyDiagnostics g = world.diagnostics(0);
    g.angularMomentum /= span;
    g.linearMomentum /= span;
    g.kineticEnergy /= span;
    const double v[] = {g.com.x(),
                        g.com.y(),
                        g.com.z(),
                        g.q.w(),
                        g.q.x(),
                        g.q.y(),
                        g.q.z(),
                        g.velocity.x(),
                        g.velocity.y(),
                        g.velocity.z(),
                        g.omega.x(),
                        g.omega.y(),
                        g.omega.z(),
                        g.angularMomentum.x(),
                        g.angularMomentum.y(),
                        g.angularMomentum.z(),
                        g.linearMomentum.x(),
                        g.linearMomentum.y(),
                        g.linearMomentum.z(),
                        g.fallSpeed,
                        g.spinRate,
                        g.kineticEnergy};
    out += roundTripText(world.time()) + "," + csvField(scene.def.body.name);
    for (double x : v) out += "," + roundTripText(x);
    out += "," + std::to_string(g.newtonIterations) + "\n";
    if (samples) {
      double angle = 2.0 * std::atan2(g.q.z(), g.q.w());
      if (!samples->empty()) {  // unwrap
        const double prev = samples->back().angle;
        angle += 2.0 * M_PI * std::round((prev - angle) / (2.0 * M_PI));
      }
      samples->push_back({world.time(), g.com.x(), g.com.y(), angle, g.omega.z()});
    }
  };
  row();
  for (long long k = 1; k <= steps; ++k) {
    const core::StepReport r = world.step();
    if (!r.ok()) {
      throw Error(cfdPath,
                  "the reduced model's step " + std::to_string(k) + " failed: " + r.message);
    }
    if (k % every == 0 || k == steps) row();
  }
  return out;
}

}  // namespace samara::io
