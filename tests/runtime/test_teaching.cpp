// SetTeaching: the snapshot carries the teaching overlays' data only while asked for, and it
// is what the World gives (force breakdown, added-mass blocks) at the published step.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "io/scene.h"
#include "runtime/runner.h"

using namespace samara;
using namespace samara::runtime;

namespace {
const std::string kPlate = std::string(SAMARA_SOURCE_DIR) + "/assets/scenes/falling_plate.json";
}  // namespace

TEST_CASE("Runner: teaching data only after SetTeaching, consistent with the World",
          "[runtime][runner][teaching]") {
  auto clock = std::make_shared<ManualClock>();
  RunnerOptions o;
  o.clock = clock;
  o.startPaused = true;
  Runner runner(o);
  runner.post(LoadScene{kPlate, {}});
  runner.post(Step{20});
  runner.tick();
  runner.updateSnapshot();
  REQUIRE(runner.snapshot().bodies.size() == 1);
  CHECK_FALSE(runner.snapshot().bodies[0].teaching.has_value());

  runner.post(SetTeaching{true, 7});
  runner.tick();
  runner.updateSnapshot();
  const Snapshot& s = runner.snapshot();
  REQUIRE(s.bodies[0].teaching.has_value());
  const BodyTeaching& t = *s.bodies[0].teaching;
  const core::World& w = *runner.world();
  const core::BodyInfo info = w.info(0);
  CHECK(t.forces.faces.size() == 7);
  CHECK(t.forces.gravity.force == info.mass * w.definition().gravity);
  CHECK(t.addedTranslational == info.addedMass.block<3, 3>(3, 3));
  const core::ForceBreakdown fb = w.forceBreakdown(0, 7);
  CHECK(t.forces.liftDrag.force == fb.liftDrag.force);
  // Body momentum: the linear part of 𝓘_body Y is m × the COM velocity (rigid body; the
  // diagnostics' velocity is the COM's displacement over the step, O(h) from v + ω × c).
  const Vec3 v = s.bodies[0].diagnostics.velocity;
  CHECK((t.linearMomentumBody - info.mass * v).norm() <= 1e-3 * info.mass * v.norm());
  // Total momentum: the world linear momentum of the diagnostics.
  CHECK((t.linearMomentumTotal - s.bodies[0].diagnostics.linearMomentum).norm() <=
        1e-12 * t.linearMomentumTotal.norm());
  CHECK(t.linearMomentumTotal.norm() > t.linearMomentumBody.norm());  // fluid carries some

  runner.post(SetTeaching{false, 0});
  runner.tick();
  runner.updateSnapshot();
  CHECK_FALSE(runner.snapshot().bodies[0].teaching.has_value());
  // Not logged: it changes no state.
  for (const LoggedCommand& c : runner.commandLog()) {
    CHECK_FALSE(std::holds_alternative<SetTeaching>(c.command));
  }
}
