// Properties every fluid model shares (issue 6), through the World as scenes use them:
// zero wrench at zero relative velocity, wind equivalent to moving the body the other way,
// a symmetric positive semi-definite added mass, and the same bits for the same input.
#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/world.h"
#include "geometry/primitives.h"
#include "models/registry.h"

using namespace samara;
using namespace samara::core;

namespace {

/// A 3.5 cm × 2 cm paper card (sheet) and a 2 cm PVC ellipsoid, both given `model`.
WorldDef scene(const std::string& model, double fluidDensity) {
  WorldDef def;
  def.dt = 0.002;
  def.fluid.density = fluidDensity;
  BodyDef card;
  card.name = "card";
  card.mesh = geometry::makePlate(0.035, 0.02, 4, 3);
  card.mass.density = 800.0;
  card.mass.thickness = 1e-4;
  card.orientation = Quat(Eigen::AngleAxisd(0.17, Vec3::UnitZ()));
  card.position = Vec3(0, 2, 0);
  BodyDef egg;
  egg.name = "ellipsoid";
  egg.mesh = geometry::makeEllipsoid(Vec3(0.02, 0.012, 0.008), 3);
  egg.mesh.V.rowwise() += Eigen::RowVector3d(0.003, 0.0, -0.002);  // COM off the origin
  egg.mass.density = 1400.0;
  egg.position = Vec3(0.5, 2, 0);
  egg.angularVelocity = Vec3(1.0, -2.0, 0.5);
  REQUIRE(models::setModel(&card, model));
  REQUIRE(models::setModel(&egg, model));
  def.bodies = {card, egg};
  return def;
}

double maxAbs(const FluidWrench& w) {
  return std::max(w.force.cwiseAbs().maxCoeff(), w.torque.cwiseAbs().maxCoeff());
}

}  // namespace

TEST_CASE("Every model: zero wrench at zero relative velocity, wind = moving the other way",
          "[models][every]") {
  for (const std::string& model : models::modelNames()) {
    for (const double rho : {1.225, 998.0}) {
      INFO(model << " in fluid of density " << rho);
      const World world(scene(model, rho));
      for (int b = 0; b < world.numBodies(); ++b) {
        INFO("body " << world.bodyDef(b).name);
        FluidWrenchQuery q;
        q.q = Quat(0.8, 0.3, -0.4, 0.2).normalized();
        const Vec3 wind(1.5, 0.2, -0.7);
        // The body drifts with the wind without turning: no relative motion, no force.
        q.velocity = wind;
        q.wind = wind;
        CHECK(maxAbs(world.fluidWrench(b, q)) <= 1e-15);

        // Moving through a wind equals moving the other way through still fluid.
        q.velocity = Vec3(0.4, -1.1, 0.3);
        q.omega = Vec3(2.0, -1.0, 0.5);
        const FluidWrench withWind = world.fluidWrench(b, q);
        FluidWrenchQuery still = q;
        still.velocity = q.velocity - wind;
        still.wind = Vec3::Zero();
        const FluidWrench moved = world.fluidWrench(b, still);
        const double scale = maxAbs(withWind);
        if (model != "vacuum" && model != "gross-inertial") CHECK(scale > 1e-7);
        CHECK((withWind.force - moved.force).cwiseAbs().maxCoeff() <= 1e-12 * scale);
        CHECK((withWind.torque - moved.torque).cwiseAbs().maxCoeff() <= 1e-12 * scale);

        // Added mass (where the model has one): symmetric positive semi-definite.
        const Mat6 A = world.info(b).addedMass;
        CHECK((A - A.transpose()).norm() <= 1e-14 * std::max(1.0, A.norm()));
        Eigen::SelfAdjointEigenSolver<Mat6> es(0.5 * (A + A.transpose()));
        CHECK(es.eigenvalues().minCoeff() >= -1e-12 * std::max(1e-30, A.norm()));
      }
    }
  }
}

TEST_CASE("Every model: a card and an ellipsoid fall without failure, same bits twice",
          "[models][every]") {
  for (const std::string& model : models::modelNames()) {
    INFO(model);
    World a(scene(model, 1.225));
    World b(scene(model, 1.225));
    for (int k = 0; k < 250; ++k) {
      const StepReport ra = a.step();
      REQUIRE(ra.ok());
      REQUIRE(b.step().ok());
    }
    for (int i = 0; i < a.numBodies(); ++i) {
      const BodyDiagnostics da = a.diagnostics(i);
      CHECK(da.com.allFinite());
      CHECK(da.com == b.diagnostics(i).com);
      CHECK(a.state(i).Y == b.state(i).Y);
      CHECK(fluidModelName(a.bodyDef(i)) == model);
      // Everything falls (gravity wins in air for these densities).
      CHECK(da.com.y() < 2.0);
    }
  }
}

TEST_CASE("Every model: a body with the exact added mass takes any model", "[models]") {
  // The viewer's model combo and the ghosts: a model with its own added mass drops the
  // body's "exact" choice; samara and gwtf-2024 keep it.
  for (const std::string& model : models::modelNames()) {
    INFO(model);
    core::BodyDef b;
    b.mesh = geometry::makeSphere(0.05, 2);
    b.mass.mode = core::MassMode::kDensity;
    b.mass.density = 1200.0;
    b.addedMass = core::AddedMassSource::kExact;
    REQUIRE(models::setModel(&b, model));
    const bool local = b.model->localFaces() && !b.model->firstOrder();
    CHECK((b.addedMass == core::AddedMassSource::kExact) == local);
    core::WorldDef def;
    def.bodies = {b};
    CHECK_NOTHROW(core::World(def));
  }
}
