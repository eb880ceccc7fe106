#!/usr/bin/env python3
"""Andersen, Pesavento & Wang's quasi-steady falling-plate ODE (JFM 541, 2005), integrated
with RK4, for the README's comparison with samara's flow-law coefficients (issue 13).

Usage: tools/docs/apw_ode.py [KEY=VALUE,...]   e.g.  tools/docs/apw_ode.py 'CR=math.pi/2'
       tools/docs/apw_ode.py --spun 2,5,10,40   (a card spun at release: does it keep turning?)
       tools/docs/apw_ode.py 'Ca=1.0, istars=[1, 5, 10, 40], T=300'   (with an exploratory
       autorotation torque, see autorotation())

Dimensionless form, lengths in the half-chord a, velocities in √((ρ_s/ρ_f − 1) g b), a
plate of thickness ratio β = b/a, I* = ρ_s b/(ρ_f a) (= ρ_p t/(ρ_f c) with t = 2b, c = 2a):
  (I* + β²) u̇ = (I* + 1) ω v − Γ v − sin θ − F u
  (I* + 1) v̇ = −(I* + β²) ω u + Γ u − cos θ − F v
  ¼ [I* (1 + β²) + ½ (1 − β²)²] ω̇ = (β² − 1) u v − τ
  Γ = (2/π) (−C_T u v/|V| + C_R ω),  F = (1/π) (A − B (u² − v²)/|V|²) |V|,
  τ = (μ₁ + μ₂ |ω|) ω,  C_T = 1.2, C_R = π, A = 1.4, B = 1.0, μ₁ = μ₂ = 0.2.
Γ = (2/π) C_R ω is, in dimensional terms, 2 C_R a² θ̇ = ½ C_R c² θ̇: twice thin-aerofoil
theory's π a² θ̇ for a plate pitching about its mid-chord at C_R = π. Prints, per I*, the
regime over the second half of T (tumbling: more than 1.5 net turns), the rotation rate
(turns per unit time), the swing, the glide path below the horizontal and the mean speed.
Plain python3.
"""
import math
import sys


def autorotation(w, V, Ca, lam):
    """An exploratory autorotation torque (not APW's; README "Why a quasi-steady law cannot
    keep a heavy card turning"): Ca V^2 lambda (1 - lambda/lam) along the rotation, lambda =
    |w|/V the tip-speed ratio (half-chord units), driving below Smith's lam = 0.35 and braking
    above it. Ca = 0 (the default) is APW's model."""
    if Ca == 0.0:
        return 0.0
    l = abs(w) / V
    return Ca * math.copysign(1.0, w) * V * V * l * (1 - l / lam)


