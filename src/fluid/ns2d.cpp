#include "fluid/ns2d.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/thread_pool.h"

namespace samara::fluid {

namespace {

/// i·k·z for a real wavenumber k.
inline Complex times_ik(double k, const Complex& z) { return {-k * z.imag(), k * z.real()}; }

void require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw std::invalid_argument(field + ": " + message);
}

struct MaskCell {
  std::size_t index;  ///< window cell
  double chi;         ///< mask value
  Vec2 r;             ///< cell centre relative to the body centre, world axes, m
  Vec2 p;             ///< the same in body axes, m
};

/// The cells where the body's mask is not zero, at pose (x, angle) and time t (the shape
/// of an undulating body).
std::vector<MaskCell> maskCells(const Ns2Def& d, const Vec2& x, double angle, const Vec2& origin,
                                double t) {
  std::vector<MaskCell> cells;
  const double eps = d.dx;
  const double reach = boundingRadius(d.body) + eps + d.dx;
  const Vec2 c = (x - origin) / d.dx - Vec2(0.5, 0.5);  // fractional cell index of the centre
  const int r = static_cast<int>(std::ceil(reach / d.dx));
  const int ic = static_cast<int>(std::floor(c.x())), jc = static_cast<int>(std::floor(c.y()));
  const double cs = std::cos(angle), sn = std::sin(angle);
  const WaveFrame frame = waveFrame(d.body, t);
  for (int j = jc - r; j <= jc + r + 1; ++j) {
    for (int i = ic - r; i <= ic + r + 1; ++i) {
      const Vec2 rel((i - c.x()) * d.dx, (j - c.y()) * d.dx);
      const Vec2 p(cs * rel.x() + sn * rel.y(), -sn * rel.x() + cs * rel.y());
      const double chi = maskValue(signedDistanceAt(d.body, frame, p, t) + d.maskShift * eps, eps);
      if (chi <= 0.0) continue;
      const int ii = ((i % d.nx) + d.nx) % d.nx, jj = ((j % d.ny) + d.ny) % d.ny;
      cells.push_back({static_cast<std::size_t>(jj) * d.nx + ii, chi, rel, p});
    }
  }
  return cells;
}

/// An undulating body's deformation velocity per mask cell (world axes), relative to the
/// body frame (WaveFrame), less what is left of its χ-weighted mean and rotation about the
/// centre on the discrete mask: the deformation carries no momentum or angular momentum of
/// its own (body2d.h), so the flow alone moves the body.
std::vector<Vec2> deformationVelocities(const Ns2Def& d, const std::vector<MaskCell>& cells,
                                        double angle, double t) {
  std::vector<Vec2> w(cells.size(), Vec2::Zero());
  if (!undulates(d.body)) return w;
  const double cs = std::cos(angle), sn = std::sin(angle);
  const WaveFrame frame = waveFrame(d.body, t);
  double area = 0.0, polar = 0.0, spin = 0.0;
  Vec2 mean = Vec2::Zero();
  for (std::size_t k = 0; k < cells.size(); ++k) {
    double rate = 0.0;
    (void)waveOffset(d.body, frame, cells[k].p.x(), t, &rate);
    w[k] = Vec2(-sn * rate, cs * rate);  // the body y axis in world axes
    area += cells[k].chi;
    mean += cells[k].chi * w[k];
  }
  mean /= area;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    w[k] -= mean;
    const Vec2& r = cells[k].r;
    spin += cells[k].chi * (r.x() * w[k].y() - r.y() * w[k].x());
    polar += cells[k].chi * r.squaredNorm();
  }
  const double omega = spin / polar;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    w[k] -= omega * Vec2(-cells[k].r.y(), cells[k].r.x());
  }
  return w;
}

/// Sets (u, v) inside the body at its pose and time t to its motion V + Ω × r (plus an
/// undulating body's deformation velocity), blended by χ.
void imposeRigidMotion(const Ns2Def& d, const Body2State& b, double t, const Vec2& origin,
                       std::vector<double>* u, std::vector<double>* v) {
  const std::vector<MaskCell> cells = maskCells(d, b.position, b.angle, origin, t);
  const std::vector<Vec2> deform = deformationVelocities(d, cells, b.angle, t);
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const MaskCell& c = cells[k];
    const Vec2 us = b.velocity + b.omega * Vec2(-c.r.y(), c.r.x()) + deform[k];
    (*u)[c.index] += c.chi * (us.x() - (*u)[c.index]);
    (*v)[c.index] += c.chi * (us.y() - (*v)[c.index]);
  }
}

}  // namespace

