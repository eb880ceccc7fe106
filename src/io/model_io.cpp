#include "io/model_io.h"

#include <memory>
#include <string>

#include "models/registry.h"

namespace samara::io {
namespace {

std::string knownModels() {
  std::string s;
  for (const std::string& n : models::modelNames()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

void readFluidModel(const Node& m, core::BodyDef* body) {
  std::string type;
  if (m.json().is_string()) {
    type = m.string();
  } else if (m.json().is_object()) {
    type = m.at("type").string();
  } else {
    throw m.error("expected a model name (" + knownModels() +
                  ") or an object {\"type\": NAME, …}, got " + m.describe());
  }
  const bool object = m.json().is_object();
  if (type == "gwtf") {
    if (object) m.expectObject({"type"});
    body->fluidModel.reset();
  } else if (type == "vacuum") {
    if (object) m.expectObject({"type"});
    body->fluidModel = std::make_shared<core::VacuumModel>();
  } else {
    const Node where = object ? m.at("type") : m;
    throw where.error("unknown model \"" + type + "\"; known models: " + knownModels());
  }
}

}  // namespace samara::io
