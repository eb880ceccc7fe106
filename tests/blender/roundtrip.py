"""Blender round trip of `samara export`: glb, OBJ sequence and PC2 back into Blender.

Run inside Blender (3.4 or later), with a numpy for its Python (Debian: python3-numpy):

  blender -b --factory-startup -noaudio -t 1 --python-exit-code 1 \
      -P tests/blender/roundtrip.py -- --samara build/release/samara \
      --scene assets/scenes/maple_seed.json --work build/release/blender/maple_seed

The script first runs samara itself (`export` to glb, csv, obj, pc2 and `run` for the
ground truth at every step), then imports the files into an empty Blender scene and
compares what Blender shows with the simulation. Time: the export's frame k (k = 0, 1, ...)
is simulated time t = k / fps, numbered frame_start + k, and its glTF keys sit at
t + frame_start / fps, so Blender (a key at glTF time * fps) shows simulated time t at frame
frame_start + t * fps; fps and frame_start come from the glb scene's extras. Between frames
the truth is `samara run` at its step times; at a frame it is the pose interpolated between
the two steps around the frame's time, as the export defines it. Every check prints one line with its
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
    p.add_argument("--default-fps", type=float, default=24.0,
                   help="the export's default fps, used when neither the glb nor --fps says")
    p.add_argument("--first-frame", type=int,
                   help="passed to `samara export --first-frame` (default: the export's, 1)")
    p.add_argument("--formats", default="glb,obj,pc2", help="which exports to check")
    p.add_argument("--between", type=int, default=0,
                   help="step times sampled between two frames (0: every step)")
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
    p.add_argument("--max-meshes", type=int,
                   help="the imported glb may hold at most this many meshes (a crowd's bodies "
                   "share one mesh per shape)")
    p.add_argument("--size-duration", type=float,
                   help="measure the glb size on an extra export of this many seconds at the "
                   "export's default fps (the size depends on frames and meshes only)")
    p.add_argument("--size-dt", type=float, help="the step of that extra export, s")
    p.add_argument("--report-only", default="",
                   help="comma-separated checks (or groups: the part before '/') that print "
                   "their numbers but do not fail")
    p.add_argument("--render-size", default="1280x720",
                   help="render WxH (empty: no render); with the glb's camera H follows from "
                   "the camera's aspect ratio")
    p.add_argument("--min-render-pixels", type=int, default=4,
                   help="pixels the bodies must cover in the render")
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
    if args.first_frame is not None:
        cmd += ["--first-frame", str(args.first_frame)]
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


def slerp(q0, q1, s):
    """Shortest-arc spherical interpolation of unit quaternions (w, x, y, z)."""
    d = float(np.dot(q0, q1))
    if d < 0.0:
        q1, d = -q1, -d
    if d > 1.0 - 1e-12:
        q = q0 + s * (q1 - q0)
    else:
        th = math.acos(d)
        q = (math.sin((1 - s) * th) * q0 + math.sin(s * th) * q1) / math.sin(th)
    return q / np.linalg.norm(q)


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
        self.header = list(rows[0].keys())
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
        self.last_step = len(first) - 1

    def step_of(self, t):
        return int(round(t / self.dt))

    def is_step(self, t):
        """Whether time t is a step's time (to rounding)."""
        return abs(t / self.dt - round(t / self.dt)) < 1e-6

    def quat_com(self, body, step):
        r = self.steps[body][step]
        return (np.array([float(r[k]) for k in ("qw", "qx", "qy", "qz")]),
                np.array([float(r[k]) for k in ("x", "y", "z")]))

    def pose(self, body, step):
        """(R body -> world, COM) at a step, samara frame."""
        q, x = self.quat_com(body, step)
        return quat_matrix(*q), x

    def pose_at(self, body, t):
        """(R, COM) at time t as the export defines a frame's pose: between the two steps
        around t, the COM on a line and the rotation on the shortest arc."""
        u = t / self.dt
        s0 = min(int(math.floor(u + 1e-9)), self.last_step)
        f = u - s0
        if f < 1e-9 or s0 == self.last_step:
            return self.pose(body, s0)
        (q0, x0), (q1, x1) = self.quat_com(body, s0), self.quat_com(body, s0 + 1)
        return quat_matrix(*slerp(q0, q1, f)), (1 - f) * x0 + f * x1


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


