"""Blender round trip of `samara export`: glb, OBJ sequence and PC2 back into Blender.

Run inside Blender (3.4 or later), with a numpy for its Python (Debian: python3-numpy):

  blender -b --factory-startup -noaudio -t 1 --python-exit-code 1 \
      -P tests/blender/roundtrip.py -- --samara build/release/samara \
      --scene assets/scenes/maple_seed.json --work build/release/blender/maple_seed

The script first runs samara itself (`export` to glb, csv, obj, pc2 and `run` for the
ground truth at every step), then imports the files into an empty Blender scene and
compares what Blender shows with the simulation. Every check prints one line with its
measured number and limit; a failed check makes Blender exit with status 1. Checks named
in --report-only print their numbers but never fail (for features the export does not
have yet). Coordinates: samara and glTF are Y-up, Blender Z-up; glTF (x, y, z) is Blender
(x, -z, y), the matrix C below.
"""

import argparse
import json
import math
import os
import re
import struct
import subprocess
import sys
import time

import bpy
import numpy as np

C = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # glTF/samara -> Blender


# --- checks ------------------------------------------------------------------------------


class Checks:
    """Collects pass/fail lines; names in `report_only` never fail."""

    def __init__(self, report_only):
        self.report_only = report_only
        self.failed = []

    def check(self, name, value, limit=None, op="<=", unit="", note=""):
        """One check: value op limit (no limit: report only). Prints one line."""
        if limit is None:
            ok = True
        elif op == "<=":
            ok = value <= limit
        elif op == ">=":
            ok = value >= limit
        elif op == ">":
            ok = value > limit
        else:  # "=="
            ok = value == limit
        group = name.split("/")[0]
        if limit is None:
            status = "INFO"
        elif ok:
            status = "PASS"
        elif group in self.report_only or name in self.report_only:
            status = "FAIL (report only)"
        else:
            status = "FAIL"
            self.failed.append(name)
        shown = f"{value:.6g}" if isinstance(value, float) else str(value)
        bound = "" if limit is None else f" (limit {op} {limit}{unit})"
        print(f"CHECK {status:<18} {name}: {shown}{unit}{bound}{'  ' + note if note else ''}",
              flush=True)
        return ok


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog="roundtrip.py", description=__doc__.split("\n")[0])
    p.add_argument("--samara", required=True, help="the samara executable")
    p.add_argument("--scene", required=True, help="the scene JSON")
    p.add_argument("--work", required=True, help="a directory for the exported files")
    p.add_argument("--duration", type=float, help="simulated seconds (default: the scene's)")
    p.add_argument("--fps", type=float,
                   help="passed to `samara export --fps`; also the fps when the glb has none")
    p.add_argument("--default-fps", type=float, default=30.0,
                   help="the export's default fps, used when neither the glb nor --fps says")
    p.add_argument("--formats", default="glb,obj,pc2", help="which exports to check")
    p.add_argument("--between", type=int, default=4, help="samples between two frames")
    p.add_argument("--tol-frame-m", type=float, default=1e-5, help="COM error at frames, m")
    p.add_argument("--tol-frame-deg", type=float, default=0.01, help="rotation at frames, deg")
    p.add_argument("--tol-between-deg", type=float, default=2.0,
                   help="rotation error between frames, deg")
    p.add_argument("--tol-between-m", type=float, default=None,
                   help="COM error between frames, m (default: report only)")
    p.add_argument("--tol-vertex-m", type=float, default=1e-5,
                   help="vertex error of OBJ / PC2 / glb meshes at a frame, m")
    p.add_argument("--fine-fps", type=float,
                   help="also export OBJ at this rate (a multiple of the fps) and check the "
                   "glb's vertices between frames against it (shape-changing bodies)")
    p.add_argument("--tol-between-vertex-m", type=float, default=1e-3,
                   help="vertex error between frames against --fine-fps, m")
    p.add_argument("--bones", type=int, help="the glb must hold an armature with N bones")
    p.add_argument("--max-glb-mb", type=float, help="the glb must be at most this large, MB")
    p.add_argument("--size-duration", type=float,
                   help="measure the glb size on an extra export of this many seconds at the "
                   "export's default fps (the size depends on frames and meshes only)")
    p.add_argument("--size-dt", type=float, help="the step of that extra export, s")
    p.add_argument("--report-only", default="",
                   help="comma-separated checks (or groups: the part before '/') that print "
                   "their numbers but do not fail")
    p.add_argument("--render-size", default="320x200", help="render WxH (empty: no render)")
    return p.parse_args(argv)


