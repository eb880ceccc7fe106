#!/usr/bin/env python3
"""The README's scaling figure from a Google Benchmark JSON of bench/bench_step.cpp.

    build/release/bench/samara_bench --benchmark_filter='BM_RigidStep|BM_ShapeChangingStep|BM_CrowdStep' \
        --benchmark_format=json > bench.json
    python3 tools/perf/plot_scaling.py bench.json docs/images/scaling.png

Left: ns per face per step against the face count (rigid and shape-changing box). Right:
wall time per step against the number of 288-face plates on 1 and 2 threads. Needs
matplotlib (Debian: python3-matplotlib); only for this figure, not for building samara.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, out):
    with open(src) as f:
        data = json.load(f)
    rigid, shape, crowd = [], [], {}
    for b in data["benchmarks"]:
        name = b["name"]
        if b.get("run_type") == "aggregate":
            continue
        if name.startswith("BM_RigidStep/"):
            rigid.append((b["faces"], b["ns_per_face_step"]))
        elif name.startswith("BM_ShapeChangingStep/"):
            shape.append((b["faces"], b["ns_per_face_step"]))
        elif name.startswith("BM_CrowdStep/"):
            bodies, threads = int(b["bodies"]), int(b["threads"])
            ms = b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0}[b["time_unit"]]
            crowd.setdefault(threads, []).append((bodies, ms))
    fig, (a, c) = plt.subplots(1, 2, figsize=(10, 4), dpi=100)
    for pts, label, style in ((rigid, "rigid body", "o-"), (shape, "shape-changing body", "s-")):
        pts.sort()
        a.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label)
    a.set_xscale("log")
    a.set_ylim(bottom=0)
    a.set_xlabel("faces")
    a.set_ylabel("ns per face per step")
    a.set_title("one step of a tumbling box, one core")
    a.grid(True, which="both", alpha=0.3)
    a.legend()
    for threads in sorted(crowd):
        pts = sorted(crowd[threads])
        c.plot([p[0] for p in pts], [p[1] for p in pts], "o-",
               label=f"{threads} thread{'s' if threads > 1 else ''}")
    c.set_xscale("log")
    c.set_yscale("log")
    c.set_xlabel("bodies (288-face plates)")
    c.set_ylabel("wall time per step, ms")
    c.set_title("a crowd of plates, h = 2 ms")
    c.axhline(2.0, color="grey", linestyle="--", linewidth=1)
    c.text(c.get_xlim()[0] * 1.1, 2.1, "real time at h = 2 ms", color="grey", fontsize=8)
    c.grid(True, which="both", alpha=0.3)
    c.legend()
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_scaling.py BENCH.json OUT.png")
    main(sys.argv[1], sys.argv[2])
