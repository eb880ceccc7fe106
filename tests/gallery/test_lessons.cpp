// Lessons say what the screen shows (issue 14): every lesson (assets/lessons and the
// lesson_* scenes) has text whose numbers are listed in its "checks"; this runs each lesson
// headless and measures each one. Numbers with a unit of motion (m/s, m/s2, rev/s) that no
// check quotes fail the test: a lesson cannot promise a motion nobody measured (sizes and
// release angles are inputs; quoted results in cm or deg are listed as checks too).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "core/world.h"
#include "io/error.h"
#include "io/scene.h"

using namespace samara;
namespace fs = std::filesystem;

namespace {

struct Sample {
  double t = 0.0;
  core::BodyDiagnostics d;
};

std::vector<std::string> lessonFiles() {
  const fs::path root(SAMARA_SOURCE_DIR);
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(root / "assets/lessons")) {
    if (e.path().extension() == ".json") out.push_back(e.path().string());
  }
  for (const auto& e : fs::directory_iterator(root / "assets/scenes")) {
    if (e.path().stem().string().rfind("lesson_", 0) == 0) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Vec3 bodyAxis(const core::BodyDiagnostics& d, int axis) { return d.q.toRotationMatrix().col(axis); }

double measure(const io::LessonCheck& c, const std::vector<Sample>& s, const Vec3& up) {
  std::vector<const Sample*> w;
  for (const Sample& x : s) {
    if (x.t >= c.from - 1e-9 && x.t <= c.to + 1e-9) w.push_back(&x);
  }
  REQUIRE(!w.empty());
  const double n = static_cast<double>(w.size());
  double sum = 0.0;
  if (c.quantity == "fall_speed") {
    for (const Sample* x : w) sum += x->d.fallSpeed;
    return sum / n;
  }
  if (c.quantity == "spin_rev_s") {
    for (const Sample* x : w) sum += std::abs(x->d.spinRate);
    return sum / n / (2.0 * M_PI);
  }
  if (c.quantity == "horizontal_speed") {
    for (const Sample* x : w) {
      const Vec3 v = x->d.velocity - x->d.velocity.dot(up) * up;
      sum += v.norm();
    }
    return sum / n;
  }
  if (c.quantity == "speed") return w.back()->d.velocity.norm();
  if (c.quantity == "distance") return (w.back()->d.com - w.front()->d.com).norm();
  if (c.quantity == "fall_acceleration") {
    return (w.back()->d.fallSpeed - w.front()->d.fallSpeed) / (w.back()->t - w.front()->t);
  }
  if (c.quantity == "axis_velocity_deg") {
    const Vec3 v = w.back()->d.velocity.normalized();
    const double cosA = std::abs(bodyAxis(w.back()->d, 0).dot(v));
    return std::acos(std::min(cosA, 1.0)) * 180.0 / M_PI;
  }
  if (c.quantity == "flip_interval") {
    // Reversals of the body's y axis along the (conserved) angular momentum.
    std::vector<double> flips;
    double prev = 0.0;
    for (const Sample* x : w) {
      const double a = bodyAxis(x->d, 1).dot(x->d.angularMomentum.normalized());
      if (prev != 0.0 && (a > 0.0) != (prev > 0.0)) flips.push_back(x->t);
      prev = a;
    }
    REQUIRE(flips.size() >= 3);
    return (flips.back() - flips.front()) / static_cast<double>(flips.size() - 1);
  }
  FAIL("unknown quantity " << c.quantity);
  return 0.0;
}

}  // namespace

TEST_CASE("lessons: every number the text quotes is measured and holds",
          "[gallery][lessons][slow]") {
  const std::vector<std::string> files = lessonFiles();
  REQUIRE(files.size() >= 9);
  // Numbers with a unit of motion: "1.2 m/s", "4.9 m/s2", "18 rev/s".
  const std::regex quoted(R"((\d+(\.\d+)?)\s*(m/s2|m/s|rev/s))");
  for (const std::string& file : files) {
    INFO(file);
    const std::optional<io::Lesson> lesson = io::loadLesson(file);
    REQUIRE(lesson.has_value());
    REQUIRE(!lesson->checks.empty());
    for (auto it = std::sregex_iterator(lesson->text.begin(), lesson->text.end(), quoted);
         it != std::sregex_iterator(); ++it) {
      const std::string number = it->str();
      bool covered = false;
      for (const io::LessonCheck& c : lesson->checks) {
        covered = covered || c.quote.find(number) != std::string::npos;
      }
      INFO("\"" << number << "\" in the text");
      CHECK(covered);
    }
    core::WorldDef def = io::loadScene(file);
    double until = 0.0;
    for (const io::LessonCheck& c : lesson->checks) until = std::max(until, c.to);
    const Vec3 up = def.gravity.norm() > 0.0 ? Vec3(-def.gravity.normalized()) : Vec3::UnitY();
    core::World world(std::move(def));
    std::map<std::string, int> index;
    for (int i = 0; i < world.numBodies(); ++i) index[world.bodyDef(i).name] = i;
    std::vector<std::vector<Sample>> samples(static_cast<std::size_t>(world.numBodies()));
    auto record = [&] {
      for (int i = 0; i < world.numBodies(); ++i) {
        samples[static_cast<std::size_t>(i)].push_back({world.time(), world.diagnostics(i)});
      }
    };
    record();
    while (world.time() < until - 1e-12) {
      REQUIRE(world.step().ok());
      record();
    }
    for (const io::LessonCheck& c : lesson->checks) {
      INFO(c.body << ": " << c.quantity << " over [" << c.from << ", " << c.to << "] s, text \""
                  << c.quote << "\"");
      REQUIRE(index.count(c.body) == 1);
      const double got = measure(c, samples[static_cast<std::size_t>(index[c.body])], up);
      INFO("measured " << got << ", the text says " << c.value << " (+-" << 100.0 * c.tolerance
                       << " %)");
      CHECK(std::abs(got - c.value) <= c.tolerance * std::abs(c.value));
    }
  }
}

TEST_CASE("lessons: the view a lesson asks for is read and checked", "[gallery][lessons]") {
  const std::optional<io::Lesson> coin =
      io::loadLesson(std::string(SAMARA_SOURCE_DIR) + "/assets/lessons/coin_in_water.json");
  REQUIRE(coin.has_value());
  CHECK(coin->view.overlays == std::vector<std::string>{"forces"});
  CHECK(coin->view.plots == std::vector<std::string>{"fall_speed", "rotation_speed"});
  CHECK_FALSE(coin->view.presentPanels.empty());
  const std::string base = R"({"lesson": {"title": "t", "text": "falls at 1 m/s", "view": )";
  CHECK(io::parseLesson(base + R"({"split": false, "camera": {"pitch_deg": 40}}}})", "x.json")
            ->view.pitchDeg == 40.0);
  auto error = [&](const std::string& view) {
    try {
      io::parseLesson(base + view + "}}", "x.json");
    } catch (const io::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error(R"({"overlays": ["force"]})"), Catch::Contains("/lesson/view/overlays/0"));
  CHECK_THAT(error(R"({"overlays": ["force"]})"), Catch::Contains("unknown name \"force\""));
  CHECK_THAT(error(R"({"plots": ["speed"]})"), Catch::Contains("fall_speed"));
  CHECK_THAT(error(R"({"camera": {"pitch_deg": 95}})"), Catch::Contains("pitch_deg"));
  CHECK_THAT(error(R"({"zoom": 2})"), Catch::Contains("zoom"));
  // A check whose quote is not in the text is refused.
  CHECK_THROWS_WITH(
      io::parseLesson(R"({"lesson": {"title": "t", "text": "falls at 1 m/s", "checks": [
        {"body": "b", "quantity": "fall_speed", "from": 0, "to": 1, "value": 2,
         "quote": "2 m/s"}]}})",
                      "x.json"),
      Catch::Contains("is not in the lesson's text"));
}
