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

/// core::ParamReader over a scene file's model object: every error names the file and the
/// field (through Node).
class NodeParamReader final : public core::ParamReader {
 public:
  explicit NodeParamReader(const Node& m) : m_(m) {}

  void allowOnly(const std::vector<std::string>& keys) const override {
    std::vector<std::string> allowed = {"type"};
    allowed.insert(allowed.end(), keys.begin(), keys.end());
    m_.expectObject(allowed);
  }
  bool has(const std::string& key) const override { return m_.has(key.c_str()); }
  bool isString(const std::string& key) const override {
    return m_.at(key.c_str()).json().is_string();
  }
  bool isNumber(const std::string& key) const override {
    return m_.at(key.c_str()).json().is_number();
  }
  std::string text(const std::string& key) const override { return m_.at(key.c_str()).string(); }
  double number(const std::string& key, bool positive) const override {
    const Node n = m_.at(key.c_str());
    return positive ? n.positive() : n.nonNegative();
  }
  std::vector<double> numbers(const std::string& key, int count) const override {
    const Node c = m_.at(key.c_str());
    c.expectArray(count);
    std::vector<double> out;
    for (int i = 0; i < count; ++i)
      out.push_back(c.item(static_cast<std::size_t>(i)).nonNegative());
    return out;
  }
  Vec3 vec3(const std::string& key) const override { return m_.at(key.c_str()).vec3(); }
  std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi) const override {
    return m_.at(key.c_str()).integer(static_cast<int>(lo), static_cast<int>(hi));
  }
  std::string describe(const std::string& key) const override {
    return m_.at(key.c_str()).describe();
  }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const override {
    throw(key.empty() ? m_ : m_.at(key.c_str())).error(message);
  }

 private:
  const Node& m_;
};

Json paramJson(const core::ParamValue& v) {
  if (const auto* x = std::get_if<double>(&v)) return *x;
  if (const auto* x = std::get_if<std::vector<double>>(&v)) return *x;
  if (const auto* x = std::get_if<std::string>(&v)) return *x;
  return std::get<std::int64_t>(v);
}

}  // namespace

Json modelJson(const core::FluidModel& model) {
  if (model.sameAs(*core::BodyDef{}.model)) return Json();
  const std::shared_ptr<core::FluidModel> defaults = models::makeModel(model.name());
  if (defaults && model.sameAs(*defaults)) return model.name();
  Json j = {{"type", model.name()}};
  for (const core::ModelParam& p : model.parameterList()) j[p.key] = paramJson(p.value);
  return j;
}

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
  const Node where = m.json().is_object() ? m.at("type") : m;
  std::shared_ptr<core::FluidModel> model = models::makeModel(type);
  if (!model) throw where.error("unknown model \"" + type + "\"; known models: " + knownModels());
  if (m.json().is_object()) model->readParameters(NodeParamReader(m));
  body->model = std::move(model);
}

core::AddedMassSource readAddedMassSource(const Node& n) {
  const std::string v = n.string();
  if (v == "model") return core::AddedMassSource::kModel;
  if (v == "local") return core::AddedMassSource::kLocal;
  if (v == "local-per-part") return core::AddedMassSource::kLocalPerPart;
  if (v == "exact") return core::AddedMassSource::kExact;
  throw n.error("must be \"model\", \"local\", \"local-per-part\" or \"exact\"");
}

}  // namespace samara::io
