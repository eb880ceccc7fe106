#!/usr/bin/env python3
"""Writes tet.gltf + tet.bin (an external buffer) and tet.glb: a unit tetrahedron (vertices
0, x, y, z; outward triangles) for the glTF bad-input cases (tests/bad_input/gltf.jsonc).
Run from this directory: python3 make_tet.py
"""
import json
import struct

pos = struct.pack("<12f", 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)
idx = struct.pack("<12H", 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3)
data = pos + idx
gltf = {
    "asset": {"version": "2.0", "generator": "samara tests/data/gltf/make_tet.py"},
    "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "tet", "mesh": 0}],
    "meshes": [{"name": "tet", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    "buffers": [{"uri": "tet.bin", "byteLength": len(data)}],
    "bufferViews": [{"buffer": 0, "byteLength": len(pos)},
                    {"buffer": 0, "byteOffset": len(pos), "byteLength": len(idx)}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                   "min": [0, 0, 0], "max": [1, 1, 1]},
                  {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}],
}
with open("tet.gltf", "w") as f:
    json.dump(gltf, f, indent=1)
    f.write("\n")
with open("tet.bin", "wb") as f:
    f.write(data)
del gltf["buffers"][0]["uri"]
text = json.dumps(gltf, separators=(",", ":")).encode()
text += b" " * (-len(text) % 4)
with open("tet.glb", "wb") as f:
    f.write(b"glTF" + struct.pack("<II", 2, 12 + 8 + len(text) + 8 + len(data)))
    f.write(struct.pack("<I", len(text)) + b"JSON" + text)
    f.write(struct.pack("<I", len(data)) + b"BIN\0" + data)
