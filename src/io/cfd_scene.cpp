#include "io/cfd_scene.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "io/json_util.h"

namespace samara::io {

namespace {

fluid::Vec2 vec2(const Node& n) {
  n.expectArray(2);
  return {n.item(0).number(), n.item(1).number()};
}

fluid::Body2Def readCfdBody(const Node& n) {
  n.expectObject({"name", "shape", "a", "b", "density", "position", "angle", "velocity", "omega",
                  "fixed", "kick_until", "wave"});
  fluid::Body2Def b;
  if (n.has("name")) b.name = n.at("name").string();
  const std::string shape = n.at("shape").string();
  if (shape == "circle") {
    b.shape = fluid::Shape2::kCircle;
  } else if (shape == "ellipse") {
    b.shape = fluid::Shape2::kEllipse;
  } else if (shape == "rectangle") {
    b.shape = fluid::Shape2::kRectangle;
  } else {
    throw n.at("shape").error("unknown shape \"" + shape + "\" (circle, ellipse, rectangle)");
  }
  b.a = n.at("a").positive();
  b.b = b.shape == fluid::Shape2::kCircle ? b.a : n.at("b").positive();
  if (b.b > b.a) throw n.at("b").error("must be at most \"a\" (a is the long half-axis)");
  b.density = n.has("density") ? n.at("density").positive() : b.density;
  if (n.has("position")) b.position = vec2(n.at("position"));
  if (n.has("angle")) b.angle = n.at("angle").number();
  if (n.has("velocity")) b.velocity = vec2(n.at("velocity"));
  if (n.has("omega")) b.omega = n.at("omega").number();
  if (n.has("fixed")) b.fixed = n.at("fixed").boolean();
  if (n.has("kick_until")) b.kickUntil = n.at("kick_until").nonNegative();
  if (n.has("wave")) {  // a swimmer: a travelling wave along the ellipse (fluid/body2d.h)
    const Node w = n.at("wave");
    w.expectObject({"amplitude", "wavelength", "period", "reverse", "phase_deg"});
    if (b.shape != fluid::Shape2::kEllipse) throw w.error("only an ellipse swims");
    b.wave.amplitude = w.at("amplitude").positive();
    if (b.wave.amplitude >= 0.5 * b.a) {
      throw w.at("amplitude").error("must be less than half of \"a\" (a quarter of the length)");
    }
    if (w.has("wavelength")) b.wave.wavelength = w.at("wavelength").positive();
    b.wave.period = w.at("period").positive();
    if (w.has("reverse")) b.wave.reverse = w.at("reverse").boolean();
    if (w.has("phase_deg")) b.wave.phase = w.at("phase_deg").numberIn(-360.0, 360.0) * M_PI / 180.0;
  }
  return b;
}

CfdScene readCfd(const Node& root, const std::string& path) {
  if (root.json().is_object() && !root.has("cfd")) {
    throw root.error(
        "not a CFD scene: it has no \"cfd\" object (samara cfd reads scenes such as "
        "assets/cfd/cylinder_re100.json; samara run reads assets/scenes)");
  }
  root.expectObject({"cfd"});
  const Node n = root.at("cfd");
  n.expectObject({"name", "grid", "fluid", "gravity", "dt", "duration", "sponge", "follow",
                  "max_cfl", "mask_shift", "body", "output", "threads"});
  CfdScene s;
  s.name = n.has("name") ? n.at("name").string() : std::filesystem::path(path).stem().string();
  fluid::Ns2Def& d = s.def;
  const Node g = n.at("grid");
  g.expectObject({"nx", "ny", "dx", "centre"});
  d.nx = g.at("nx").integer(16, 8192);
  d.ny = g.at("ny").integer(16, 8192);
  if (d.nx % 2) throw g.at("nx").error("must be even");
  if (d.ny % 2) throw g.at("ny").error("must be even");
  d.dx = g.at("dx").positive();
  if (g.has("centre")) d.centre = vec2(g.at("centre"));
  const Node f = n.at("fluid");
  f.expectObject({"density", "viscosity", "stream"});
  d.fluidDensity = f.at("density").positive();
  d.viscosity = f.at("viscosity").positive();
  if (f.has("stream")) d.stream = vec2(f.at("stream"));
  if (n.has("gravity")) d.gravity = vec2(n.at("gravity"));
  d.dt = n.at("dt").positive();
  s.duration = n.at("duration").positive();
  if (n.has("sponge")) {
    const Node sp = n.at("sponge");
    sp.expectObject({"width", "time"});
    d.spongeWidth = sp.at("width").nonNegative();
    if (sp.has("time")) d.spongeTime = sp.at("time").nonNegative();
  }
  if (n.has("follow")) d.follow = n.at("follow").boolean();
  if (n.has("max_cfl")) d.maxCfl = n.at("max_cfl").positive();
  if (n.has("mask_shift")) d.maskShift = n.at("mask_shift").number();
  if (n.has("threads")) d.threads = n.at("threads").integer(1, 256);
  d.hasBody = n.has("body");
  if (d.hasBody) d.body = readCfdBody(n.at("body"));
  if (n.has("output")) {
    const Node o = n.at("output");
    o.expectObject({"sample_every", "snapshot_every", "vorticity_scale"});
    if (o.has("sample_every")) s.sampleEvery = o.at("sample_every").positive();
    if (o.has("snapshot_every")) s.snapshotEvery = o.at("snapshot_every").nonNegative();
    if (o.has("vorticity_scale")) s.vorticityScale = o.at("vorticity_scale").nonNegative();
  }
  if (s.duration / d.dt > 1e9) throw n.at("duration").error("needs more than 1e9 steps of dt");
  // The solver's own checks (body inside the window, thickness in cells, …) name their field.
  try {
    fluid::validateNs2Def(d);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    const std::size_t colon = what.find(": ");
    std::string field = colon == std::string::npos ? "" : what.substr(0, colon);
    std::string ptr = n.pointer();
    for (std::size_t start = 0; !field.empty();) {
      const std::size_t dot = field.find('.', start);
      ptr = pointerAppend(ptr, field.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    throw Error::atField(path, ptr, colon == std::string::npos ? what : what.substr(colon + 2));
  }
  return s;
}

}  // namespace

CfdScene parseCfdScene(const std::string& text, const std::string& path, const SetList& sets) {
  Json json = parseJson(text, path);
  for (const auto& [setPath, value] : sets) applySet(&json, setPath, value, path);
  return readCfd(Node(json, path), path);
}

CfdScene loadCfdScene(const std::string& path, const SetList& sets) {
  return parseCfdScene(readFile(path, 1u << 20), path, sets);
}

}  // namespace samara::io