void validateNs2Def(const Ns2Def& d) {
  require(d.nx >= 16 && d.nx % 2 == 0 && d.nx <= 8192, "grid.nx",
          "must be even, 16 to 8192 (got " + std::to_string(d.nx) + ")");
  require(d.ny >= 16 && d.ny % 2 == 0 && d.ny <= 8192, "grid.ny",
          "must be even, 16 to 8192 (got " + std::to_string(d.ny) + ")");
  require(std::isfinite(d.dx) && d.dx > 0.0, "grid.dx", "must be a positive length in m");
  require(std::isfinite(d.fluidDensity) && d.fluidDensity > 0.0, "fluid.density",
          "must be positive (kg/m3)");
  require(std::isfinite(d.viscosity) && d.viscosity > 0.0, "fluid.viscosity",
          "must be a positive kinematic viscosity (m2/s)");
  require(std::isfinite(d.dt) && d.dt > 0.0, "dt", "must be a positive time step in s");
  require(std::isfinite(d.spongeWidth) && d.spongeWidth >= 0.0 &&
              2.0 * d.spongeWidth < std::min(d.nx, d.ny) * d.dx,
          "sponge.width", "must be >= 0 and less than half the window");
  require(std::isfinite(d.spongeTime) && d.spongeTime >= 0.0, "sponge.time", "must be >= 0 s");
  require(static_cast<long long>(d.nx) * d.ny <= (1LL << 24), "grid",
          "has more than 4096 x 4096 cells (" + std::to_string(d.nx) + " x " +
              std::to_string(d.ny) + ")");
  require(d.maxCfl > 0.0, "max_cfl", "must be positive");
  require(std::isfinite(d.maskShift) && d.maskShift >= -1.0 && d.maskShift <= 2.0, "mask_shift",
          "must be -1 to 2 cells");
  require(d.threads >= 1 && d.threads <= 256, "threads", "must be 1 to 256");
  if (!d.hasBody) return;
  const Body2Def& b = d.body;
  require(std::isfinite(b.a) && b.a > 0.0, "body.a", "must be a positive length in m");
  require(b.shape == Shape2::kCircle || (std::isfinite(b.b) && b.b > 0.0 && b.b <= b.a), "body.b",
          "must be positive and at most body.a");
  require(std::isfinite(b.density) && b.density > 0.0, "body.density", "must be positive (kg/m3)");
  require(!undulates(b) || (b.shape == Shape2::kEllipse && b.wave.amplitude < 0.5 * b.a &&
                            std::isfinite(b.wave.wavelength) && b.wave.wavelength >= 0.0 &&
                            std::isfinite(b.wave.period) && b.wave.period > 0.0),
          "body.wave", "needs an ellipse, amplitude < a/2, wavelength >= 0 and period > 0");
  const double halfW = 0.5 * std::min(d.nx, d.ny) * d.dx - d.spongeWidth;
  require(boundingRadius(b) + 3.0 * d.dx < halfW, "body",
          "does not fit in the window inside the sponge (radius " +
              std::to_string(boundingRadius(b)) + " m, room " + std::to_string(halfW) + " m)");
  require(b.b >= 2.0 * d.dx, b.shape == Shape2::kCircle ? "body.a" : "body.b",
          "is less than 2 cells (" + std::to_string(b.b / d.dx) +
              "): refine grid.dx or thicken the body");
}

struct Ns2Solver::Impl {
  explicit Impl(const Ns2Def& d)
      : pool(d.threads > 1 ? std::make_unique<core::ThreadPool>(d.threads) : nullptr),
        fft(d.nx, d.ny, pool.get()),
        nx(d.nx),
        ny(d.ny),
        nxh(d.nx / 2 + 1),
        nc(static_cast<std::size_t>(d.ny) * (d.nx / 2 + 1)),
        np(static_cast<std::size_t>(d.nx) * d.ny) {}

