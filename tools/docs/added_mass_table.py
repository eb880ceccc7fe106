#!/usr/bin/env python3
"""The README's table "local against exact added mass" for the shipped shapes (issue 18).

Usage: tools/docs/added_mass_table.py SAMARA_EXE

Builds one scene with every shape as a rigid body (in water, mass irrelevant), runs
`samara inspect SCENE --added-mass exact --json` and prints a Markdown table: faces, δ,
the translational added mass along the body axes, local and exact, and the ratios
local/exact. Exact tensors are cached (the samara cache directory), so a second run is
quick. Plain python3, no third-party modules.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MESHES = os.path.join(ROOT, "assets", "meshes")

SHAPES = [
    ("coin (disk r 12.5 mm, 2 mm)", {"primitive": "disk", "radius": 0.0125, "thickness": 0.002, "segments": 64}),
    ("propeller", "propeller.obj"),
    ("blob", "blob.obj"),
    ("beech leaf", "leaf_beech.obj"),
    ("maple leaf", "leaf_maple.obj"),
    ("willow leaf", "leaf_willow.obj"),
    ("maple seed", "maple_seed.obj"),
    ("paper copter", "paper_copter.obj"),
    ("parachute", "parachute.obj"),
    ("turtle (rest pose)", "turtle.obj"),
    ("eel (rest pose)", "eel.obj"),
    ("sphere (icosphere, 1 280 faces)", {"primitive": "sphere", "radius": 0.05, "subdivisions": 3}),
]


def main():
    exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "release", "samara")
    bodies = []
    for i, (name, mesh) in enumerate(SHAPES):
        if isinstance(mesh, str):
            mesh = os.path.join(MESHES, mesh)
        bodies.append({"name": "b%d" % i, "mesh": mesh, "mass": {"density": 500.0, "thickness": 0.0005},
                       "position": [2.0 * i, 0, 0]})
    scene = {"gravity": [0, -9.81, 0], "fluid": {"density": 1000.0}, "bodies": bodies}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "shapes.json")
        with open(path, "w") as f:
            json.dump(scene, f)
        run = subprocess.run([exe, "inspect", path, "--added-mass", "exact", "--json"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(run.stderr)
        out = run.stdout
    doc = json.loads(out)
    print("| shape | faces | δ (mm) | local x, y, z (g) | exact x, y, z (g) | local / exact x, y, z |")
    print("|---|---|---|---|---|---|")
    for (name, _), b in zip(SHAPES, doc["bodies"]):
        loc = [b["added_mass_local"][k][k] * 1000 for k in (3, 4, 5)]
        ex = [b["added_mass_exact"][k][k] * 1000 for k in (3, 4, 5)]
        ratio = b["ratio"][3:6]
        fmt = lambda v: ", ".join("%.3g" % x for x in v)
        print("| %s | %d | %.2f | %s | %s | %s |" % (
            name, b["faces"], b["delta"] * 1000, fmt(loc), fmt(ex),
            ", ".join("—" if r is None else "%.2f" % r for r in ratio)))


if __name__ == "__main__":
    main()
