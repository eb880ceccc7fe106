#!/usr/bin/env python3
"""Writes skin.gltf and skin.glb, the hand-checkable glTF of tests/io/test_animation_io.cpp.

A tetrahedron skinned to two joints: nodes[1] "root" (joint 0, at the origin) and its child
nodes[0] "tip" (joint 1, at x = 1; listed before its parent on purpose). Vertices:
  0 (0,0,0) root;  1 (2,0,0) tip;  2 (2,0,1) half root, half tip;  3 (0,1,0) root.
Animations:
  "bend"  LINEAR rotation of tip: identity at t = 0 → 90° about +z at t = 1.
  "step"  STEP translation of root: z = 0, 5, 7 at t = 0, 1, 2.
  "grow"  CUBICSPLINE scale of root, keys at t = 0 and 2: (in, value, out) =
          (0, 1, 1) and (2, 3, 0) (uniform), so at t = 1 the scale is 1.75.
  "nan_key"   as "bend" with a NaN in key 1.
  "bad_times" as "step" with times 0, 1, 1.
Meshes: "tet" (float weights), "tet_u8" (normalized UNSIGNED_BYTE weights 128/255 and
127/255 on vertex 2), "bad_weights" (vertex 2 weights 0.5 + 0.2), "bad_joint" (vertex 1 on
joint 5), "plain" (no skin; nodes[3] places it with a matrix: scale 2, then x + 10).
Run from this directory: python3 make_skin.py
"""
import base64
import json
import math
import struct

buf = bytearray()
views = []
accessors = []


def add(data, comp, typ, count, normalized=False):
    while len(buf) % 4:
        buf.append(0)
    views.append({"buffer": 0, "byteOffset": len(buf), "byteLength": len(data)})
    buf.extend(data)
    acc = {"bufferView": len(views) - 1, "componentType": comp, "count": count, "type": typ}
    if normalized:
        acc["normalized"] = True
    accessors.append(acc)
    return len(accessors) - 1


FLOAT, UBYTE, USHORT = 5126, 5121, 5123


def floats(xs):
    return struct.pack("<%df" % len(xs), *xs)


pos = add(floats([0, 0, 0, 2, 0, 0, 2, 0, 1, 0, 1, 0]), FLOAT, "VEC3", 4)
joints = add(bytes([0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]), UBYTE, "VEC4", 4)
weights = add(floats([1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0]), FLOAT, "VEC4", 4)
weights_u8 = add(bytes([255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0, 255, 0, 0, 0]), UBYTE, "VEC4",
                 4, normalized=True)
bad_weights = add(floats([1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.2, 0, 0, 1, 0, 0, 0]), FLOAT, "VEC4", 4)
bad_joints = add(bytes([0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]), UBYTE, "VEC4", 4)
indices = add(struct.pack("<12H", 0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2), USHORT, "SCALAR", 12)
ibm = add(floats([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] +
                 [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1]), FLOAT, "MAT4", 2)
t01 = add(floats([0, 1]), FLOAT, "SCALAR", 2)
t012 = add(floats([0, 1, 2]), FLOAT, "SCALAR", 3)
t02 = add(floats([0, 2]), FLOAT, "SCALAR", 2)
t011 = add(floats([0, 1, 1]), FLOAT, "SCALAR", 3)
s = math.sqrt(0.5)
rot = add(floats([0, 0, 0, 1, 0, 0, s, s]), FLOAT, "VEC4", 2)
rot_nan = add(floats([0, 0, 0, 1, 0, float("nan"), s, s]), FLOAT, "VEC4", 2)
step = add(floats([0, 0, 0, 0, 0, 5, 0, 0, 7]), FLOAT, "VEC3", 3)
grow = add(floats([0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 0]), FLOAT, "VEC3", 6)


def prim(w, j=joints):
    return {"attributes": {"POSITION": pos, "JOINTS_0": j, "WEIGHTS_0": w}, "indices": indices}


def anim(name, node, path, interp, inp, out):
    return {"name": name, "samplers": [{"input": inp, "output": out, "interpolation": interp}],
            "channels": [{"sampler": 0, "target": {"node": node, "path": path}}]}


gltf = {
    "asset": {"version": "2.0", "generator": "samara tests/data/anim/make_skin.py"},
    "scene": 0,
    "scenes": [{"nodes": [1, 2, 3]}],
    "nodes": [
        {"name": "tip", "translation": [1, 0, 0]},
        {"name": "root", "children": [0]},
        {"name": "skinned", "mesh": 0, "skin": 0},
        {"name": "static", "mesh": 4,
         "matrix": [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 10, 0, 0, 1]},
    ],
    "meshes": [
        {"name": "tet", "primitives": [prim(weights)]},
        {"name": "tet_u8", "primitives": [prim(weights_u8)]},
        {"name": "bad_weights", "primitives": [prim(bad_weights)]},
        {"name": "bad_joint", "primitives": [prim(weights, bad_joints)]},
        {"name": "plain", "primitives": [{"attributes": {"POSITION": pos}, "indices": indices}]},
    ],
    "skins": [{"joints": [1, 0], "inverseBindMatrices": ibm}],
    "animations": [
        anim("bend", 0, "rotation", "LINEAR", t01, rot),
        anim("step", 1, "translation", "STEP", t012, step),
        anim("grow", 1, "scale", "CUBICSPLINE", t02, grow),
        anim("nan_key", 0, "rotation", "LINEAR", t01, rot_nan),
        anim("bad_times", 1, "translation", "STEP", t011, step),
    ],
    "accessors": accessors,
    "bufferViews": views,
}

while len(buf) % 4:
    buf.append(0)
text = dict(gltf)
text["buffers"] = [{"byteLength": len(buf), "uri": "data:application/octet-stream;base64," +
                    base64.b64encode(bytes(buf)).decode()}]
with open("skin.gltf", "w") as f:
    json.dump(text, f, separators=(",", ":"))
    f.write("\n")

binary = dict(gltf)
binary["buffers"] = [{"byteLength": len(buf)}]
js = json.dumps(binary, separators=(",", ":")).encode()
js += b" " * (-len(js) % 4)
glb = struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(js) + 8 + len(buf))
glb += struct.pack("<I4s", len(js), b"JSON") + js + struct.pack("<I4s", len(buf), b"BIN\0") + buf
with open("skin.glb", "wb") as f:
    f.write(glb)