  std::unique_ptr<core::ThreadPool> pool;
  Fft2 fft;
  int nx, ny, nxh;
  std::size_t nc, np;
  std::vector<double> kx, ky;    ///< derivative wavenumbers (0 at Nyquist), 1/m
  std::vector<double> invK2;     ///< 1/|k|² (0 at k = 0)
  std::vector<double> keep;      ///< 2/3-rule filter of the advection term
  std::vector<double> cnA, cnB;  ///< Crank–Nicolson factors per mode
  std::vector<Complex> w, nPrev, nCur, c1, c2, wStar;
  std::vector<double> u, v, f, g, sponge;
  bool havePrev = false;
  Vec2 dvPrev = Vec2::Zero();
  double dwPrev = 0.0;

  /// body(lo, hi) over row ranges on the pool (pointwise work; no reductions).
  template <class F>
  void rows(const F& body) {
    constexpr int kTasks = 8;
    auto task = [&](int b) { body(ny * b / kTasks, ny * (b + 1) / kTasks); };
    if (pool) {
      pool->run(kTasks, task);
    } else {
      for (int b = 0; b < kTasks; ++b) task(b);
    }
  }
  /// body(lo, hi) over spectrum index ranges.
  template <class F>
  void modes(const F& body) {
    rows([&](int lo, int hi) {
      body(static_cast<std::size_t>(lo) * nxh, static_cast<std::size_t>(hi) * nxh);
    });
  }

  std::size_t mode(int n, int m) const { return static_cast<std::size_t>(n) * nxh + m; }

  /// u, v (with U∞) of the spectrum s.
  void velocity(const std::vector<Complex>& s, const Vec2& stream, std::vector<double>* uo,
                std::vector<double>* vo) {
    modes([&](std::size_t lo, std::size_t hi) {
      for (std::size_t k = lo; k < hi; ++k) {
        const int n = static_cast<int>(k / nxh), m = static_cast<int>(k % nxh);
        const Complex psi = s[k] * invK2[k];
        c1[k] = times_ik(ky[n], psi);
        c2[k] = -times_ik(kx[m], psi);
      }
    });
    fft.inverse(c1.data(), uo->data());
    fft.inverse(c2.data(), vo->data());
    rows([&](int lo, int hi) {
      for (std::size_t i = static_cast<std::size_t>(lo) * nx; i < static_cast<std::size_t>(hi) * nx;
           ++i) {
        (*uo)[i] += stream.x();
        (*vo)[i] += stream.y();
      }
    });
  }

  /// The spectrum of the curl of (u, v) into `out`.
  void curl(const std::vector<double>& uu, const std::vector<double>& vv,
            std::vector<Complex>* out) {
    fft.forward(uu.data(), c1.data());
    fft.forward(vv.data(), c2.data());
    modes([&](std::size_t lo, std::size_t hi) {
      for (std::size_t k = lo; k < hi; ++k) {
        const int n = static_cast<int>(k / nxh), m = static_cast<int>(k % nxh);
        (*out)[k] = times_ik(kx[m], c2[k]) - times_ik(ky[n], c1[k]);
      }
    });
  }

  /// Shifts the periodic fields so that window cell i holds what cell i + sx held.
  void shift(int sx, int sy) {
    modes([&](std::size_t lo, std::size_t hi) {
      for (std::size_t k = lo; k < hi; ++k) {
        const int n = static_cast<int>(k / nxh), m = static_cast<int>(k % nxh);
        const double phase = 2.0 * kPi *
                             (static_cast<double>((static_cast<long long>(m) * sx) % nx) / nx +
                              static_cast<double>((static_cast<long long>(n) * sy) % ny) / ny);
        const Complex e(std::cos(phase), std::sin(phase));
        w[k] *= e;
        nPrev[k] *= e;
      }
    });
  }
};

