// A new fluid model is one file plus one registration line: this test-only model (linear
// drag f = −c (v_COM − flow) at the centre of mass, parameter "coefficient" in kg/s) is
// defined here and registered with models::registerModel; the scene key "model", its
// parameters, their errors, saving and comparing a scene all work with no other change.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/world.h"
#include "io/error.h"
#include "io/model_io.h"
#include "io/scene.h"
#include "io/scene_writer.h"
#include "io_test_util.h"
#include "models/registry.h"

namespace {

using namespace samara;

class ToyLinearDrag final : public core::FluidModel {
 public:
  std::string name() const override { return "toy-linear-drag"; }
  std::unique_ptr<core::FluidModel> clone() const override {
    return std::make_unique<ToyLinearDrag>(*this);
  }
  std::vector<core::ModelParam> parameterList() const override { return {{"coefficient", c_}}; }
  void readParameters(const core::ParamReader& r) override {
    r.allowOnly({"coefficient"});
    if (r.has("coefficient")) c_ = r.number("coefficient", true);
  }
  Vec6 wrench(const core::FluidModelInput& in, const Vec6& Y) const override {
    const Vec3 vCom = Y.tail<3>() + Y.head<3>().cross(in.com);
    const Vec3 f = -c_ * (vCom - in.flowBody);
    Vec6 w;
    w.head<3>() = in.com.cross(f);
    w.tail<3>() = f;
    return w;
  }

 private:
  double c_ = 0.01;  ///< kg/s
};

// The one registration line.
const bool kRegistered = (models::registerModel({"toy-linear-drag", "linear drag (test only)",
                                                 [] { return std::make_shared<ToyLinearDrag>(); }}),
                          true);

const char* kToyScene = R"({
  "gravity": [0, -9.81, 0],
  "fluid": {"density": 0},
  "sim": {"dt": 0.001, "duration": 1},
  "bodies": [{"mesh": {"primitive": "sphere", "radius": 0.05}, "mass": {"total": 0.02},
              "model": {"type": "toy-linear-drag", "coefficient": 0.04}}]
})";

}  // namespace

TEST_CASE("a toy model: one file and one registration line", "[io][model][toy]") {
  REQUIRE(kRegistered);
  CHECK(models::isModelName("toy-linear-drag"));

  const core::WorldDef def = io::parseScene(kToyScene, "toy.json", ".");
  REQUIRE(def.bodies[0].model->name() == "toy-linear-drag");
  core::World world(def);
  // Linear drag from rest: v(t) = v_t (1 − e^{−t/τ}), v_t = m g / c = 4.905 m/s, τ = m/c =
  // 0.5 s. The implicit step is first order in h: at h = 1 ms, within 0.2 % after 1 s.
  for (int k = 0; k < 1000; ++k) REQUIRE(world.step().ok());
  const double vt = 0.02 * 9.81 / 0.04;
  const double expect = vt * (1.0 - std::exp(-1.0 / 0.5));
  CHECK(world.diagnostics(0).fallSpeed == Approx(expect).epsilon(2e-3));

  // Parameters: errors name the file and the field; the default is used when absent.
  const io::Error e = io::test::errorOf([] {
    io::parseScene(
        R"({"bodies": [{"mesh": {"primitive": "sphere", "radius": 0.05}, "mass": {"total": 0.02},
        "model": {"type": "toy-linear-drag", "coefficient": -1}}]})",
        "toy.json", ".");
  });
  CHECK(e.field() == "/bodies/0/model/coefficient");
  CHECK_THAT(e.what(), Catch::Contains("toy.json"));
  const io::Error unknown = io::test::errorOf([] {
    io::parseScene(
        R"({"bodies": [{"mesh": {"primitive": "sphere", "radius": 0.05}, "mass": {"total": 0.02},
        "model": {"type": "toy-linear-drag", "coeficient": 1}}]})",
        "toy.json", ".");
  });
  CHECK_THAT(unknown.what(), Catch::Contains("did you mean \"coefficient\""));

  // Written back with its parameters, and compared by them.
  CHECK(io::modelJson(*def.bodies[0].model).dump() ==
        R"({"coefficient":0.04,"type":"toy-linear-drag"})");
  core::WorldDef other = def;
  CHECK(io::definitionDifference(def, other).empty());
  CHECK(models::setModel(&other.bodies[0], "toy-linear-drag"));
  CHECK(io::definitionDifference(def, other) == "/bodies/0/model");
  CHECK(io::modelJson(*other.bodies[0].model) == "toy-linear-drag");
}
