#include "app/panels/teaching.h"

#include <imgui.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <utility>

#include "app/render/glm_eigen.h"
#include "app/render/glyph.h"
#include "app/widgets/ticks.h"
#include "app/widgets/widgets.h"

namespace samara::app {
namespace {

// Colours (sRGB): distinct hues for the four resultant forces, the others muted.
constexpr ImU32 kLiftDrag = IM_COL32(255, 140, 0, 255);
constexpr ImU32 kLift = IM_COL32(255, 215, 0, 255);
constexpr ImU32 kDrag = IM_COL32(255, 90, 60, 255);
constexpr ImU32 kGravity = IM_COL32(80, 140, 255, 255);
constexpr ImU32 kBuoyancy = IM_COL32(0, 220, 220, 255);
constexpr ImU32 kContact = IM_COL32(70, 210, 90, 255);
constexpr ImU32 kFace = IM_COL32(255, 215, 90, 190);
constexpr ImU32 kAdded = IM_COL32(235, 70, 210, 255);
constexpr ImU32 kExact = IM_COL32(40, 200, 230, 255);  // the exact added mass (ghost)
constexpr ImU32 kOwn = IM_COL32(245, 245, 245, 230);
constexpr ImU32 kVelocity = IM_COL32(255, 255, 90, 255);
constexpr ImU32 kOmega = IM_COL32(255, 110, 110, 255);
constexpr ImU32 kMomentumBody = IM_COL32(190, 190, 190, 255);
constexpr ImU32 kMomentumTotal = IM_COL32(185, 90, 255, 255);
constexpr ImU32 kMunk = IM_COL32(20, 20, 120, 255);        // the Munk (fluid) torque
constexpr ImU32 kMunkText = IM_COL32(140, 150, 255, 255);  // its row in the (dark) panel

ImVec4 toVec4(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

/// The resultant forces at the COM: their colour, name (label of the arrow and of the
/// panel's row) and vector.
struct ForceEntry {
  ImU32 color;
  const char* name;
  Vec3 (*force)(const core::ForceBreakdown&);
};
constexpr ForceEntry kLiftEntry{kLift, "lift",
                                [](const core::ForceBreakdown& f) { return f.lift; }};
constexpr ForceEntry kDragEntry{kDrag, "drag",
                                [](const core::ForceBreakdown& f) { return f.drag; }};
constexpr ForceEntry kLiftDragEntry{kLiftDrag, "lift+drag",
                                    [](const core::ForceBreakdown& f) { return f.liftDrag.force; }};
constexpr ForceEntry kGravityEntry{kGravity, "gravity",
                                   [](const core::ForceBreakdown& f) { return f.gravity.force; }};
constexpr ForceEntry kBuoyancyEntry{kBuoyancy, "buoyancy",
                                    [](const core::ForceBreakdown& f) { return f.buoyancy.force; }};
constexpr ForceEntry kContactEntry{kContact, "contact",
                                   [](const core::ForceBreakdown& f) { return f.contact.force; }};
/// The panel's rows, in order.
constexpr ForceEntry kForceRows[] = {kLiftEntry,    kDragEntry,     kLiftDragEntry,
                                     kGravityEntry, kBuoyancyEntry, kContactEntry};
/// The arrows, in drawing order (lift and drag separately, not their sum).
constexpr ForceEntry kForceArrows[] = {kGravityEntry, kBuoyancyEntry, kLiftEntry, kDragEntry,
                                       kContactEntry};

/// A row of colour legend entries on one line.
void colorLegend(std::initializer_list<std::pair<ImU32, const char*>> entries) {
  bool first = true;
  for (const auto& [color, text] : entries) {
    if (!first) sameLineIfFits(ImGui::CalcTextSize(text).x);
    first = false;
    ImGui::TextColored(toVec4(color), "%s", text);
  }
}

/// The principal axes of `added` (body frame, largest first) with their values and the
/// ratio to the body's own value about each axis (`own(axis)`), as a table of `columns`
/// columns named `headers`.
template <class Own>
void principalTable(const char* id, const Mat3& added, int columns, const char* const* headers,
                    Own own) {
  if (!ImGui::BeginTable(id, columns, ImGuiTableFlags_SizingFixedFit)) return;
  const Eigen::SelfAdjointEigenSolver<Mat3> es(added);
  for (int c = 0; c < columns; ++c) ImGui::TableSetupColumn(headers[c]);
  ImGui::TableHeadersRow();
  for (int k = 2; k >= 0; --k) {
    const Vec3 a = es.eigenvectors().col(k);
    const double o = own(a);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("(%+.2f %+.2f %+.2f)", a.x(), a.y(), a.z());
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", es.eigenvalues()[k]);
    ImGui::TableNextColumn();
    ImGui::Text("%.3g", o > 0.0 ? es.eigenvalues()[k] / o : 0.0);
  }
  ImGui::EndTable();
}

/// World point → window position (ImGui units); nullopt behind the camera.
struct Projector {
  glm::mat4 viewProj;
  Rect viewport;
  std::optional<ImVec2> operator()(const Vec3& p) const {
    const glm::vec4 c = viewProj * glm::vec4(toGlm(p), 1.0f);
    if (c.w <= 1e-6f) return std::nullopt;
    return ImVec2(viewport.x + (0.5f + 0.5f * c.x / c.w) * viewport.w,
                  viewport.y + (0.5f - 0.5f * c.y / c.w) * viewport.h);
  }
};

/// Labels of this frame's arrows: a new one that would land on an earlier one moves down a
/// line (arrows from one point with similar tips no longer pile their labels up).
struct LabelPlacer {
  std::vector<ImVec2> used;
  ImVec2 place(ImVec2 p) {
    const float lineH = ImGui::GetTextLineHeight();
    for (int tries = 0; tries < 8; ++tries) {
      bool clash = false;
      for (const ImVec2& u : used) {
        if (std::abs(u.x - p.x) < 6.0f * lineH && std::abs(u.y - p.y) < lineH) clash = true;
      }
      if (!clash) break;
      p.y += lineH;
    }
    used.push_back(p);
    return p;
  }
};
LabelPlacer gLabels;  // UI thread only; cleared by drawOverlay

/// An arrow from `from` along `vec` (world, m), with an optional label at its tip. Arrows
/// under 2 px are not drawn and arrows under 14 px get no label.
void arrow(ImDrawList* dl, const Projector& P, const Vec3& from, const Vec3& vec, ImU32 col,
           float thick, const char* label = nullptr) {
  const auto a = P(from);
  const auto b = P(from + vec);
  if (!a || !b) return;
  const float dx = b->x - a->x, dy = b->y - a->y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 2.0f) return;
  if (len < 14.0f) label = nullptr;
  const float ux = dx / len, uy = dy / len;
  const float head = std::min(0.4f * len, 3.0f * thick + 6.0f);
  const ImVec2 base(b->x - ux * head, b->y - uy * head);
  const ImVec2 side(-uy * 0.55f * head, ux * 0.55f * head);
  dl->AddLine(*a, base, col, thick);
  dl->AddTriangleFilled(*b, ImVec2(base.x + side.x, base.y + side.y),
                        ImVec2(base.x - side.x, base.y - side.y), col);
  if (label != nullptr) dl->AddText(gLabels.place(ImVec2(b->x + 4.0f, b->y - 8.0f)), col, label);
}

/// The three principal ellipses of the affine image T·(unit sphere) as polylines.
void wireEllipsoid(ImDrawList* dl, const Projector& P, const Eigen::Matrix<double, 3, 4>& T,
                   ImU32 col, float thick) {
  constexpr int kN = 48;
  for (int plane = 0; plane < 3; ++plane) {
    const int i = plane, j = (plane + 1) % 3;
    ImVec2 pts[kN];
    int n = 0;
    for (int k = 0; k < kN; ++k) {
      const double t = 2.0 * M_PI * k / kN;
      Eigen::Vector4d u(0.0, 0.0, 0.0, 1.0);
      u[i] = std::cos(t);
      u[j] = std::sin(t);
      const auto p = P(T * u);
      if (!p) break;
      pts[n++] = *p;
    }
    if (n == kN) dl->AddPolyline(pts, n, col, ImDrawFlags_Closed, thick);
  }
}

/// A sphere of radius r (three great circles).
void wireSphere(ImDrawList* dl, const Projector& P, const Vec3& c, double r, ImU32 col,
                float thick) {
  Eigen::Matrix<double, 3, 4> T;
  T.leftCols<3>() = r * Mat3::Identity();
  T.col(3) = c;
  wireEllipsoid(dl, P, T, col, thick);
}

/// The largest values seen during one run (auto scales that do not jitter).
struct Scales {
  std::uint64_t generation = ~0ull;
  double force = 0.0, face = 0.0, velocity = 0.0, omega = 0.0, momentum = 0.0,
         angularMomentum = 0.0, torque = 0.0;
};
Scales gMax;  // UI thread only

double maxRadius(const runtime::Snapshot& s) {
  double r = 0.0;
  for (const auto& b : s.bodies) r = std::max(r, b.radius);
  return r > 0.0 ? r : 0.1;
}

double largestForce(const runtime::Snapshot& s) {
  double f = 0.0;
  for (const auto& b : s.bodies) {
    if (!b.teaching) continue;
    const core::ForceBreakdown& fb = b.teaching->forces;
    for (const auto* w : {&fb.liftDrag, &fb.gravity, &fb.buoyancy, &fb.contact}) {
      f = std::max(f, w->force.norm());
    }
  }
  return f;
}

}  // namespace

const std::vector<std::string>& TeachingOverlay::names() {
  static const std::vector<std::string> kNames = {"forces", "face-forces", "added-mass",
                                                  "velocity"};
  return kNames;
}

bool TeachingOverlay::enable(const std::string& name) {
  if (name == "forces") {
    forces_ = true;
  } else if (name == "face-forces") {
    faceForces_ = true;
  } else if (name == "added-mass") {
    addedMass_ = true;
  } else if (name == "velocity") {
    velocity_ = true;
  } else {
    return false;
  }
  return true;
}

void TeachingOverlay::setOnly(const std::vector<std::string>& names) {
  forces_ = faceForces_ = addedMass_ = velocity_ = false;
  for (const std::string& n : names) enable(n);
}

std::optional<runtime::SetTeaching> TeachingOverlay::request() {
  runtime::SetTeaching t;
  t.on = anyOverlay() || table_;
  t.maxFaces = faceForces_ ? maxFaces_ : 0;
  if (sent_ && sent_->on == t.on && sent_->maxFaces == t.maxFaces) return std::nullopt;
  sent_ = t;
  return t;
}

bool TeachingOverlay::anyOverlay() const {
  return forces_ || faceForces_ || addedMass_ || velocity_;
}

void TeachingOverlay::drawPanel(const runtime::Snapshot& s, int selected, const Rect& room) {
  if (s.status == runtime::RunStatus::kEmpty || room.empty()) return;
  placeDocked(room);
  ImGui::Begin("Teaching", nullptr, kDockedFlags);
  ImGui::Checkbox("Forces", &forces_);
  sameLineIfFits(checkboxWidth("Per face"));
  ImGui::Checkbox("Per face", &faceForces_);
  sameLineIfFits(checkboxWidth("Velocity"));
  ImGui::Checkbox("Velocity", &velocity_);
  ImGui::Checkbox("Added-mass glyphs", &addedMass_);
  sameLineIfFits(checkboxWidth("Added-mass table"));
  ImGui::Checkbox("Added-mass table", &table_);
  if (faceForces_) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    ImGui::SliderInt("faces shown", &maxFaces_, 10, 1000, "%d", ImGuiSliderFlags_Logarithmic);
  }
  const auto sel = static_cast<std::size_t>(std::max(selected, 0));
  const runtime::BodySnapshot* b = sel < s.bodies.size() ? &s.bodies[sel] : nullptr;
  const runtime::BodyTeaching* t = b && b->teaching ? &*b->teaching : nullptr;
  if (s.scrubbing && (anyOverlay() || table_)) {
    ImGui::TextDisabled("(overlays show the live state only: not while scrubbing)");
  }
  if (forces_ || faceForces_) drawForcesSection(s, b, t);
  if (velocity_) drawVelocitySection(t);
  if ((addedMass_ || table_) && b != nullptr) drawAddedMassSection(s, *b, t);
  wantedHeight_ = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
  ImGui::End();
}