Ns2Solver::Ns2Solver(const Ns2Def& def) : def_(def) {
  validateNs2Def(def_);
  impl_ = std::make_unique<Impl>(def_);
  Impl& m = *impl_;
  const double lx = m.nx * def_.dx, ly = m.ny * def_.dx;
  m.kx.resize(static_cast<std::size_t>(m.nxh));
  m.ky.resize(static_cast<std::size_t>(m.ny));
  for (int i = 0; i < m.nxh; ++i) m.kx[i] = i == m.nx / 2 ? 0.0 : 2.0 * kPi * i / lx;
  for (int n = 0; n < m.ny; ++n) {
    const int nn = n <= m.ny / 2 ? n : n - m.ny;
    m.ky[n] = n == m.ny / 2 ? 0.0 : 2.0 * kPi * nn / ly;
  }
  m.invK2.assign(m.nc, 0.0);
  m.keep.assign(m.nc, 0.0);
  m.cnA.assign(m.nc, 0.0);
  m.cnB.assign(m.nc, 0.0);
  for (int n = 0; n < m.ny; ++n) {
    const int nn = n <= m.ny / 2 ? n : n - m.ny;
    for (int i = 0; i < m.nxh; ++i) {
      const std::size_t k = m.mode(n, i);
      const double kxx = 2.0 * kPi * i / lx, kyy = 2.0 * kPi * nn / ly;
      const double k2 = kxx * kxx + kyy * kyy;
      m.invK2[k] = k2 > 0.0 ? 1.0 / k2 : 0.0;
      m.keep[k] = (3 * i < m.nx && 3 * std::abs(nn) < m.ny) ? 1.0 : 0.0;
      const double a = 0.5 * def_.viscosity * k2 * def_.dt;
      m.cnA[k] = (1.0 - a) / (1.0 + a);
      m.cnB[k] = def_.dt / (1.0 + a);
    }
  }
  for (auto* s : {&m.w, &m.nPrev, &m.nCur, &m.c1, &m.c2, &m.wStar}) s->assign(m.nc, Complex(0.0));
  for (auto* s : {&m.u, &m.v, &m.f, &m.g}) s->assign(m.np, 0.0);
  m.sponge.assign(m.np, 0.0);
  if (def_.spongeWidth > 0.0) {
    const double rate = def_.spongeTime > 0.0 ? def_.dt / def_.spongeTime : 0.0;
    for (int j = 0; j < m.ny; ++j) {
      for (int i = 0; i < m.nx; ++i) {
        const double ex = std::min(i + 0.5, m.nx - i - 0.5) * def_.dx;
        const double ey = std::min(j + 0.5, m.ny - j - 0.5) * def_.dx;
        const double d = std::min(ex, ey);
        if (d >= def_.spongeWidth) continue;
        const double s = 1.0 - d / def_.spongeWidth;
        const double strength = s * s;
        m.sponge[static_cast<std::size_t>(j) * m.nx + i] =
            rate > 0.0 ? rate * strength / (1.0 + rate * strength) : strength;
      }
    }
  }
  origin_ = def_.centre - 0.5 * Vec2(lx, ly);
  if (def_.hasBody) {
    body_.position = def_.body.position;
    body_.angle = def_.body.angle;
    body_.velocity = def_.body.velocity;
    body_.omega = def_.body.omega;
  }
  startFlow();
}

void Ns2Solver::startFlow() {
  // The fluid inside the body moves with it from the start (and the flow around it adapts,
  // through the curl, as after every step's forcing).
  if (!def_.hasBody) return;
  Impl& m = *impl_;
  m.velocity(m.w, def_.stream, &m.u, &m.v);
  imposeRigidMotion(def_, body_, t_, origin_, &m.u, &m.v);
  m.curl(m.u, m.v, &m.w);
  m.w[0] = Complex(0.0);
}

Ns2Solver::~Ns2Solver() = default;

void Ns2Solver::setVorticity(const std::vector<double>& omega) {
  Impl& m = *impl_;
  if (omega.size() != m.np) throw std::invalid_argument("setVorticity: wrong field size");
  m.fft.forward(omega.data(), m.w.data());
  m.w[0] = Complex(0.0);  // a periodic vorticity field has zero mean
  m.havePrev = false;
  startFlow();
}

std::vector<double> Ns2Solver::vorticity() const {
  std::vector<double> out(impl_->np);
  impl_->fft.inverse(impl_->w.data(), out.data());
  return out;
}

void Ns2Solver::velocity(std::vector<double>* u, std::vector<double>* v) const {
  u->assign(impl_->np, 0.0);
  v->assign(impl_->np, 0.0);
  impl_->velocity(impl_->w, def_.stream, u, v);
}

double Ns2Solver::kineticEnergy() const {
  std::vector<double> u, v;
  velocity(&u, &v);
  double e = 0.0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double du = u[i] - def_.stream.x(), dv = v[i] - def_.stream.y();
    e += du * du + dv * dv;
  }
  return 0.5 * def_.fluidDensity * e * def_.dx * def_.dx;
}

}  // namespace samara::fluid