def run(istar, beta=0.125, CT=1.2, CR=math.pi, A=1.4, B=1.0, mu1=0.2, mu2=0.2, T=200.0,
        dt=0.002, th0=0.2, Ca=0.0, lam=0.35):
    m11 = beta * beta
    itot = 0.25 * (istar * (1 + beta * beta) + 0.5 * (1 - beta * beta) ** 2)

    def f(s):
        u, v, w, th = s[0], s[1], s[2], s[3]
        V = math.hypot(u, v) + 1e-12
        G = (2 / math.pi) * (-CT * u * v / V + CR * w)
        F = (1 / math.pi) * (A - B * (u * u - v * v) / (V * V)) * V
        tau = (mu1 + mu2 * abs(w)) * w - autorotation(w, V, Ca, lam)
        du = ((istar + 1) * w * v - G * v - math.sin(th) - F * u) / (istar + m11)
        dv = (-(istar + m11) * w * u + G * u - math.cos(th) - F * v) / (istar + 1)
        dw = ((m11 - 1) * u * v - tau) / itot
        c, s_ = math.cos(th), math.sin(th)
        return [du, dv, dw, w, u * c - v * s_, u * s_ + v * c]

    s = [1e-3, 1e-3, 0.0, th0, 0.0, 0.0]
    hist = []
    n = int(T / dt)
    for k in range(n):
        k1 = f(s)
        k2 = f([a + 0.5 * dt * b for a, b in zip(s, k1)])
        k3 = f([a + 0.5 * dt * b for a, b in zip(s, k2)])
        k4 = f([a + dt * b for a, b in zip(s, k3)])
        s = [a + dt / 6 * (b1 + 2 * b2 + 2 * b3 + b4) for a, b1, b2, b3, b4 in zip(s, k1, k2, k3, k4)]
        if k % 10 == 0:
            hist.append((k * dt, s[3], s[4], s[5]))
    h = hist[len(hist) // 2:]
    t0, a0, x0, y0 = h[0]
    t1, a1, x1, y1 = h[-1]
    turns = (a1 - a0) / (2 * math.pi)
    swing = (max(p[1] for p in h) - min(p[1] for p in h)) / 2
    path = math.degrees(math.atan2(abs(y1 - y0), abs(x1 - x0)))
    regime = "tumbling" if abs(turns) > 1.5 else ("fluttering" if swing < math.pi else "chaotic")
    return regime, turns / (t1 - t0), math.degrees(swing), path, math.hypot(x1 - x0, y1 - y0) / (t1 - t0)


def spun(istar, w0=1.0, beta=0.125, CT=1.2, CR=math.pi, A=1.4, B=1.0, mu1=0.2, mu2=0.2,
         T=400.0, dt=0.004, window=50):
    """A card released broadside at terminal speed (v = -1) with rotation w0: per window of
    `window` time units, its mean |omega| and its net turns (README "Why a quasi-steady law
    cannot keep a heavy card turning")."""
    m11 = beta * beta
    itot = 0.25 * (istar * (1 + beta * beta) + 0.5 * (1 - beta * beta) ** 2)

    def f(s):
        u, v, w = s[0], s[1], s[2]
        V = math.hypot(u, v) + 1e-12
        G = (2 / math.pi) * (-CT * u * v / V + CR * w)
        F = (1 / math.pi) * (A - B * (u * u - v * v) / (V * V)) * V
        tau = (mu1 + mu2 * abs(w)) * w
        th = s[3]
        du = ((istar + 1) * w * v - G * v - math.sin(th) - F * u) / (istar + m11)
        dv = (-(istar + m11) * w * u + G * u - math.cos(th) - F * v) / (istar + 1)
        return [du, dv, ((m11 - 1) * u * v - tau) / itot, w]

    s = [0.0, -1.0, w0, 0.0]
    per = int(round(1 / dt))
    samples = []
    for k in range(int(T / dt)):
        k1 = f(s)
        k2 = f([a + 0.5 * dt * b for a, b in zip(s, k1)])
        k3 = f([a + 0.5 * dt * b for a, b in zip(s, k2)])
        k4 = f([a + dt * b for a, b in zip(s, k3)])
        s = [a + dt / 6 * (b1 + 2 * b2 + 2 * b3 + b4) for a, b1, b2, b3, b4 in zip(s, k1, k2, k3, k4)]
        if k % per == 0:
            samples.append((k * dt, abs(s[2]), s[3]))
    rows = []
    for t0 in range(0, int(T), window):
        w = [p for p in samples if t0 <= p[0] < t0 + window]
        rows.append((sum(p[1] for p in w) / len(w), (w[-1][2] - w[0][2]) / (2 * math.pi)))
    return rows


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--spun":  # e.g. --spun 2,5,10,40
        for istar in [float(x) for x in sys.argv[2].split(",")]:
            rows = spun(istar)
            print("I* %5.1f mean |w| / net turns per 50 units: " % istar
                  + " ".join("%.2f/%.1f" % r for r in rows), flush=True)
        sys.exit(0)
    kw = eval("dict(" + (sys.argv[1] if len(sys.argv) > 1 else "") + ")")  # noqa: S307
    for istar in kw.pop("istars", [0.5, 1.0, 1.1, 1.2, 1.25, 1.4, 2.0, 3.0]):
        regime, rate, swing, path, speed = run(istar, **kw)
        print("I* %.2f %-10s rate %.3f turns/unit, swing %.0f deg, path %.0f deg, speed %.2f"
              % (istar, regime, rate, swing, path, speed), flush=True)