# --- samara ------------------------------------------------------------------------------


def samara(args, *cmd, duration=None):
    """Runs samara and returns its stdout (fails the test on a non-zero exit)."""
    full = [args.samara, *cmd, args.scene]
    duration = duration if duration is not None else args.duration
    if duration is not None:
        full += ["--duration", repr(duration)]
    t0 = time.time()
    r = subprocess.run(full, capture_output=True, text=True)
    print(f"$ {' '.join(full)}  ({time.time() - t0:.1f} s)", flush=True)
    if r.returncode != 0:
        raise RuntimeError(f"samara failed ({r.returncode}): {r.stderr.strip()}")
    if r.stdout.strip() and cmd[0] == "export":
        print("  " + r.stdout.strip(), flush=True)
    return r.stdout


def export(args, fmt, out, fps=None):
    cmd = ["export", "--format", fmt, "--out", out]
    fps = fps if fps is not None else args.fps
    if fps is not None:
        cmd += ["--fps", repr(fps)]
    return samara(args, *cmd)


def read_csv(path):
    """Rows of a samara CSV as dicts of strings."""
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = []
        for line in f:
            # Body names with commas are quoted; ours are not (checked by the names check).
            rows.append(dict(zip(header, line.strip().split(","))))
    return rows


def quat_matrix(w, x, y, z):
    """Rotation matrix of the unit quaternion (w, x, y, z), float64."""
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def rotation_angle_deg(A, B):
    """Angle of the rotation A^T B, degrees (accurate for small angles)."""
    M = A.T @ B
    s = np.linalg.norm([M[2, 1] - M[1, 2], M[0, 2] - M[2, 0], M[1, 0] - M[0, 1]]) / 2
    c = (np.trace(M) - 1) / 2
    return math.degrees(math.atan2(s, c))


class Truth:
    """Ground truth: every step of `samara run` (COM, body -> world) per body."""

    def __init__(self, path):
        rows = read_csv(path)
        self.bodies = []
        self.steps = {}
        for r in rows:
            b = r["body"]
            if b not in self.steps:
                self.bodies.append(b)
                self.steps[b] = []
            self.steps[b].append(r)
        first = self.steps[self.bodies[0]]
        self.dt = float(first[1]["t"]) - float(first[0]["t"])

    def step_of(self, t):
        return int(round(t / self.dt))

    def pose(self, body, step):
        """(R body -> world, COM), samara frame."""
        r = self.steps[body][step]
        R = quat_matrix(*(float(r[k]) for k in ("qw", "qx", "qy", "qz")))
        return R, np.array([float(r[k]) for k in ("x", "y", "z")])


# --- glb ---------------------------------------------------------------------------------


def glb_json(path):
    """The JSON chunk of a glb."""
    with open(path, "rb") as f:
        data = f.read()
    magic, _version, _length = struct.unpack_from("<4sII", data, 0)
    chunk_len, chunk_type = struct.unpack_from("<I4s", data, 12)
    if magic != b"glTF" or chunk_type != b"JSON":
        raise RuntimeError(f"{path}: not a glb")
    return json.loads(data[20:20 + chunk_len])


def world_vertices(obj):
    """Evaluated (modifiers, shape keys, armature) world-space vertices, Blender frame."""
    dg = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(dg)
    mesh = ev.to_mesh()
    co = np.empty(len(mesh.vertices) * 3)
    mesh.vertices.foreach_get("co", co)
    ev.to_mesh_clear()
    M = np.array(obj.matrix_world)
    return co.reshape(-1, 3) @ M[:3, :3].T + M[:3, 3]


def body_vertices(name):
    """World vertices of a body's object and its mesh descendants, stacked."""
    obj = bpy.data.objects[name]
    parts = [o for o in [obj, *obj.children_recursive] if o.type == "MESH"]
    return np.vstack([world_vertices(o) for o in parts])


def nearest(a, b):
    """For each row of a, the index of and distance to its nearest row of b."""
    from mathutils.kdtree import KDTree
    tree = KDTree(len(b))
    for i, p in enumerate(b):
        tree.insert(p, i)
    tree.balance()
    idx = np.empty(len(a), dtype=int)
    dist = np.empty(len(a))
    for i, p in enumerate(a):
        _co, j, d = tree.find(p)
        idx[i], dist[i] = j, d
    return idx, dist


def hausdorff(a, b):
    return max(nearest(a, b)[1].max(), nearest(b, a)[1].max())