namespace samara::fluid {

std::vector<double> Ns2Solver::mask() const {
  std::vector<double> out(impl_->np, 0.0);
  if (!def_.hasBody) return out;
  for (const MaskCell& c : maskCells(def_, body_.position, body_.angle, origin_, t_)) {
    out[c.index] = c.chi;
  }
  return out;
}

namespace {

/// The coupling of one step (Ns2Solver's header comment): the impulse of the flow on the
/// body from the fluid velocity (u, v) after the fluid step, the body's new state, and the
/// rigid motion imposed on (u, v) inside the body at its new pose.
Body2State couple(const Ns2Def& d, double t, const Vec2& origin, const Body2State& b0,
                  std::vector<double>* u, std::vector<double>* v, Vec2* dvPrev, double* dwPrev) {
  const Body2Def& bd = d.body;
  const double rho = d.fluidDensity, dA = d.dx * d.dx;
  double area = 0.0, polar = 0.0, ang = 0.0;
  Vec2 first = Vec2::Zero(), mom = Vec2::Zero();
  // The fluid the body holds at the step's end: the mask at the pose predicted with the
  // step-start velocity (the cells it moves into count with the velocity they have).
  const Vec2 ahead = b0.position + (bd.fixed ? Vec2::Zero() : Vec2(d.dt * b0.velocity));
  const double turned = b0.angle + (bd.fixed ? 0.0 : d.dt * b0.omega);
  for (const MaskCell& c : maskCells(d, ahead, turned, origin, t + d.dt)) {
    const double uu = (*u)[c.index], vv = (*v)[c.index];
    area += c.chi;
    first += c.chi * c.r;
    polar += c.chi * c.r.squaredNorm();
    mom += c.chi * Vec2(uu, vv);
    ang += c.chi * (c.r.x() * vv - c.r.y() * uu);
  }
  area *= dA;
  first *= dA;
  polar *= dA;
  mom *= rho * dA;
  ang *= rho * dA;
  const Vec2& V = b0.velocity;
  const double W = b0.omega;
  const Vec2 impulse = mom - rho * (area * V + W * Vec2(-first.y(), first.x()));
  const double angImpulse = ang - rho * (first.x() * V.y() - first.y() * V.x() + W * polar);
  Body2State b1 = b0;
  b1.force = impulse / d.dt;
  b1.torque = angImpulse / d.dt;
  if (bd.fixed) {
    b1.velocity = Vec2::Zero();
    b1.omega = t + d.dt <= bd.kickUntil ? bd.omega : 0.0;
    b1.angle = b0.angle + d.dt * b1.omega;
  } else {
    const double mass = bd.density * bodyArea(bd), inertia = bodyInertia(bd);
    const Eigen::Vector3d ma = ellipseAddedMass(bd, rho);
    const double cs = std::cos(b0.angle), sn = std::sin(b0.angle);
    Eigen::Matrix2d R;
    R << cs, -sn, sn, cs;
    const Eigen::Matrix2d Mt = R * Eigen::Vector2d(ma[0], ma[1]).asDiagonal() * R.transpose();
    const Eigen::Matrix2d lhs = mass * Eigen::Matrix2d::Identity() + Mt;
    const Vec2 rhs = impulse + d.dt * (mass - rho * bodyArea(bd)) * d.gravity + Mt * (*dvPrev);
    const Vec2 dv = lhs.inverse() * rhs;
    const double dw = (angImpulse + ma[2] * (*dwPrev)) / (inertia + ma[2]);
    b1.velocity = V + dv;
    b1.omega = W + dw;
    b1.position = b0.position + 0.5 * d.dt * (V + b1.velocity);
    b1.angle = b0.angle + 0.5 * d.dt * (W + b1.omega);
    *dvPrev = dv;
    *dwPrev = dw;
  }
  imposeRigidMotion(d, b1, t + d.dt, origin, u, v);
  return b1;
}

bool finiteState(const Body2State& b) {
  return b.position.allFinite() && b.velocity.allFinite() && std::isfinite(b.angle) &&
         std::isfinite(b.omega) && b.force.allFinite() && std::isfinite(b.torque);
}

}  // namespace

Ns2Report Ns2Solver::step() {
  Impl& m = *impl_;
  Ns2Report rep;
  const double dt = def_.dt;
  m.velocity(m.w, def_.stream, &m.u, &m.v);
  m.fft.inverse(m.w.data(), m.f.data());
  double speed = 0.0;
  for (std::size_t i = 0; i < m.np; ++i) {
    const double s = std::abs(m.u[i]) + std::abs(m.v[i]);
    if (!(s <= speed)) speed = s;  // NaN propagates
  }
  rep.cfl = speed * dt / def_.dx;
  if (!std::isfinite(rep.cfl)) {
    rep.status = Ns2Status::kNotFinite;
    rep.message = "the flow is not finite at t = " + std::to_string(t_) + " s";
    return rep;
  }
  if (rep.cfl > def_.maxCfl) {
    rep.status = Ns2Status::kCflExceeded;
    rep.message = "the flow moves " + std::to_string(rep.cfl) +
                  " cells per step at t = " + std::to_string(t_) + " s (limit " +
                  std::to_string(def_.maxCfl) + "): make dt smaller";
    return rep;
  }
  // Advection −∇·(u ω), pseudo-spectral with the 2/3 rule.
  m.rows([&](int lo, int hi) {
    for (std::size_t i = static_cast<std::size_t>(lo) * m.nx;
         i < static_cast<std::size_t>(hi) * m.nx; ++i) {
      m.g[i] = m.v[i] * m.f[i];
      m.f[i] = m.u[i] * m.f[i];
    }
  });
  m.fft.forward(m.f.data(), m.c1.data());
  m.fft.forward(m.g.data(), m.c2.data());
  const double ab0 = m.havePrev ? 1.5 : 1.0, ab1 = m.havePrev ? -0.5 : 0.0;
  m.modes([&](std::size_t lo, std::size_t hi) {
    for (std::size_t k = lo; k < hi; ++k) {
      const int n = static_cast<int>(k / m.nxh), i = static_cast<int>(k % m.nxh);
      m.nCur[k] = -(times_ik(m.kx[i], m.c1[k]) + times_ik(m.ky[n], m.c2[k])) * m.keep[k];
      m.wStar[k] = m.cnA[k] * m.w[k] + m.cnB[k] * (ab0 * m.nCur[k] + ab1 * m.nPrev[k]);
    }
  });
  Body2State next = body_;
  Vec2 dvPrev = m.dvPrev;
  double dwPrev = m.dwPrev;
  if (def_.hasBody || def_.spongeWidth > 0.0) {
    m.velocity(m.wStar, def_.stream, &m.u, &m.v);
    if (def_.hasBody) next = couple(def_, t_, origin_, body_, &m.u, &m.v, &dvPrev, &dwPrev);
    m.curl(m.u, m.v, &m.wStar);
    if (def_.spongeWidth > 0.0) {
      // The sponge damps vorticity, not velocity: the body's irrotational far field passes
      // through it, the wake does not come round again.
      m.fft.inverse(m.wStar.data(), m.f.data());
      m.rows([&](int lo, int hi) {
        for (std::size_t i = static_cast<std::size_t>(lo) * m.nx;
             i < static_cast<std::size_t>(hi) * m.nx; ++i) {
          m.f[i] -= m.sponge[i] * m.f[i];
        }
      });
      m.fft.forward(m.f.data(), m.wStar.data());
      m.wStar[0] = Complex(0.0);
    }
  }
  if (def_.hasBody && !finiteState(next)) {
    rep.status = Ns2Status::kNotFinite;
    rep.message = "the body's state is not finite at t = " + std::to_string(t_) + " s";
    return rep;
  }
  std::swap(m.w, m.wStar);
  std::swap(m.nPrev, m.nCur);
  m.havePrev = true;
  body_ = next;
  m.dvPrev = dvPrev;
  m.dwPrev = dwPrev;
  ++steps_;
  t_ = def_.dt * static_cast<double>(steps_);
  if (def_.hasBody && def_.follow && !def_.body.fixed) {
    const Vec2 centre = origin_ + 0.5 * def_.dx * Vec2(m.nx, m.ny);
    const Vec2 off = (body_.position - centre) / def_.dx;
    const int sx = std::abs(off.x()) >= 1.0 ? static_cast<int>(std::lround(off.x())) : 0;
    const int sy = std::abs(off.y()) >= 1.0 ? static_cast<int>(std::lround(off.y())) : 0;
    if (sx || sy) {
      m.shift(sx, sy);
      origin_ += def_.dx * Vec2(sx, sy);
    }
  }
  return rep;
}

}  // namespace samara::fluid
