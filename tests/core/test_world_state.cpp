// World::saveState / restoreState: the step state is apart from the caches, so a World
// can be saved and restored exactly (history "resume from here", a ghost from any state).
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <vector>

#include "core/animation.h"
#include "core/world.h"
#include "geometry/primitives.h"
#include "test_shapes.h"

using namespace samara;
using namespace samara::core;

namespace {

/// A model with state of its own: a force that changes with every accepted step (a
/// linear congruential sequence), like a seeded turbulence process.
class Kicks final : public FluidModel {
 public:
  std::string name() const override { return "kicks"; }
  std::unique_ptr<FluidModel> clone() const override { return std::make_unique<Kicks>(*this); }
  bool buoyancy() const override { return true; }
  Vec6 wrench(const FluidModelInput& in, const Vec6& Y) const override {
    const double kick = 1e-3 * (static_cast<double>(state_ % 1000) / 1000.0 - 0.5);
    Vec6 w = -0.01 * Y;
    w[3] += kick * in.mass;
    return w;
  }
  void advance(const FluidModelInput&, const Vec6&) override {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
  }

 private:
  std::uint64_t state_ = 1;
};

WorldDef sceneWithEverything() {
  WorldDef def;
  def.fluid.density = 1.2;
  def.fluid.water = WaterDef{};
  def.fluid.water->level = 0.2;
  def.floor = FloorDef{};
  def.dt = 0.002;
  // A falling card in air that reaches the water.
  BodyDef card = test::cardBody(4, 4, Vec3(0.0, 0.25, 0.0), Vec3(1, 0, 0));
  card.name = "card";
  def.bodies.push_back(card);
  // A falling cat (a shape-changing body) in air.
  const test::Cat cat = test::makeCat();
  WorldDef catDef = test::catWorld(cat, test::catStroke(cat, 0.3), def.dt);
  catDef.bodies[0].position = Vec3(1.0, 2.0, 0.0);
  def.bodies.push_back(catDef.bodies[0]);
  // A box under a stateful model.
  BodyDef box;
  box.name = "box";
  box.mesh = geometry::makeBox(Vec3(0.1, 0.05, 0.08));
  box.mass.density = 300.0;
  box.position = Vec3(-1.0, 0.6, 0.0);
  box.model = std::make_shared<Kicks>();
  def.bodies.push_back(box);
  return def;
}

/// Every bit of every body's state and diagnostics after `steps` more steps.
std::vector<double> run(World* w, int steps) {
  std::vector<double> out;
  for (int k = 0; k < steps; ++k) {
    REQUIRE(w->step().ok());
    for (int i = 0; i < w->numBodies(); ++i) {
      const BodyState& s = w->state(i);
      const BodyDiagnostics d = w->diagnostics(i);
      out.insert(out.end(), s.g.b.data(), s.g.b.data() + 3);
      out.insert(out.end(), s.g.q.coeffs().data(), s.g.q.coeffs().data() + 4);
      out.insert(out.end(), s.Y.data(), s.Y.data() + 6);
      out.insert(out.end(), s.mu.data(), s.mu.data() + 6);
      out.push_back(d.kineticEnergyBody);
      out.push_back(d.kineticEnergyFluid);
    }
  }
  return out;
}

bool sameDoubles(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

TEST_CASE("a saved World state restores bit for bit", "[core][world][state]") {
  World w(sceneWithEverything());
  const World fresh = w;
  run(&w, 150);
  w.setFluidDensity(1.3);
  w.setDelta(0, 0.01);
  run(&w, 37);
  w.setDt(0.0013);  // t_k + h and the anchored t_{k+1} now differ in the last bits
  run(&w, 23);
  const WorldState saved = w.saveState();
  CHECK(saved.stepIndex() == 210);
  const std::vector<double> ahead = run(&w, 120);

  // The same World, after running on and changing parameters again.
  w.setFluidDensity(5.0);
  w.setDelta(0, std::nullopt);
  w.setDt(0.003);
  run(&w, 10);
  w.restoreState(saved);
  CHECK(w.time() == saved.time());
  CHECK(w.definition().fluid.density == 1.3);
  CHECK(w.definition().bodies[0].delta == 0.01);
  CHECK(sameDoubles(run(&w, 120), ahead));

  // A World of the same definition, restored from the state (a ghost from any state).
  World other = fresh;
  other.restoreState(saved);
  CHECK(sameDoubles(run(&other, 120), ahead));

  // A state of another scene is refused.
  WorldDef one = sceneWithEverything();
  one.bodies.resize(1);
  World small(one);
  CHECK_THROWS_AS(small.restoreState(saved), std::invalid_argument);
  CHECK_THROWS_AS(small.restoreState(WorldState{}), std::invalid_argument);
}
