#include "runtime/commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "io/error.h"
#include "io/text_format.h"
#include "models/registry.h"
#include "runtime/overloaded.h"

namespace samara::runtime {

namespace {

std::string num(double x) { return io::roundTripText(x); }

}  // namespace

std::string describe(const Command& c) {
  return std::visit(
      Overloaded{
          [](const SetFluidDensity& s) { return "SetFluidDensity " + num(s.density); },
          [](const SetWind& s) {
            return "SetWind " + num(s.wind.x()) + " " + num(s.wind.y()) + " " + num(s.wind.z());
          },
          [](const SetDelta& s) {
            return "SetDelta " + std::to_string(s.body) + " " +
                   (s.delta ? num(*s.delta) : std::string("auto"));
          },
          [](const SetDt& s) { return "SetDt " + num(s.dt); },
          [](const SetSpeed& s) {
            return s.unlimited ? std::string("SetSpeed unlimited") : "SetSpeed " + num(s.factor);
          },
          [](const Pause&) { return std::string("Pause"); },
          [](const Resume&) { return std::string("Resume"); },
          [](const TogglePause&) { return std::string("TogglePause"); },
          [](const Step& s) { return "Step " + std::to_string(s.n); },
          [](const Scrub& s) {
            return "Scrub " + (s.stepIndex ? std::to_string(*s.stepIndex) : std::string("live"));
          },
          [](const SetTeaching& s) {
            return "SetTeaching " + std::string(s.on ? "on " : "off ") + std::to_string(s.maxFaces);
          },
          [](const SetThreads& s) { return "SetThreads " + std::to_string(s.threads); },
          [](const Reset&) { return std::string("Reset"); },
          [](const Restart&) { return std::string("Restart"); },
          [](const SetGhost& s) { return "SetGhost " + (s.model ? *s.model : std::string("off")); },
          [](const LoadScene& s) { return "LoadScene " + s.path; },
          [](const Reload&) { return std::string("Reload"); },
          [](const LoadWorld& s) { return "LoadWorld " + s.label; },
      },
      c);
}

bool isParameterCommand(const Command& c) {
  return std::holds_alternative<SetFluidDensity>(c) || std::holds_alternative<SetWind>(c) ||
         std::holds_alternative<SetDelta>(c) || std::holds_alternative<SetDt>(c);
}

bool applyParameter(const Command& c, core::World* world) {
  if (const auto* s = std::get_if<SetFluidDensity>(&c)) {
    if (!std::isfinite(s->density) || s->density < 0.0) return false;
    world->setFluidDensity(s->density);
    return true;
  }
  if (const auto* s = std::get_if<SetWind>(&c)) {
    if (!s->wind.allFinite()) return false;
    world->setWind(s->wind);
    return true;
  }
  if (const auto* s = std::get_if<SetDelta>(&c)) {
    if (s->body < 0 || s->body >= world->numBodies()) return false;
    if (s->delta && (!std::isfinite(*s->delta) || *s->delta < 0.0)) return false;
    world->setDelta(s->body, s->delta);
    return true;
  }
  if (const auto* s = std::get_if<SetDt>(&c)) {
    if (!std::isfinite(s->dt) || s->dt <= 0.0) return false;
    world->setDt(s->dt);
    return true;
  }
  return false;
}

bool applyOverrides(const Overrides& o, core::WorldDef* def, std::string* error) {
  if (o.fluidDensity) def->fluid.density = *o.fluidDensity;
  if (o.wind) def->fluid.wind = *o.wind;
  if (o.dt) def->dt = *o.dt;
  for (std::size_t i = 0; i < o.delta.size() && i < def->bodies.size(); ++i) {
    if (o.delta[i]) def->bodies[i].delta = *o.delta[i];
  }
  for (std::size_t i = 0; i < o.model.size() && i < def->bodies.size(); ++i) {
    if (o.model[i] && !models::setModel(&def->bodies[i], *o.model[i])) {
      if (error) *error = "unknown model \"" + *o.model[i] + "\" for body " + std::to_string(i);
      return false;
    }
  }
  return true;
}

io::SetList overrideSets(const Overrides& o) {
  // JSON text of x that reads back as x (also −0, which "-0" would not: an integer).
  auto number = [](double x) {
    return x == 0.0 && std::signbit(x) ? std::string("-0.0") : io::formatNumber(x);
  };
  io::SetList sets;
  if (o.fluidDensity) sets.emplace_back("/fluid/density", number(*o.fluidDensity));
  if (o.wind) {
    sets.emplace_back("/fluid/wind", "[" + number(o.wind->x()) + "," + number(o.wind->y()) + "," +
                                         number(o.wind->z()) + "]");
  }
  if (o.dt) sets.emplace_back("/sim/dt", number(*o.dt));
  const std::size_t n = std::max(o.delta.size(), o.model.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string body = "/bodies/" + std::to_string(i);
    if (i < o.delta.size() && o.delta[i]) {
      const std::optional<double>& d = *o.delta[i];
      sets.emplace_back(body + "/delta", d ? number(*d) : std::string("auto"));
    }
    if (i < o.model.size() && o.model[i]) sets.emplace_back(body + "/model", *o.model[i]);
  }
  return sets;
}

bool isGhostName(const std::string& name) {
  return name == kNoAddedMassGhost || name == kExactAddedMassGhost || models::isModelName(name);
}

std::vector<std::string> ghostNames() {
  std::vector<std::string> names = models::modelNames();
  names.emplace_back(kNoAddedMassGhost);
  names.emplace_back(kExactAddedMassGhost);
  return names;
}

bool setAllModels(core::WorldDef* def, const std::string& name) {
  if (name == kNoAddedMassGhost) {
    for (core::BodyDef& b : def->bodies) {
      if (b.model->localFaces()) b.delta = 0.0;  // δ applies to it
    }
    return true;
  }
  if (name == kExactAddedMassGhost) {
    for (core::BodyDef& b : def->bodies) {  // where the exact tensor applies
      if (b.model->localFaces() && !b.model->firstOrder() && !b.animation) {
        b.addedMass = core::AddedMassSource::kExact;
      }
    }
    return true;
  }
  if (!models::isModelName(name)) return false;
  for (core::BodyDef& b : def->bodies) models::setModel(&b, name);
  return true;
}

}  // namespace samara::runtime