void TeachingOverlay::drawForcesSection(const runtime::Snapshot& s, const runtime::BodySnapshot* b,
                                        const runtime::BodyTeaching* t) {
  ImGui::Separator();
  ImGui::TextUnformatted("Forces");
  ImGui::Checkbox("auto scale", &autoScale_);
  if (autoScale_) {
    const double f = std::max(gMax.force, 1e-12);
    newtonsPerMeter_ = static_cast<float>(f / (1.5 * maxRadius(s)));
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(autoScale_);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  ImGui::SliderFloat("N per m", &newtonsPerMeter_, 1e-6f, 1e4f, "%.3g",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::EndDisabled();
  if (t == nullptr) return;
  const core::ForceBreakdown& fb = t->forces;
  ImGui::Text("%s:", b->name.c_str());
  for (const ForceEntry& e : kForceRows) {
    ImGui::TextColored(toVec4(e.color), "  %-10s %10.4g N", e.name, e.force(fb).norm());
  }
  const Vec3 net = fb.liftDrag.force + fb.gravity.force + fb.buoyancy.force + fb.contact.force;
  ImGui::Text("  %-10s %10.4g N", "sum", net.norm());
  const Mat3 Rb = b->diagnostics.q.toRotationMatrix();
  const Vec3 vRel = b->diagnostics.velocity - s.params.wind;
  const Vec3 munk = (Rb * t->addedTranslational * Rb.transpose() * vRel).cross(vRel);
  ImGui::TextColored(toVec4(kMunkText), "  %-10s %10.4g N m", "Munk torque", munk.norm());
  if (faceForces_) {
    ImGui::TextColored(toVec4(kFace), "  per-face lift/drag: %zu largest faces", fb.faces.size());
  }
}

void TeachingOverlay::drawVelocitySection(const runtime::BodyTeaching* t) {
  ImGui::Separator();
  ImGui::TextUnformatted("Velocity and momentum");
  colorLegend({{kVelocity, "v"},
               {kOmega, "w (angular)"},
               {kMomentumBody, "p/L body"},
               {kMomentumTotal, "P/L total"}});
  if (t == nullptr) return;
  const double pb = t->linearMomentumBody.norm(), pt = t->linearMomentumTotal.norm();
  ImGui::Text("|p| body %.4g, total %.4g kg m/s", pb, pt);
  ImGui::Text("|L| body %.4g, total %.4g kg m^2/s", t->angularMomentumBody.norm(),
              t->angularMomentumTotal.norm());
}

void TeachingOverlay::drawAddedMassSection(const runtime::Snapshot& s,
                                           const runtime::BodySnapshot& b,
                                           const runtime::BodyTeaching* t) {
  ImGui::Separator();
  ImGui::TextUnformatted("Added mass");
  if (addedMass_) {
    ImGui::TextColored(toVec4(kAdded), "added (ellipsoid, radii ~ eigenvalues)");
    if (t != nullptr && t->exactTranslational) {
      ImGui::TextColored(toVec4(kExact), "exact added mass (potential flow), same scale");
    }
    ImGui::TextColored(toVec4(kOwn), "body's own mass / inertia, same scale");
    ImGui::TextDisabled("at the body: translation; beside it: rotation about the COM");
  }
  ImGui::Text("%s  model %s", b.name.c_str(), b.model.c_str());
  ImGui::Text("delta %.4g m%s, body mass %.4g kg", b.delta, b.deltaOverride ? "" : " (auto)",
              b.mass);
  if (t != nullptr) {
    static const char* const kTranslation[] = {"axis (body)", "added kg", "/ body", ""};
    principalTable("##added", t->addedTranslational, 4, kTranslation,
                   [&](const Vec3&) { return b.mass; });
    static const char* const kRotation[] = {"axis (body)", "added kg m^2", "/ body about it"};
    principalTable("##addedRot", t->addedRotational, 3, kRotation,
                   [&](const Vec3& a) { return a.dot(t->bodyRotational * a); });
    if (t->exactTranslational && t->exactRotational) {
      // "How good is the local estimate?": along the local tensor's axes, local / exact.
      ImGui::TextColored(toVec4(kExact), "exact (potential flow, the ghost's): local / exact");
      const Mat3& et = *t->exactTranslational;
      const Mat3& er = *t->exactRotational;
      static const char* const kVsT[] = {"axis (body)", "local kg", "/ exact"};
      principalTable("##vsExact", t->addedTranslational, 3, kVsT,
                     [&](const Vec3& a) { return a.dot(et * a); });
      static const char* const kVsR[] = {"axis (body)", "local kg m^2", "/ exact"};
      principalTable("##vsExactRot", t->addedRotational, 3, kVsR,
                     [&](const Vec3& a) { return a.dot(er * a); });
    } else if (addedMass_) {
      ImGui::TextDisabled("ghost \"exact-added-mass\" (Compare): the exact one beside it");
    }
  }
  if (t == nullptr && !s.scrubbing) ImGui::TextDisabled("(waiting for the simulation)");
}

void TeachingOverlay::drawOverlay(const runtime::Snapshot& s, const glm::mat4& viewProj,
                                  const glm::mat4& view, const Rect& viewport, float uiScale) {
  if (!anyOverlay() || s.scrubbing) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const Projector P{viewProj, viewport};
  gLabels.used.clear();
  const float thick = 3.0f * uiScale;
  const double R = maxRadius(s);
  // Auto scales: the largest value seen in this run spans a fixed share of the body size.
  if (gMax.generation != s.generation) {
    gMax = Scales{};
    gMax.generation = s.generation;
  }
  gMax.force = std::max(gMax.force, largestForce(s));
  const double nPerM =
      autoScale_ ? std::max(gMax.force, 1e-12) / (1.5 * R) : static_cast<double>(newtonsPerMeter_);
  // The camera's right axis in the world (rows of the view matrix's rotation).
  const Vec3 right(view[0][0], view[1][0], view[2][0]);
  for (const runtime::BodySnapshot& b : s.bodies) {
    if (!b.teaching) continue;
    const runtime::BodyTeaching& t = *b.teaching;
    const Vec3 c = b.diagnostics.com;
    const double r = b.radius > 0.0 ? b.radius : R;
    if (faceForces_ && !t.forces.faces.empty()) {
      double fmax = 0.0;
      for (const auto& f : t.forces.faces) fmax = std::max(fmax, f.force.norm());
      gMax.face = std::max(gMax.face, fmax);
      const double k = gMax.face > 0.0 ? 0.5 * r / gMax.face : 0.0;
      for (const auto& f : t.forces.faces) arrow(dl, P, f.position, k * f.force, kFace, 1.5f);
    }
    // Natural scales of this body (as the plots'): magnitudes far below them are
    // round-off, drawn as no arrow rather than a full-length one.
    const std::array<double, 5> nat =
        naturalScales(b.mass, b.radius, s.params.gravity.norm(), b.diagnostics.velocity.norm(),
                      b.diagnostics.omega.norm());
    if (forces_) {
      for (const ForceEntry& e : kForceArrows) {
        arrow(dl, P, c, e.force(t.forces) / nPerM, e.color, thick, e.name);
      }
      // The Munk moment: the torque of the fluid's momentum, (M_a v) x v with v the velocity
      // relative to the flow; it turns an elongated or flat body broadside. Its own scale:
      // the largest in this run spans 1.2 r (at least 1e-3 of m U² per metre).
      const Mat3 Rb = b.diagnostics.q.toRotationMatrix();
      const Vec3 vRel = b.diagnostics.velocity - s.params.wind;
      const Vec3 munk = (Rb * t.addedTranslational * Rb.transpose() * vRel).cross(vRel);
      gMax.torque = std::max({gMax.torque, munk.norm(), 1e-3 * nat[4]});
      arrow(dl, P, c, (1.2 * r / gMax.torque) * munk, kMunk, thick, "Munk torque");
    }
    if (velocity_) {
      const Vec3& v = b.diagnostics.velocity;
      const Vec3& w = b.diagnostics.omega;
      // Scales: the largest value of this run, but never below 1e-3 of the body's natural
      // scale (a resting body's 5e-18 kg m²/s is not drawn full length).
      gMax.velocity = std::max({gMax.velocity, v.norm(), 1e-3 * nat[2]});
      gMax.omega = std::max({gMax.omega, w.norm(), 1e-3 * nat[3]});
      gMax.momentum = std::max({gMax.momentum, t.linearMomentumBody.norm(),
                                t.linearMomentumTotal.norm(), 1e-3 * nat[0]});
      gMax.angularMomentum = std::max({gMax.angularMomentum, t.angularMomentumBody.norm(),
                                       t.angularMomentumTotal.norm(), 1e-3 * nat[1]});
      // Momenta (body and total share a scale: their ratio is the point) span 1.5 r at
      // their largest; velocities 0.9 r, drawn last so they stay visible on top.
      auto k = [&](double m, double len) { return m > 0.0 ? len * r / m : 0.0; };
      const double kp = k(gMax.momentum, 1.5), kl = k(gMax.angularMomentum, 1.5);
      arrow(dl, P, c, kp * t.linearMomentumTotal, kMomentumTotal, thick, "p total");
      arrow(dl, P, c, kp * t.linearMomentumBody, kMomentumBody, 0.6f * thick, "p body");
      arrow(dl, P, c, kl * t.angularMomentumTotal, kMomentumTotal, thick, "L total");
      arrow(dl, P, c, kl * t.angularMomentumBody, kMomentumBody, 0.6f * thick, "L body");
      arrow(dl, P, c, k(gMax.velocity, 0.9) * v, kVelocity, 0.7f * thick, "v");
      arrow(dl, P, c, k(gMax.omega, 0.9) * w, kOmega, 0.7f * thick, "w");
    }
    if (addedMass_) {
      const Mat3 Rb = b.diagnostics.q.toRotationMatrix();
      // Translational: kg → m, the larger of the added mass and the body's mass spans 1.2 r.
      const EllipsoidGlyph tr = ellipsoidGlyph(t.addedTranslational, Rb, c, 1.0);
      const double km = glyphScale(std::max(tr.eigenvalues.maxCoeff(), b.mass), 1.2 * r);
      const EllipsoidGlyph trs = ellipsoidGlyph(t.addedTranslational, Rb, c, km);
      wireSphere(dl, P, c, km * b.mass, kOwn, 1.5f);
      wireEllipsoid(dl, P, trs.transform(), kAdded, thick);
      if (t.exactTranslational) {  // the exact one at the same scale
        wireEllipsoid(dl, P, ellipsoidGlyph(*t.exactTranslational, Rb, c, km).transform(), kExact,
                      0.7f * thick);
      }
      for (int a = 0; a < 3; ++a) {
        const Vec3 axis = trs.radii[a] * trs.axes.col(a);
        if (const auto p0 = P(c - axis), p1 = P(c + axis); p0 && p1) {
          dl->AddLine(*p0, *p1, kAdded, 1.5f);
        }
      }
      // Rotational, beside the body: added inertia about the COM and the body's own.
      const Vec3 c2 = c + 2.4 * r * right;
      const EllipsoidGlyph own = ellipsoidGlyph(t.bodyRotational, Rb, c2, 1.0);
      const EllipsoidGlyph add = ellipsoidGlyph(t.addedRotational, Rb, c2, 1.0);
      double largest = std::max(own.eigenvalues.maxCoeff(), add.eigenvalues.maxCoeff());
      if (t.exactRotational) {
        largest = std::max(largest,
                           ellipsoidGlyph(*t.exactRotational, Rb, c2, 1.0).eigenvalues.maxCoeff());
      }
      const double ki = glyphScale(largest, 1.0 * r);
      if (t.exactRotational) {
        wireEllipsoid(dl, P, ellipsoidGlyph(*t.exactRotational, Rb, c2, ki).transform(), kExact,
                      0.7f * thick);
      }
      wireEllipsoid(dl, P, ellipsoidGlyph(t.bodyRotational, Rb, c2, ki).transform(), kOwn, 1.5f);
      wireEllipsoid(dl, P, ellipsoidGlyph(t.addedRotational, Rb, c2, ki).transform(), kAdded,
                    thick);
      if (const auto p = P(c2 + 1.1 * r * Vec3::UnitY())) {
        dl->AddText(*p, kAdded, "added inertia");
      }
      if (const auto p = P(c + 1.3 * r * Vec3::UnitY())) dl->AddText(*p, kAdded, "added mass");
      if (t.exactTranslational) {
        if (const auto p = P(c - 1.3 * r * Vec3::UnitY())) dl->AddText(*p, kExact, "exact");
      }
    }
  }
}

}  // namespace samara::app