class Frames:
    """The export's frames: numbers first ... last, frame n at simulated time (n - first)/fps,
    shown by Blender at frame first + t * fps."""

    def __init__(self, numbers, fps, first):
        self.numbers, self.fps, self.first = numbers, fps, first
        self.last = numbers[-1]

    def time(self, n):
        return (n - self.first) / self.fps

    def blender_frame(self, t):
        return self.first + t * self.fps


def set_frame(scene, f):
    """Blender at (fractional) frame f."""
    fi = math.floor(f + 1e-9)
    scene.frame_set(fi, subframe=max(0.0, f - fi))


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
    csv_rows = read_csv(frames_csv)
    bodies = truth.bodies
    glb = f"{work}/{stem}.glb"
    export(args, "glb", glb)
    if "obj" in formats:
        export(args, "obj", f"{work}/obj/")
    if "pc2" in formats:
        export(args, "pc2", f"{work}/pc2/")
    if args.fine_fps:
        export(args, "obj", f"{work}/fine/", fps=args.fine_fps)

    # 2. The frames: numbers from the CSV, fps and first frame from the glb scene's extras.
    gj = glb_json(glb)
    extras = gj["scenes"][gj.get("scene", 0)].get("extras", {}) or {}
    numbers = sorted({int(r["frame"]) for r in csv_rows})
    fps = float(extras.get("fps", args.fps or args.default_fps))
    frames = Frames(numbers, fps, int(extras.get("frame_start", numbers[0])))
    print(f"glb: extras {extras or 'none'}; fps {fps:g}, frames {frames.first} ... "
          f"{frames.last}")
    check_numbering(args, checks, truth, csv_rows, frames, extras, gj)
    com_body, rigid, origin = body_frames(truth, csv_rows)
    sized, size_note = glb, f"{len(numbers)} frames"
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
    scene.frame_start, scene.frame_end = frames.first, frames.last  # as the export prints
    where = sorted(k for k in scene.keys() if k in extras)
    print(f"  glb scene extras in Blender: scene custom properties {where or 'none'}")

    roots = [o for o in scene.objects if o.parent is None and o.type not in ("CAMERA", "LIGHT")]
    checks.check("objects/count", len(roots), len(bodies), "==",
                 note=f"root objects {[o.name for o in roots]}")
    names_ok = all(b in bpy.data.objects for b in bodies)
    checks.check("objects/names", int(names_ok), 1, "==", note=f"bodies {bodies}")
    if not names_ok:
        raise RuntimeError("no object per body name: the pose checks cannot run")

    meshes = {o.data.name for o in scene.objects if o.type == "MESH"}
    checks.check("objects/meshes", len(meshes), args.max_meshes,
                 note=f"{len(meshes)} meshes for {len(bodies)} bodies")
    check_keys(checks, truth, frames, bodies)
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

    check_poses(args, checks, scene, truth, frames, bodies, com_body, rigid, origin)

    # 5. Vertices at a middle frame: the glb mesh against the run's pose there.
    mid = numbers[len(numbers) // 2]
    glb_mid = {}
    scene.frame_set(mid)
    for b in bodies:
        glb_mid[b] = body_vertices(b)
        # The imported mesh data is the body-frame mesh (Blender axes): pose it with the run.
        o = bpy.data.objects[b]
        if rigid[b] and o.type == "MESH" and not o.children and not o.data.shape_keys:
            V = np.empty(len(o.data.vertices) * 3)
            o.data.vertices.foreach_get("co", V)
            # Blender -> samara axes (C^T v per row); a shared mesh's size is the node's
            # (uniform) scale.
            Vs = V.reshape(-1, 3) @ C * o.scale[0]
            R, x = truth.pose_at(b, frames.time(mid))
            posed = (Vs - com_body[b]) @ R.T + x
            err = float(np.abs(posed @ C.T - glb_mid[b]).max())
            checks.check(f"vertices/{b}/glb_vs_run_pose_m", err, args.tol_vertex_m, unit=" m",
                         note=f"frame {mid}, t = {frames.time(mid):.6g} s")
    if args.fine_fps:
        check_between_vertices(args, checks, scene, work, frames, bodies)

    # 6. Render (Workbench) with the glb's camera.
    if args.render_size:
        render(args, scene, work, stem, bodies, frames, gj, checks)

    # 7. OBJ sequence: numbering, and the middle frame's file against the glb at that frame.
    objs = obj_files(f"{work}/obj") if "obj" in formats else {}
    if "obj" in formats:
        checks.check("obj/frame_numbers", int(sorted(objs) == numbers), 1, "==",
                     note=f"{len(objs)} files, {min(objs, default=None)} ... "
                     f"{max(objs, default=None)}")
        name = os.path.basename(objs.get(frames.first, ""))
        checks.check("obj/first_file_name", name, f"{stem}_{frames.first:04d}.obj", "==")
        reset()
        new = import_obj(objs[mid])
        for b in bodies:
            o = new.get(b)
            if o is None:
                checks.check(f"obj/{b}/object", 0, 1, "==")
                continue
            checks.check(f"obj/{b}/vs_glb_m", hausdorff(world_vertices(o), glb_mid[b]),
                         args.tol_vertex_m, unit=" m", note=f"frame {mid}, nearest vertices")
    # 8. PC2: header, and a Mesh Cache modifier on the first frame's OBJ mesh at the middle
    # frame against that frame's OBJ.
    if objs and "pc2" in formats:
        check_pc2(args, checks, work, objs, frames, mid, bodies)

    print(f"round trip of {stem}: {time.time() - t_start:.1f} s, "
          f"{len(checks.failed)} failed {checks.failed}", flush=True)
    if checks.failed:
        raise SystemExit(1)


def check_numbering(args, checks, truth, csv_rows, frames, extras, gj):
    """The CSV's frame column, its steps and rows, the glb's extras and key times."""
    numbers, fps = frames.numbers, frames.fps
    expected_first = args.first_frame if args.first_frame is not None else 1
    duration = truth.last_step * truth.dt
    count = int(math.floor(duration * fps + 1e-6)) + 1
    checks.check("frames/csv_first_frame", numbers[0], expected_first, "==")
    checks.check("frames/csv_frame_count", len(numbers), count, "==",
                 note=f"floor({duration:g} s * {fps:g} fps) + 1")
    checks.check("frames/csv_consecutive", int(numbers == list(range(numbers[0],
                 numbers[0] + len(numbers)))), 1, "==")
    # Each CSV row is `samara run`'s row of the step nearest the frame's time.
    off, same = 0.0, True
    for r in csv_rows:
        t = frames.time(int(r["frame"]))
        off = max(off, abs(float(r["t"]) - t))
        run = truth.steps[r["body"]][truth.step_of(float(r["t"]))]
        same = same and all(r[k] == run[k] for k in truth.header)
    checks.check("frames/csv_step_offset_s", off, truth.dt / 2 + 1e-9, unit=" s",
                 note="the nearest step to each frame's time")
    checks.check("frames/csv_rows_equal_run", int(same), 1, "==")

    # The glb scene's extras, and every key at glTF time = frame's time + frame_start / fps.
    expected = {"fps": fps, "frame_start": numbers[0], "frame_end": numbers[-1],
                "time_offset": numbers[0] / fps, "time_end": numbers[-1] / fps}
    for key, want in expected.items():
        have = extras.get(key)
        err = abs(float(have) - want) if have is not None else math.inf
        checks.check(f"glb/extras_{key}", err, 1e-9, note=f"{have} (expected {want:.9g})")
    anims = gj.get("animations", [])
    lo = hi = 0.0
    weights_inputs = set()
    for a in anims:
        for ch in a["channels"]:
            acc = gj["accessors"][a["samplers"][ch["sampler"]]["input"]]
            lo = max(lo, abs(acc["min"][0] - expected["time_offset"]))
            hi = max(hi, abs(acc["max"][0] - expected["time_end"]))
            if ch["target"]["path"] == "weights":
                weights_inputs.add(acc["count"])
    # Key times are float32: one unit in the last place of the largest time.
    ulp = max(expected["time_end"], 1.0) * 2.0**-23
    checks.check("glb/first_key_time_error_s", lo, ulp, unit=" s",
                 note=f"frame_start / fps = {expected['time_offset']:.6g} s (float32)")
    checks.check("glb/last_key_time_error_s", hi, ulp, unit=" s",
                 note=f"frame_end / fps = {expected['time_end']:.6g} s (float32)")
    for n in sorted(weights_inputs):
        checks.check("glb/weights_keys", n, len(numbers), "==", note="one per frame")


def body_frames(truth, csv_rows):
    """Per body the COM in the body frame (from the CSV's origin at each frame's step),
    whether it stays put (a rigid body), and {(body, frame): (step time, origin)}."""
    cs, origin = {}, {}
    for r in csv_rows:
        b, n = r["body"], int(r["frame"])
        R, x = truth.pose(b, truth.step_of(float(r["t"])))
        o = np.array([float(r[k]) for k in ("ox", "oy", "oz")])
        origin[(b, n)] = (float(r["t"]), o)
        cs.setdefault(b, []).append(R.T @ (x - o))
    com_body = {b: c[0] for b, c in cs.items()}
    rigid = {b: max(float(np.linalg.norm(ci - c[0])) for ci in c) < 1e-9 for b, c in cs.items()}
    return com_body, rigid, origin


def check_keys(checks, truth, frames, bodies):
    """Every frame number has a key; every other key is at a step's time (for each body and
    each animated part under it); weights (shape keys) have one key per frame and the
    frames' names."""
    steps_per_frame = 1.0 / (truth.dt * frames.fps)
    for b in bodies:
        o = bpy.data.objects[b]
        lo, hi = o.animation_data.action.frame_range
        checks.check(f"frames/{b}/action_range_error",
                     max(abs(lo - frames.first), abs(hi - frames.last)), 1e-3,
                     note=f"action {lo:g} ... {hi:g}, export {frames.first} ... {frames.last}")
        for part in [o, *o.children_recursive]:
            if part.animation_data and part.animation_data.action:  # parts, armatures
                check_transform_keys(checks, part, frames, steps_per_frame)
        sk = o.data.shape_keys if o.type == "MESH" else None
        if sk is None:
            continue
        names = [kb.name for kb in sk.key_blocks[1:]]
        want = [f"frame_{n:04d}" for n in frames.numbers]
        checks.check(f"weights/{b}/shape_key_names", int(names == want), 1, "==",
                     note=f"{names[:1]} ... {names[-1:]}")
        err = math.inf
        if sk.animation_data and sk.animation_data.action:
            err = 0.0
            for fc in sk.animation_data.action.fcurves:
                k = np.array([p.co.x for p in fc.keyframe_points])
                err = max(err, float(np.abs(k - np.array(frames.numbers)).max())
                          if len(k) == len(frames.numbers) else math.inf)
        checks.check(f"weights/{b}/key_per_frame_error", err, 1e-3,
                     note="every shape key's weight keyed at each frame number")


def check_transform_keys(checks, obj, frames, steps_per_frame):
    """An object's (and an armature's bones') location and rotation keys: one at every frame
    number, the others at step times between frames, all LINEAR."""
    missing = off_step = 0.0
    linear = True
    counts = set()
    for fc in obj.animation_data.action.fcurves:
        if not fc.data_path.endswith(("location", "rotation_quaternion")):
            continue
        k = np.array([p.co.x for p in fc.keyframe_points])
        linear = linear and all(p.interpolation == "LINEAR" for p in fc.keyframe_points)
        missing = max(missing, max(float(np.abs(k - n).min()) for n in frames.numbers))
        between = k[np.abs(k - np.round(k)) > 1e-3]
        u = (between - frames.first) * steps_per_frame  # steps since t = 0
        if len(u):
            off_step = max(off_step, float(np.abs(u - np.round(u)).max()) / steps_per_frame)
        counts.add((len(k), len(between)))
    note = "keys per curve: " + ", ".join(f"{n} ({n - e} at frames + {e} between)"
                                          for n, e in sorted(counts))
    checks.check(f"keys/{obj.name}/every_frame_keyed", missing, 1e-3,
                 note=f"frames to the nearest key; {len(frames.numbers)} frames")
    checks.check(f"keys/{obj.name}/between_keys_at_steps", off_step, 1e-3, note=note)
    checks.check(f"keys/{obj.name}/linear", int(linear), 1, "==")


def between_steps(args, truth, t0, t1):
    """Step numbers strictly between times t0 and t1 (all, or --between of them)."""
    lo = int(math.floor(t0 / truth.dt + 1e-6)) + 1
    hi = int(math.ceil(t1 / truth.dt - 1e-6)) - 1
    if hi < lo:
        return []
    if args.between == 0 or hi - lo + 1 <= args.between:
        return list(range(lo, hi + 1))
    return sorted({int(round(v)) for v in np.linspace(lo, hi, args.between)})


def check_poses(args, checks, scene, truth, frames, bodies, com_body, rigid, origin):
    """Pose at every frame (the run interpolated to the frame's time) and at step times
    between frames (the run's own steps)."""
    for b in bodies:
        obj = bpy.data.objects[b]
        cb = C @ com_body[b]
        err = {"frame_m": 0.0, "frame_deg": 0.0, "between_m": 0.0, "between_deg": 0.0,
               "origin_m": 0.0}
        worst = {}
        origins_checked = 0
        for k, n in enumerate(frames.numbers):
            t = frames.time(n)
            samples = [(float(n), t, "frame")]
            if k + 1 < len(frames.numbers):
                for s in between_steps(args, truth, t, frames.time(n + 1)):
                    samples.append((frames.blender_frame(s * truth.dt), s * truth.dt, "between"))
            for f, ts, kind in samples:
                set_frame(scene, f)
                M = np.array(obj.matrix_world)
                Rb = M[:3, :3] / np.linalg.norm(M[:3, :3], axis=0)
                R, x = truth.pose_at(b, ts)
                values = [(f"{kind}_deg", rotation_angle_deg(Rb, C @ R @ C.T))]
                if rigid[b]:
                    # Rb, not M: a crowd's shared mesh carries the body's size as the node's
                    # scale, and the run's body-frame COM is already at that size.
                    com = Rb @ cb + M[:3, 3]
                    values.append((f"{kind}_m", float(np.linalg.norm(com - C @ x))))
                if kind == "frame":
                    # The body origin: COM - R c for a rigid body; a shape-changing body's
                    # from the CSV, where its frame falls on a step.
                    step_t, o = origin[(b, n)]
                    if rigid[b]:
                        o = x - R @ com_body[b]
                    if rigid[b] or abs(step_t - ts) < 1e-9:
                        values.append(("origin_m", float(np.linalg.norm(M[:3, 3] - C @ o))))
                        origins_checked += 1
                for key, v in values:
                    if v > err[key]:
                        err[key] = v
                        worst[key] = f"frame {f:.3f}, t = {ts:.6g} s"
        nb = sum(len(between_steps(args, truth, frames.time(n), frames.time(n + 1)))
                 for n in frames.numbers[:-1])
        print(f"  {b}: {len(frames.numbers)} frames, {nb} step times between frames, "
              f"{origins_checked} origins")
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


def check_between_vertices(args, checks, scene, work, frames, bodies):
    """The glb's vertices at and between frames against an OBJ export at --fine-fps
    (shape-changing bodies: shape keys, children, armatures); fine frame m is Blender frame
    first + (m - first) / ratio. At frames the shape must be exact whatever the glb holds."""
    fine = obj_files(f"{work}/fine")
    ratio = int(round(args.fine_fps / frames.fps))
    checks.check("between_vertices/fine_first_frame", min(fine), frames.first, "==")
    # Correspondence Blender vertex <-> OBJ vertex from the first frame.
    ref0 = obj_body_vertices(fine[frames.first])
    scene.frame_set(frames.first)
    match = {}
    for b in bodies:
        idx, d = nearest(ref0[b] @ C.T, body_vertices(b))
        match[b] = idx
        checks.check(f"between_vertices/{b}/match_at_first_frame_m", float(d.max()),
                     args.tol_vertex_m, unit=" m")
    errs = {(b, kind): [0.0, ""] for b in bodies for kind in ("frame", "between")}
    for j in range(min(len(frames.numbers) - 1, 10)):
        for i in range(ratio + 1):
            f = frames.first + j + i / ratio
            set_frame(scene, f)
            ref = obj_body_vertices(fine[frames.first + j * ratio + i])
            kind = "between" if 0 < i < ratio else "frame"
            for b in bodies:
                e = float(np.linalg.norm(body_vertices(b)[match[b]] - ref[b] @ C.T,
                                         axis=1).max())
                if e > errs[(b, kind)][0]:
                    errs[(b, kind)] = [e, f"frame {f:.2f}"]
    for b in bodies:
        e, where = errs[(b, "frame")]
        checks.check(f"vertices/{b}/at_frames_vs_fine_obj_m", e, args.tol_vertex_m, unit=" m",
                     note=where + " (first 11 frames)")
        e, where = errs[(b, "between")]
        checks.check(f"between_vertices/{b}/max_m", e, args.tol_between_vertex_m, unit=" m",
                     note=where + f" (first 10 frames, {ratio - 1} samples between)")


def check_pc2(args, checks, work, objs, frames, mid, bodies):
    reset()
    scene = bpy.context.scene
    new = import_obj(objs[frames.first])
    ref = obj_body_vertices(objs[mid])
    for b in bodies:
        o = new[b]
        path = f"{work}/pc2/{re.sub(r'[^A-Za-z0-9._-]', '_', b)}.pc2"
        with open(path, "rb") as f:
            magic, version, points, start, rate, samples = struct.unpack("<12siiffi", f.read(32))
        header = (magic, version, points, start, rate, samples)
        want = (b"POINTCACHE2\0", 1, len(o.data.vertices), float(frames.first), 1.0,
                len(frames.numbers))
        checks.check(f"pc2/{b}/header", int(header == want), 1, "==",
                     note=f"points {points}, start frame {start:g}, rate {rate:g}, "
                     f"samples {samples}")
        mod = o.modifiers.new("samara", "MESH_CACHE")
        mod.cache_format = "PC2"
        mod.filepath = path
        # PC2 holds the file's axes (Y-up) like the OBJ mesh data: no axis change here,
        # the OBJ object's own rotation turns both to Z-up.
        mod.forward_axis, mod.up_axis = "POS_Y", "POS_Z"
        mod.frame_start = frames.first  # cache sample 0 plays at the export's first frame
        scene.frame_set(mid)
        W = world_vertices(o)
        err = float(np.abs(W - ref[b] @ C.T).max())
        checks.check(f"pc2/{b}/vs_obj_m", err, args.tol_vertex_m, unit=" m",
                     note=f"frame {mid}, same vertex order")


def project(cam, scene, V):
    """Blender world points V -> (u, v) in the camera's frame [0, 1]^2 (v up), depth."""
    M = np.array(cam.matrix_world.inverted())
    P = V @ M[:3, :3].T + M[:3, 3]
    corners = [np.array(c) for c in cam.data.view_frame(scene=scene)]
    fx = [c[0] / -c[2] for c in corners]
    fy = [c[1] / -c[2] for c in corners]
    depth = -P[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        u = (P[:, 0] / depth - min(fx)) / (max(fx) - min(fx))
        v = (P[:, 1] / depth - min(fy)) / (max(fy) - min(fy))
    return u, v, depth


def render(args, scene, work, stem, bodies, frames, gj, checks):
    """Renders with the glb's camera as exported (it frames the whole run, so a small body
    covers few pixels): every body in its view at every frame, then a render at the frame
    where the bodies look largest must show them where they project."""
    w, h = (int(v) for v in args.render_size.split("x"))
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = f"{work}/{stem}_render.png"
    scene.render.resolution_x, scene.render.resolution_y = w, h
    try:
        bpy.ops.render.render(write_still=True)
        straight = 1
    except RuntimeError as e:
        straight = 0
        print("  render straight after import: " + str(e).strip())
    # Blender 3.4's glTF importer never makes an imported camera the scene's camera, so an
    # empty scene cannot render straight after import: reported, not failed (the README
    # says to make the imported "camera" active; the default startup scene has its own).
    print(f"  render straight after import (no active camera set by the importer): {straight}")
    cams = [o for o in scene.objects if o.type == "CAMERA"]
    checks.check("render/camera_in_glb", len(cams), 1, "==", note="the export's camera")
    if cams:
        scene.camera = cams[0]
        aspect = gj["cameras"][0]["perspective"].get("aspectRatio") if gj.get("cameras") else None
        if aspect:
            h = int(round(w / aspect))
            scene.render.resolution_y = h
        print(f"  render: the imported camera {cams[0].name}, {w} x {h} (aspect {aspect})")
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
    cam = scene.camera

    # Every body inside the view at every frame; the frame where they cover the most.
    outside, best, best_area, box = 0, frames.first, -1.0, None
    for n in frames.numbers:
        scene.frame_set(n)
        u, v, depth = project(cam, scene, np.vstack([body_vertices(b) for b in bodies]))
        inside = (depth > cam.data.clip_start) & (u >= 0) & (u <= 1) & (v >= 0) & (v <= 1)
        outside += int(not inside.all())
        area = (u.max() - u.min()) * (v.max() - v.min()) if inside.all() else -1.0
        if area > best_area:
            best, best_area, box = n, area, (u.min(), u.max(), v.min(), v.max())
    checks.check("render/frames_with_a_body_outside_view", outside, 0, "==",
                 note=f"of {len(frames.numbers)} frames")

    scene.frame_set(best)
    bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(scene.render.filepath)
    px = np.empty(img.size[0] * img.size[1] * img.channels, dtype=np.float32)
    img.pixels.foreach_get(px)
    rgb = px.reshape(img.size[1], img.size[0], img.channels)[:, :, :3]  # rows bottom up
    background = rgb[0, 0]  # a corner
    covered = np.abs(rgb - background).max(axis=2) > 0.02
    count = int(covered.sum())
    checks.check("render/pixel_variance", float(rgb.var()), 0.0, ">",
                 note=scene.render.filepath)
    checks.check("render/object_pixels", count, args.min_render_pixels, ">=",
                 note=f"frame {best}, fraction {count / covered.size:.3g} of {w} x {h}")
    if box is not None and count:
        # Covered pixels inside the bodies' projected box (2 pixels of margin).
        rows, cols = np.nonzero(covered)
        x0, x1 = box[0] * w - 2, box[1] * w + 2
        y0, y1 = box[2] * h - 2, box[3] * h + 2
        ins = (cols + 0.5 >= x0) & (cols + 0.5 <= x1) & (rows + 0.5 >= y0) & (rows + 0.5 <= y1)
        checks.check("render/pixels_where_projected", float(ins.mean()), 0.9, ">=",
                     note=f"box x {x0:.0f} ... {x1:.0f}, y {y0:.0f} ... {y1:.0f} (from the "
                     "bottom)")


main()