def obj_files(directory):
    """{frame number: path} of an OBJ sequence directory."""
    files = {}
    for name in os.listdir(directory):
        m = re.match(r".*_(\d+)\.obj$", name)
        if m:
            files[int(m.group(1))] = os.path.join(directory, name)
    return files


def obj_body_vertices(path):
    """{body: vertices (samara frame)} read from an OBJ file of the sequence."""
    out, cur = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("o "):
                cur = line[2:].strip()
                out[cur] = []
            elif line.startswith("v "):
                out[cur].append([float(x) for x in line.split()[1:4]])
    return {k: np.array(v) for k, v in out.items()}


def import_obj(path):
    """Imports an OBJ file; returns {object name: object} of the new objects."""
    before = set(bpy.data.objects)
    if hasattr(bpy.ops.wm, "obj_import"):
        bpy.ops.wm.obj_import(filepath=path)
    else:
        bpy.ops.import_scene.obj(filepath=path)
    return {o.name: o for o in bpy.data.objects if o not in before}


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)


# --- the round trip ----------------------------------------------------------------------


def main():
    args = parse_args()
    checks = Checks({s for s in args.report_only.split(",") if s})
    formats = set(args.formats.split(","))
    os.makedirs(args.work, exist_ok=True)
    stem = os.path.splitext(os.path.basename(args.scene))[0]
    work = os.path.abspath(args.work)
    t_start = time.time()
    print(f"Blender {bpy.app.version_string}, numpy {np.__version__}, scene {args.scene}")

    # 1. samara: ground truth, frames (csv), glb, obj, pc2.
    states, frames_csv = f"{work}/states.csv", f"{work}/frames.csv"
    samara(args, "run", "--out", states)
    truth = Truth(states)
    export(args, "csv", frames_csv)
    frames = read_csv(frames_csv)
    bodies = truth.bodies
    glb = f"{work}/{stem}.glb"
    export(args, "glb", glb)
    if "obj" in formats:
        os.makedirs(f"{work}/obj", exist_ok=True)
        export(args, "obj", f"{work}/obj/")
    if "pc2" in formats:
        os.makedirs(f"{work}/pc2", exist_ok=True)
        export(args, "pc2", f"{work}/pc2/")
    if args.fine_fps:
        os.makedirs(f"{work}/fine", exist_ok=True)
        export(args, "obj", f"{work}/fine/", fps=args.fine_fps)

    # Frames as the export numbers them: frame number -> step, per body the origin.
    frame_numbers = sorted({int(r["frame"]) for r in frames})
    frame_step = {int(r["frame"]): truth.step_of(float(r["t"])) for r in frames}
    origin = {(r["body"], int(r["frame"])): np.array([float(r[k]) for k in ("ox", "oy", "oz")])
              for r in frames}
    # COM in the body frame (the glb mesh is body-frame): c = R^T (x - origin) at the first
    # frame. A shape-changing body's c moves: its COM is checked through its vertices.
    com_body, rigid = {}, {}
    for b in bodies:
        cs = []
        for n in frame_numbers:
            R, x = truth.pose(b, frame_step[n])
            cs.append(R.T @ (x - origin[(b, n)]))
        com_body[b] = cs[0]
        rigid[b] = max(float(np.linalg.norm(c - cs[0])) for c in cs) < 1e-9

    # 2. What the glb says: fps and first frame from the scene's extras, else the export's.
    gj = glb_json(glb)
    extras = gj["scenes"][gj.get("scene", 0)].get("extras", {}) or {}
    fps = float(extras.get("fps", args.fps or args.default_fps))
    first = int(extras.get("frame_start", frame_numbers[0]))
    last = int(extras.get("frame_end", first + len(frame_numbers) - 1))
    print(f"glb: extras {extras or 'none'}; fps {fps:g}, frames {first} ... {last}")
    checks.check("glb/frames_match_export", len(frame_numbers), last - first + 1, "==")
    sized, size_note = glb, f"{len(frame_numbers)} frames"
    if args.size_duration:
        sized = f"{work}/{stem}_size.glb"
        out = samara(args, "export", "--format", "glb", "--out", sized,
                     *(["--dt", repr(args.size_dt)] if args.size_dt else []),
                     duration=args.size_duration)
        size_note = f"{args.size_duration:g} s at the default fps: {out.split(',')[0]}"
    checks.check("size/glb_mb", os.path.getsize(sized) / 1e6, args.max_glb_mb, unit=" MB",
                 note=size_note)

    # 3. Import. Blender 3.4's importer fails with its default shading ("NORMALS") under
    # NumPy >= 1.24 (np.bool, glTF-Blender-IO issue 1844, fixed in 3.5): report it only.
    reset()
    try:
        bpy.ops.import_scene.gltf(filepath=glb)
        default_ok = 1
    except Exception as e:  # noqa: BLE001 - any importer failure is the measurement
        default_ok = 0
        print("  default-shading import: " + str(e).strip().splitlines()[-1])
    checks.check("import/default_shading_ok", default_ok, 1, "==",
                 note="Blender 3.4 + NumPy >= 1.24: np.bool (fixed in Blender 3.5)")
    reset()
    scene = bpy.context.scene
    scene.render.fps = int(round(fps))  # before importing: keys are converted with it
    scene.render.fps_base = scene.render.fps / fps
    bpy.ops.import_scene.gltf(filepath=glb, import_shading="SMOOTH")
    where = sorted(k for k in scene.keys() if k in ("fps", "frame_start", "frame_end"))
    print(f"  glb scene extras in Blender: scene custom properties {where or 'none'}")

    roots = [o for o in scene.objects if o.parent is None and o.type not in ("CAMERA", "LIGHT")]
    checks.check("objects/count", len(roots), len(bodies), "==",
                 note=f"root objects {[o.name for o in roots]}")
    names_ok = all(b in bpy.data.objects for b in bodies)
    checks.check("objects/names", int(names_ok), 1, "==", note=f"bodies {bodies}")
    if not names_ok:
        raise RuntimeError("no object per body name: the pose checks cannot run")

    # Keys: the frames of the action's keys, per body (read back, not assumed).
    key_frames = {}
    for b in bodies:
        act = bpy.data.objects[b].animation_data.action
        fc = next(f for f in act.fcurves if f.data_path.endswith("rotation_quaternion"))
        key_frames[b] = [k.co.x for k in fc.keyframe_points]
        lo, hi = act.frame_range
        checks.check(f"frames/{b}/action_range_error", max(abs(lo - first), abs(hi - last)), 1e-3,
                     note=f"action {lo:g} ... {hi:g}, export {first} ... {last}")
        expected = [first + j for j in range(len(frame_numbers))]
        err = max(abs(a - e) for a, e in zip(key_frames[b], expected)) if key_frames[b] else 1e9
        checks.check(f"frames/{b}/key_frame_error", err, 1e-3,
                     note=f"{len(key_frames[b])} keys at glTF time * scene fps {fps:g}")

    # Shape: shape keys, armatures (sea snake: 8 joints), children (zeppelin: propellers).
    for b in bodies:
        o = bpy.data.objects[b]
        keys = len(o.data.shape_keys.key_blocks) if o.type == "MESH" and o.data.shape_keys else 0
        print(f"  {b}: {o.type}, {len(o.children)} children, {keys} shape keys")
    arms = [o for o in scene.objects if o.type == "ARMATURE"]
    bones = max((len(a.data.bones) for a in arms), default=0)
    print(f"  armatures: {[(a.name, len(a.data.bones)) for a in arms]}")
    if args.bones is not None:
        checks.check("armature/bones", bones, args.bones, "==")

    # 4. Poses at every frame and at `between` step times between each pair of frames.
    for b in bodies:
        obj = bpy.data.objects[b]
        cb = C @ com_body[b]
        err = {"frame_m": 0.0, "frame_deg": 0.0, "between_m": 0.0, "between_deg": 0.0,
               "origin_m": 0.0}
        worst = {}
        kf = key_frames[b]
        for j, n in enumerate(frame_numbers):
            s0 = frame_step[n]
            samples = [(kf[j], s0, "frame")]
            if j + 1 < len(frame_numbers):
                s1 = frame_step[frame_numbers[j + 1]]
                for i in range(1, args.between + 1):
                    s = s0 + round(i * (s1 - s0) / (args.between + 1))
                    if s0 < s < s1:
                        u = (s - s0) / (s1 - s0)
                        samples.append((kf[j] + u * (kf[j + 1] - kf[j]), s, "between"))
            for f, s, kind in samples:
                fi = math.floor(f + 1e-9)
                scene.frame_set(fi, subframe=max(0.0, f - fi))
                M = np.array(obj.matrix_world)
                Rb = M[:3, :3] / np.linalg.norm(M[:3, :3], axis=0)
                R, x = truth.pose(b, s)
                values = [(f"{kind}_deg", rotation_angle_deg(Rb, C @ R @ C.T))]
                if rigid[b]:
                    com = M[:3, :3] @ cb + M[:3, 3]
                    values.append((f"{kind}_m", float(np.linalg.norm(com - C @ x))))
                if kind == "frame":
                    o = C @ origin[(b, frame_numbers[j])]
                    values.append(("origin_m", float(np.linalg.norm(M[:3, 3] - o))))
                for key, v in values:
                    if v > err[key]:
                        err[key] = v
                        worst[key] = f"frame {f:.2f}, t = {s * truth.dt:.4g} s"
        checks.check(f"poses/{b}/frame_origin_m", err["origin_m"], args.tol_frame_m, unit=" m",
                     note=worst.get("origin_m", ""))
        if rigid[b]:
            checks.check(f"poses/{b}/frame_com_m", err["frame_m"], args.tol_frame_m, unit=" m",
                         note=worst.get("frame_m", ""))
        checks.check(f"poses/{b}/frame_rotation_deg", err["frame_deg"], args.tol_frame_deg,
                     unit=" deg", note=worst.get("frame_deg", ""))
        checks.check(f"between/{b}/rotation_deg", err["between_deg"], args.tol_between_deg,
                     unit=" deg", note=worst.get("between_deg", ""))
        if rigid[b]:
            checks.check(f"between/{b}/com_m", err["between_m"], args.tol_between_m, unit=" m",
                         note=worst.get("between_m", ""))
        else:
            print(f"  {b} changes shape: its COM is checked through its vertices")

    # 5. Vertices at a middle frame (glb vs CSV pose and the OBJ) and between frames
    # against a finer OBJ export (shape-changing bodies: shape keys, children, armatures).
    mid = frame_numbers[len(frame_numbers) // 2]
    jmid = frame_numbers.index(mid)
    glb_mid = {}
    scene.frame_set(int(round(key_frames[bodies[0]][jmid])))
    for b in bodies:
        glb_mid[b] = body_vertices(b)
        # The imported mesh data is the body-frame mesh (Blender axes); pose it with the CSV.
        o = bpy.data.objects[b]
        if rigid[b] and o.type == "MESH" and not o.children and not o.data.shape_keys:
            V = np.empty(len(o.data.vertices) * 3)
            o.data.vertices.foreach_get("co", V)
            Vs = V.reshape(-1, 3) @ C  # Blender -> samara axes (C^T v per row)
            R, x = truth.pose(b, frame_step[mid])
            posed = (Vs - com_body[b]) @ R.T + x
            err = float(np.abs(posed @ C.T - glb_mid[b]).max())
            checks.check(f"vertices/{b}/glb_vs_csv_pose_m", err, args.tol_vertex_m, unit=" m",
                         note=f"frame {mid}")
    if args.fine_fps:
        fine = obj_files(f"{work}/fine")
        ratio = int(round(args.fine_fps / fps))
        fine_first = min(fine)
        # Correspondence Blender vertex <-> OBJ vertex from the first frame.
        ref0 = obj_body_vertices(fine[fine_first])
        scene.frame_set(int(round(key_frames[bodies[0]][0])))
        match = {}
        for b in bodies:
            idx, d = nearest(ref0[b] @ C.T, body_vertices(b))
            match[b] = idx
            checks.check(f"between_vertices/{b}/match_at_first_frame_m", float(d.max()),
                         args.tol_vertex_m, unit=" m")
        errs = {b: [0.0, ""] for b in bodies}
        for j in range(min(len(frame_numbers) - 1, 10)):
            for i in range(ratio + 1):
                kf = key_frames[bodies[0]]
                f = kf[j] + i * (kf[j + 1] - kf[j]) / ratio
                fi = math.floor(f + 1e-9)
                scene.frame_set(fi, subframe=max(0.0, f - fi))
                ref = obj_body_vertices(fine[fine_first + j * ratio + i])
                for b in bodies:
                    e = float(np.linalg.norm(body_vertices(b)[match[b]] - ref[b] @ C.T,
                                             axis=1).max())
                    if e > errs[b][0]:
                        errs[b] = [e, f"frame {f:.2f}"]
        for b in bodies:
            checks.check(f"between_vertices/{b}/max_m", errs[b][0], args.tol_between_vertex_m,
                         unit=" m", note=errs[b][1] + f" (first 10 frames, {ratio - 1} "
                         "samples between)")

    # 6. Render (Workbench): straight after import, then with the imported camera or ours.
    if args.render_size:
        render(args, scene, work, stem, bodies, checks)

    # 7. OBJ sequence: the middle frame's file against the glb at that frame.
    objs = obj_files(f"{work}/obj") if "obj" in formats else {}
    if objs:
        checks.check("obj/first_frame", min(objs), first, "==", note=f"{len(objs)} files")
        reset()
        new = import_obj(objs[mid])
        for b in bodies:
            o = new.get(b)
            if o is None:
                checks.check(f"obj/{b}/object", 0, 1, "==")
                continue
            checks.check(f"obj/{b}/vs_glb_m", hausdorff(world_vertices(o), glb_mid[b]),
                         args.tol_vertex_m, unit=" m", note=f"frame {mid}, nearest vertices")
    # 8. PC2: a Mesh Cache modifier on the first frame's OBJ mesh, at the middle frame.
    if objs and "pc2" in formats:
        reset()
        scene = bpy.context.scene
        new = import_obj(objs[min(objs)])
        ref = obj_body_vertices(objs[mid])
        for b in bodies:
            o = new[b]
            mod = o.modifiers.new("samara", "MESH_CACHE")
            mod.cache_format = "PC2"
            mod.filepath = f"{work}/pc2/{re.sub(r'[^A-Za-z0-9._-]', '_', b)}.pc2"
            # PC2 holds the file's axes (Y-up) like the OBJ mesh data: no axis change here,
            # the OBJ object's own rotation turns both to Z-up.
            mod.forward_axis, mod.up_axis = "POS_Y", "POS_Z"
            mod.frame_start = first  # cache sample 0 is the export's first frame
            scene.frame_set(mid)
            W = world_vertices(o)
            err = float(np.abs(W - ref[b] @ C.T).max())
            checks.check(f"pc2/{b}/vs_obj_m", err, args.tol_vertex_m, unit=" m",
                         note=f"frame {mid}, same vertex order")

    print(f"round trip of {stem}: {time.time() - t_start:.1f} s, "
          f"{len(checks.failed)} failed {checks.failed}", flush=True)
    if checks.failed:
        raise SystemExit(1)


def render(args, scene, work, stem, bodies, checks):
    w, h = (int(v) for v in args.render_size.split("x"))
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.resolution_x, scene.render.resolution_y = w, h
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = f"{work}/{stem}_render.png"
    act_lo, act_hi = bpy.data.objects[bodies[0]].animation_data.action.frame_range
    scene.frame_start, scene.frame_end = int(act_lo), int(act_hi)
    mid = int(round((act_lo + act_hi) / 2))
    scene.frame_set(mid)
    try:
        bpy.ops.render.render(write_still=True)
        straight = 1
    except RuntimeError as e:
        straight = 0
        print("  render straight after import: " + str(e).strip())
    checks.check("render/straight_after_import", straight, 1, "==",
                 note="needs a camera in the glb")
    cams = [o for o in scene.objects if o.type == "CAMERA"]
    if cams:
        scene.camera = cams[0]
        print(f"  render: the imported camera {cams[0].name}")
    else:
        import mathutils
        V = np.vstack([body_vertices(b) for b in bodies])
        centre = (V.min(axis=0) + V.max(axis=0)) / 2
        size = max(float(np.linalg.norm(V.max(axis=0) - V.min(axis=0))), 1e-3)
        cam = bpy.data.objects.new("test_camera", bpy.data.cameras.new("test_camera"))
        scene.collection.objects.link(cam)
        d = mathutils.Vector((1.0, -1.5, 0.8)).normalized()
        cam.location = mathutils.Vector(centre) + d * (2.0 * size)
        cam.rotation_euler = (-d).to_track_quat("-Z", "Y").to_euler()
        cam.data.clip_start, cam.data.clip_end = size * 0.01, size * 100
        scene.camera = cam
        print("  render: no camera in the glb; the test adds one")
    bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(scene.render.filepath)
    px = np.empty(img.size[0] * img.size[1] * img.channels, dtype=np.float32)
    img.pixels.foreach_get(px)
    rgb = px.reshape(-1, img.channels)[:, :3]
    background = rgb[0]  # a corner
    covered = float(np.mean(np.abs(rgb - background).max(axis=1) > 0.02))
    checks.check("render/pixel_variance", float(rgb.var()), 0.0, ">",
                 note=scene.render.filepath)
    checks.check("render/object_pixels_fraction", covered, 0.001, ">=")


main()
