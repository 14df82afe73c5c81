#!/usr/bin/env python3
"""Writes a corpus of real-style skinned glTF rigs (binary .glb) and their expectations.

    python3 tools/rigs/make_rigs.py [OUT_DIR]      # default: assets/rigs

Standard library only. Each rig is a node hierarchy of bones (one glTF skin with joints and
inverseBindMatrices) and one skinned mesh: a box per bone, each box weighted rigidly to its bone
(JOINTS_0 / WEIGHTS_0). Conventions: Y up, metres, the creature faces +Z (its left is +X), the
lowest point of the rest pose on y = 0. Bones are named the ways pipelines name them (Mixamo,
Unreal mannequin, Unity humanoid, VRM, Blender Rigify `.L`/`.R`, game creature rigs).

`expected.json` holds what a rigger would agree with: one grasper per hand (at the hand, never a
metacarpal, finger or toe), one foot per leg (the foot bone for a biped; for a quadruped the front
paw's wrist-level body and the hind foot body; a quadruped has no graspers); hair, mane, ear, tail,
wing, feather, face and tongue chains are none of these.
"""

import json
import math
import os
import struct
import sys

# ---------------------------------------------------------------------------------------------
# Rig building


class Rig:
    def __init__(self, name, armature=None):
        self.name = name
        self.armature = armature  # name of a non-joint node above the skeleton (Blender's export)
        self.bones = []  # dicts: name, head, tail, parent, r, geom
        self.index = {}

    def add(self, name, head, tail, parent=None, r=0.02, geom=True):
        assert name not in self.index, name
        if parent is not None:
            assert parent in self.index, (name, parent)
        self.index[name] = len(self.bones)
        self.bones.append(dict(name=name, head=tuple(head), tail=tuple(tail), parent=parent, r=r, geom=geom))
        return name

    def chain(self, names, points, parent, r=0.02, taper=1.0):
        """Bones from points[i] to points[i+1]; returns the last name."""
        assert len(points) == len(names) + 1
        for i, n in enumerate(names):
            parent = self.add(n, points[i], points[i + 1], parent, r * (taper ** i))
        return parent

    def sym(self, fn):
        """Calls fn(side) for the left side (+X) and the right side (-X).

        side.x(v) mirrors an x coordinate, side.p(point) a point, side.n(template) fills a name
        template's {Side} (Left/Right), {S} (L/R) and {s} (l/r)."""
        for s in (Side(+1), Side(-1)):
            fn(s)


class Side:
    def __init__(self, sign):
        self.sign = sign
        self.Side = "Left" if sign > 0 else "Right"
        self.S = "L" if sign > 0 else "R"
        self.s = "l" if sign > 0 else "r"

    def n(self, template):
        return template.format(Side=self.Side, S=self.S, s=self.s)

    def p(self, pt):
        return (pt[0] * self.sign, pt[1], pt[2])

    def ps(self, pts):
        return [self.p(q) for q in pts]


def lerp(a, b, t):
    return tuple(a[i] + (b[i] - a[i]) * t for i in range(3))


def add(a, b):
    return tuple(a[i] + b[i] for i in range(3))


def line(a, b, n):
    """n+1 points from a to b."""
    return [lerp(a, b, i / n) for i in range(n + 1)]


# ---------------------------------------------------------------------------------------------
# Geometry and GLB writing


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a):
    l = math.sqrt(dot(a, a))
    return (a[0] / l, a[1] / l, a[2] / l) if l > 1e-12 else (0.0, 1.0, 0.0)


def box(head, tail, r):
    """24 vertices (flat normals) and 36 indices of a box around head→tail, half-width r."""
    d = sub(tail, head)
    if math.sqrt(dot(d, d)) < 1e-6:
        d = (0.0, r, 0.0)
        tail = add(head, d)
    a = norm(d)
    ref = (0.0, 1.0, 0.0) if abs(a[1]) < 0.9 else (1.0, 0.0, 0.0)
    u = norm(cross(a, ref))
    v = cross(a, u)
    corners = []
    for ends in (head, tail):
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            corners.append(tuple(ends[i] + (su * u[i] + sv * v[i]) * r for i in range(3)))
    faces = [(0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    centre = tuple(sum(c[i] for c in corners) / 8 for i in range(3))
    pos, nrm, idx = [], [], []
    for f in faces:
        q = [corners[i] for i in f]
        fc = tuple(sum(p[i] for p in q) / 4 for i in range(3))
        n = norm(cross(sub(q[1], q[0]), sub(q[2], q[0])))
        if dot(n, sub(fc, centre)) < 0:
            q = q[::-1]
            n = (-n[0], -n[1], -n[2])
        base = len(pos)
        pos.extend(q)
        nrm.extend([n] * 4)
        idx.extend([base, base + 1, base + 2, base, base + 2, base + 3])
    return pos, nrm, idx


def pad4(b, fill=b"\0"):
    return b + fill * ((4 - len(b) % 4) % 4)


def write_glb(rig, path):
    bones = rig.bones
    # The lowest point of the mesh goes on y = 0.
    pos, nrm, idx, jnt = [], [], [], []
    for j, b in enumerate(bones):
        if not b["geom"]:
            continue
        p, n, i = box(b["head"], b["tail"], b["r"])
        base = len(pos)
        pos.extend(p)
        nrm.extend(n)
        idx.extend(k + base for k in i)
        jnt.extend([j] * len(p))
    lift = -min(p[1] for p in pos)
    pos = [(p[0], p[1] + lift, p[2]) for p in pos]
    world = [(b["head"][0], b["head"][1] + lift, b["head"][2]) for b in bones]

    nodes = []
    for j, b in enumerate(bones):
        h = world[j]
        if b["parent"] is not None:
            ph = world[rig.index[b["parent"]]]
            t = sub(h, ph)
        else:
            t = h
        node = {"name": b["name"]}
        if any(abs(c) > 0 for c in t):
            node["translation"] = [round(c, 6) for c in t]
        kids = [k for k, c in enumerate(bones) if c["parent"] == b["name"]]
        if kids:
            node["children"] = kids
        nodes.append(node)
    roots = [j for j, b in enumerate(bones) if b["parent"] is None]
    mesh_node = len(nodes)
    nodes.append({"name": rig.name + "_mesh", "mesh": 0, "skin": 0})
    if rig.armature:
        nodes.append({"name": rig.armature, "children": [mesh_node] + roots})
        scene_nodes = [len(nodes) - 1]
    else:
        scene_nodes = [mesh_node] + roots

    big = len(bones) > 255
    bin_ = bytearray()
    views, accessors = [], []

    def view(data, target=None):
        nonlocal bin_
        while len(bin_) % 4:
            bin_ += b"\0"
        v = {"buffer": 0, "byteOffset": len(bin_), "byteLength": len(data)}
        if target:
            v["target"] = target
        bin_ += data
        views.append(v)
        return len(views) - 1

    def accessor(data, ctype, count, typ, target=None, mm=None):
        a = {"bufferView": view(data, target), "componentType": ctype, "count": count, "type": typ}
        if mm:
            a["min"], a["max"] = mm
        accessors.append(a)
        return len(accessors) - 1

    f32 = lambda vals: struct.pack("<%df" % len(vals), *vals)
    flat = [c for p in pos for c in p]
    mn = [min(p[i] for p in pos) for i in range(3)]
    mx = [max(p[i] for p in pos) for i in range(3)]
    # min/max exactly as the stored float32 values
    r32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
    a_pos = accessor(f32(flat), 5126, len(pos), "VEC3", 34962, ([r32(x) for x in mn], [r32(x) for x in mx]))
    a_nrm = accessor(f32([c for n in nrm for c in n]), 5126, len(nrm), "VEC3", 34962)
    if big:
        jdata = struct.pack("<%dH" % (4 * len(jnt)), *[c for j in jnt for c in (j, 0, 0, 0)])
        a_jnt = accessor(jdata, 5123, len(jnt), "VEC4", 34962)
    else:
        jdata = bytes(c for j in jnt for c in (j, 0, 0, 0))
        a_jnt = accessor(jdata, 5121, len(jnt), "VEC4", 34962)
    a_wgt = accessor(f32([c for _ in jnt for c in (1.0, 0.0, 0.0, 0.0)]), 5126, len(jnt), "VEC4", 34962)
    a_idx = accessor(struct.pack("<%dH" % len(idx), *idx), 5123, len(idx), "SCALAR", 34963)
    ibm = []
    for h in world:
        ibm.extend([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -h[0], -h[1], -h[2], 1])
    a_ibm = accessor(f32(ibm), 5126, len(bones), "MAT4")

    gltf = {
        "asset": {"version": "2.0", "generator": "anymorph tools/rigs/make_rigs.py"},
        "scene": 0,
        "scenes": [{"name": rig.name, "nodes": scene_nodes}],
        "nodes": nodes,
        "meshes": [{"name": rig.name + "_mesh", "primitives": [{
            "attributes": {"POSITION": a_pos, "NORMAL": a_nrm, "JOINTS_0": a_jnt, "WEIGHTS_0": a_wgt},
            "indices": a_idx, "mode": 4}]}],
        "skins": [{"name": rig.name, "joints": list(range(len(bones))), "inverseBindMatrices": a_ibm,
                   "skeleton": roots[0]}],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": len(bin_)}],
    }
    if len(roots) > 1:
        del gltf["skins"][0]["skeleton"]
    js = pad4(json.dumps(gltf, separators=(",", ":")).encode(), b" ")
    bn = pad4(bytes(bin_))
    total = 12 + 8 + len(js) + 8 + len(bn)
    with open(path, "wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, total))
        f.write(struct.pack("<I4s", len(js), b"JSON") + js)
        f.write(struct.pack("<I4s", len(bn), b"BIN\0") + bn)
    return total


# ---------------------------------------------------------------------------------------------
# Humans: one skeleton (1.75 m, T-pose), named by pipeline

FINGERS = ("thumb", "index", "middle", "ring", "pinky")
FINGER_Z = {"index": 0.028, "middle": 0.009, "ring": -0.010, "pinky": -0.028}


def human(rig, nm, spine_n=3, root=None, metacarpals=False, finger_ends=False, extra=None):
    """nm: naming. Keys: hips, spine (list), neck (list), head, head_end, and sided templates
    shoulder, upperarm, forearm, hand, finger(f, i), palm(f) (metacarpals), thigh, shin, foot, toe,
    toe_end. Returns the names of the key bodies."""
    parent = None
    if root:
        parent = rig.add(root, (0, 0, 0), (0, 0, 0.2), None, 0.01, geom=False)
    hips = rig.add(nm["hips"], (0, 0.95, -0.01), (0, 1.03, -0.01), parent, 0.13)
    sp = line((0, 1.03, -0.01), (0, 1.42, -0.02), spine_n)
    chest = rig.chain(nm["spine"], sp, hips, 0.13)
    necks = nm["neck"]
    neck = rig.chain(necks, line((0, 1.42, -0.02), (0, 1.56, 0.0), len(necks)), chest, 0.05)
    head = rig.add(nm["head"], (0, 1.56, 0.0), (0, 1.73, 0.02), neck, 0.09)
    if nm.get("head_end"):
        rig.add(nm["head_end"], (0, 1.73, 0.02), (0, 1.75, 0.02), head, 0.01, geom=False)

    def side(s):
        sh = rig.add(s.n(nm["shoulder"]), s.p((0.03, 1.40, -0.02)), s.p((0.16, 1.41, -0.03)), chest, 0.05)
        ua = rig.add(s.n(nm["upperarm"]), s.p((0.16, 1.41, -0.03)), s.p((0.43, 1.41, -0.04)), sh, 0.045)
        fa = rig.add(s.n(nm["forearm"]), s.p((0.43, 1.41, -0.04)), s.p((0.68, 1.41, -0.02)), ua, 0.038)
        hand = rig.add(s.n(nm["hand"]), s.p((0.68, 1.41, -0.02)), s.p((0.77, 1.41, -0.015)), fa, 0.03)
        for f in FINGERS:
            if f == "thumb":
                pts = [(0.70, 1.40, 0.01), (0.73, 1.39, 0.04), (0.755, 1.385, 0.06), (0.775, 1.38, 0.075),
                       (0.79, 1.378, 0.085)]
            else:
                z = FINGER_Z[f] - 0.015
                x0 = 0.77 if f in ("index", "middle") else 0.765
                l = {"index": 1.0, "middle": 1.08, "ring": 1.0, "pinky": 0.8}[f]
                pts = [(x0, 1.41, z), (x0 + 0.045 * l, 1.41, z), (x0 + 0.072 * l, 1.41, z),
                       (x0 + 0.092 * l, 1.41, z), (x0 + 0.105 * l, 1.41, z)]
            p = hand
            if metacarpals and nm.get("palm") and nm["palm"](f):
                p = rig.add(s.n(nm["palm"](f)), s.p((0.695, 1.41, -0.02 + (FINGER_Z[f] if f != "thumb" else 0.02) * 0.5)),
                            s.p(pts[0]), hand, 0.012)
            n = 4 if finger_ends else 3
            for i in range(1, n + 1):
                fr = s.n(nm["finger"](f, i))
                p = rig.add(fr, s.p(pts[i - 1]), s.p(pts[i]), p, 0.009 if i < 4 else 0.005, geom=i < 4)
        th = rig.add(s.n(nm["thigh"]), s.p((0.09, 0.93, -0.01)), s.p((0.10, 0.50, 0.0)), hips, 0.07)
        sh_ = rig.add(s.n(nm["shin"]), s.p((0.10, 0.50, 0.0)), s.p((0.10, 0.09, -0.03)), th, 0.055)
        ft = rig.add(s.n(nm["foot"]), s.p((0.10, 0.09, -0.03)), s.p((0.10, 0.03, 0.10)), sh_, 0.04)
        toe = rig.add(s.n(nm["toe"]), s.p((0.10, 0.03, 0.10)), s.p((0.10, 0.03, 0.17)), ft, 0.035)
        if nm.get("toe_end"):
            rig.add(s.n(nm["toe_end"]), s.p((0.10, 0.03, 0.17)), s.p((0.10, 0.03, 0.19)), toe, 0.01, geom=False)
        if extra:
            extra(s)

    rig.sym(side)
    return dict(hips=hips, chest=chest, neck=neck, head=head)


def hands_feet(nm, **kw):
    """Expectation of a biped with this naming."""
    hands = [Side(1).n(nm["hand"]), Side(-1).n(nm["hand"])]
    feet = [Side(1).n(nm["foot"]), Side(-1).n(nm["foot"])]
    return dict(legs=2, graspers=2, feet=2, grasper_bodies=hands, foot_bodies=feet, **kw)


def mixamo():
    r = Rig("mixamo_human", armature="Armature")
    M = "mixamorig:"
    nm = dict(hips=M + "Hips", spine=[M + "Spine", M + "Spine1", M + "Spine2"], neck=[M + "Neck"],
              head=M + "Head", head_end=M + "HeadTop_End", shoulder=M + "{Side}Shoulder",
              upperarm=M + "{Side}Arm", forearm=M + "{Side}ForeArm", hand=M + "{Side}Hand",
              finger=lambda f, i: M + "{Side}Hand" + f.capitalize() + str(i),
              thigh=M + "{Side}UpLeg", shin=M + "{Side}Leg", foot=M + "{Side}Foot", toe=M + "{Side}ToeBase",
              toe_end=M + "{Side}Toe_End")
    human(r, nm, finger_ends=True)
    return r, hands_feet(nm)


def unreal():
    r = Rig("unreal_mannequin")
    nm = dict(hips="pelvis", spine=["spine_01", "spine_02", "spine_03"], neck=["neck_01"], head="head",
              shoulder="clavicle_{s}", upperarm="upperarm_{s}", forearm="lowerarm_{s}", hand="hand_{s}",
              finger=lambda f, i: "%s_0%d_{s}" % (f, i), thigh="thigh_{s}", shin="calf_{s}",
              foot="foot_{s}", toe="ball_{s}")

    def twists(s):
        for bone, twist in (("upperarm", "upperarm_twist_01_{s}"), ("lowerarm", "lowerarm_twist_01_{s}"),
                            ("thigh", "thigh_twist_01_{s}"), ("calf", "calf_twist_01_{s}")):
            b = r.bones[r.index[s.n(bone + "_{s}")]]
            r.add(s.n(twist), lerp(b["head"], b["tail"], 0.5), b["tail"], b["name"], b["r"] * 0.9, geom=False)

    human(r, nm, root="root", extra=twists)
    ik = r.add("ik_foot_root", (0, 0, 0), (0, 0.1, 0), "root", geom=False)
    for s in (Side(1), Side(-1)):
        r.add(s.n("ik_foot_{s}"), s.p((0.10, 0.09, -0.03)), s.p((0.10, 0.09, 0.07)), ik, geom=False)
    ikh = r.add("ik_hand_root", (0, 0, 0), (0, 0.1, 0), "root", geom=False)
    gun = r.add("ik_hand_gun", (-0.68, 1.41, -0.02), (-0.68, 1.41, 0.08), ikh, geom=False)
    for s in (Side(1), Side(-1)):
        r.add(s.n("ik_hand_{s}"), s.p((0.68, 1.41, -0.02)), s.p((0.68, 1.41, 0.08)), gun, geom=False)
    return r, hands_feet(nm)


UNITY_SEG = {1: "Proximal", 2: "Intermediate", 3: "Distal"}


def unity():
    r = Rig("unity_humanoid", armature="Armature")
    nm = dict(hips="Hips", spine=["Spine", "Chest", "UpperChest"], neck=["Neck"], head="Head",
              shoulder="{Side}Shoulder", upperarm="{Side}UpperArm", forearm="{Side}LowerArm", hand="{Side}Hand",
              finger=lambda f, i: "{Side} %s %s" % ("Little" if f == "pinky" else f.capitalize(), UNITY_SEG[i]),
              thigh="{Side}UpperLeg", shin="{Side}LowerLeg", foot="{Side}Foot", toe="{Side}Toes")
    k = human(r, nm)
    for s in (Side(1), Side(-1)):
        r.add(s.n("{Side}Eye"), s.p((0.032, 1.66, 0.07)), s.p((0.032, 1.66, 0.09)), k["head"], 0.012)
    r.add("Jaw", (0, 1.62, 0.03), (0, 1.58, 0.10), k["head"], 0.025)
    return r, hands_feet(nm)


def vrm():
    r = Rig("vrm_avatar")
    nm = dict(hips="J_Bip_C_Hips", spine=["J_Bip_C_Spine", "J_Bip_C_Chest", "J_Bip_C_UpperChest"],
              neck=["J_Bip_C_Neck"], head="J_Bip_C_Head", shoulder="J_Bip_{S}_Shoulder",
              upperarm="J_Bip_{S}_UpperArm", forearm="J_Bip_{S}_LowerArm", hand="J_Bip_{S}_Hand",
              finger=lambda f, i: "J_Bip_{S}_%s%d" % ("Little" if f == "pinky" else f.capitalize(), i),
              thigh="J_Bip_{S}_UpperLeg", shin="J_Bip_{S}_LowerLeg", foot="J_Bip_{S}_Foot", toe="J_Bip_{S}_ToeBase")
    k = human(r, nm, root="Root")
    head = k["head"]
    for s in (Side(1), Side(-1)):
        r.add(s.n("J_Adj_{S}_FaceEye"), s.p((0.032, 1.66, 0.07)), s.p((0.032, 1.66, 0.09)), head, 0.012)
        b = r.add(s.n("J_Sec_{S}_Bust1"), s.p((0.09, 1.30, 0.04)), s.p((0.09, 1.28, 0.09)), k["chest"], 0.04)
        r.add(s.n("J_Sec_{S}_Bust2"), s.p((0.09, 1.28, 0.09)), s.p((0.09, 1.27, 0.11)), b, 0.03)
    # Hair: a back chain, two long side locks hanging in front of the shoulders, a fringe.
    hair = [("J_Sec_Hair1_0%d", (0, 1.72, -0.08), (0, 1.30, -0.14), 4),
            ("J_Sec_Hair2_0%d", (0.08, 1.68, 0.02), (0.14, 1.25, 0.06), 4),
            ("J_Sec_Hair3_0%d", (-0.08, 1.68, 0.02), (-0.14, 1.25, 0.06), 4),
            ("J_Sec_Hair4_0%d", (0.0, 1.74, 0.08), (0.0, 1.66, 0.12), 2),
            ("J_Sec_Hair5_0%d", (0.06, 1.72, -0.06), (0.10, 1.40, -0.12), 3),
            ("J_Sec_Hair6_0%d", (-0.06, 1.72, -0.06), (-0.10, 1.40, -0.12), 3)]
    for tmpl, a, b, n in hair:
        r.chain([tmpl % (i + 1) for i in range(n)], line(a, b, n), head, 0.02, 0.85)
    return r, hands_feet(nm, note="VRoid-style: J_Sec_Hair side locks hang free in front of the shoulders; bust bones are not limbs")


def rigify():
    r = Rig("rigify_human", armature="metarig")
    fn = {"thumb": "thumb", "index": "f_index", "middle": "f_middle", "ring": "f_ring", "pinky": "f_pinky"}
    palm = {"thumb": None, "index": "palm.01.{S}", "middle": "palm.02.{S}", "ring": "palm.03.{S}", "pinky": "palm.04.{S}"}
    nm = dict(hips="spine", spine=["spine.001", "spine.002", "spine.003"], neck=["spine.004", "spine.005"],
              head="spine.006", shoulder="shoulder.{S}", upperarm="upper_arm.{S}", forearm="forearm.{S}",
              hand="hand.{S}", finger=lambda f, i: "%s.0%d.{S}" % (fn[f], i), palm=lambda f: palm[f],
              thigh="thigh.{S}", shin="shin.{S}", foot="foot.{S}", toe="toe.{S}")

    def heel(s):
        r.add(s.n("heel.02.{S}"), s.p((0.07, 0.02, -0.05)), s.p((0.13, 0.02, -0.05)), s.n("foot.{S}"), 0.01, geom=False)

    human(r, nm, metacarpals=True, extra=heel)
    # Rigify's thumb hangs from palm.01
    for s in (Side(1), Side(-1)):
        r.bones[r.index[s.n("thumb.01.{S}")]]["parent"] = s.n("palm.01.{S}")
    H = "spine.006"
    face = r.add("face", (0, 1.58, 0.0), (0, 1.70, 0.0), H, 0.01, geom=False)
    r.add("nose", (0, 1.67, 0.10), (0, 1.63, 0.12), face, 0.012)
    r.add("nose.001", (0, 1.63, 0.12), (0, 1.62, 0.11), "nose", 0.008)
    jaw = r.add("jaw", (0, 1.61, 0.03), (0, 1.575, 0.10), face, 0.03)
    r.add("chin", (0, 1.575, 0.10), (0, 1.565, 0.105), jaw, 0.01)
    t = r.chain(["tongue", "tongue.001", "tongue.002"], line((0, 1.60, 0.07), (0, 1.60, 0.02), 3)[::-1], jaw, 0.01)
    r.add("teeth.T", (0, 1.605, 0.09), (0, 1.605, 0.07), face, 0.01)
    r.add("teeth.B", (0, 1.59, 0.09), (0, 1.59, 0.07), jaw, 0.01)

    def face_side(s):
        r.add(s.n("eye.{S}"), s.p((0.032, 1.66, 0.07)), s.p((0.032, 1.66, 0.09)), face, 0.012)
        r.add(s.n("lid.T.{S}"), s.p((0.02, 1.67, 0.09)), s.p((0.045, 1.67, 0.09)), face, 0.004)
        r.add(s.n("lid.B.{S}"), s.p((0.02, 1.65, 0.09)), s.p((0.045, 1.65, 0.09)), face, 0.004)
        r.add(s.n("brow.T.{S}"), s.p((0.015, 1.69, 0.10)), s.p((0.055, 1.69, 0.09)), face, 0.005)
        r.add(s.n("cheek.T.{S}"), s.p((0.05, 1.64, 0.08)), s.p((0.03, 1.62, 0.10)), face, 0.008)
        r.add(s.n("lip.T.{S}"), s.p((0.0, 1.605, 0.11)), s.p((0.025, 1.60, 0.10)), face, 0.005)
        r.add(s.n("lip.B.{S}"), s.p((0.0, 1.59, 0.11)), s.p((0.025, 1.595, 0.10)), jaw, 0.005)
        r.add(s.n("temple.{S}"), s.p((0.07, 1.69, 0.05)), s.p((0.075, 1.64, 0.03)), face, 0.006)
        e = r.add(s.n("ear.{S}"), s.p((0.08, 1.66, -0.005)), s.p((0.09, 1.69, -0.02)), face, 0.01)
        r.add(s.n("ear.{S}.001"), s.p((0.09, 1.69, -0.02)), s.p((0.088, 1.70, -0.04)), e, 0.008)
        r.add(s.n("breast.{S}"), s.p((0.10, 1.28, 0.04)), s.p((0.10, 1.27, 0.12)), "spine.003", 0.04)

    r.sym(face_side)
    exp = hands_feet(nm, note="Rigify metarig: palm.01-04 are metacarpals (children of hand), thumb.01 hangs from palm.01")
    return r, exp


# ---------------------------------------------------------------------------------------------
# Quadrupeds


def quad_expect(front, back, **kw):
    f = [Side(1).n(front), Side(-1).n(front), Side(1).n(back), Side(-1).n(back)]
    return dict(legs=4, graspers=0, feet=4, grasper_bodies=[], foot_bodies=f, **kw)


def cat():
    """A Blender cat (house cat, 25 cm at the shoulder), Rigify-quadruped-style names."""
    r = Rig("blender_cat", armature="Armature")
    hips = r.add("spine", (0, 0.24, -0.19), (0, 0.245, -0.10), None, 0.05)
    chest = r.chain(["spine.001", "spine.002", "spine.003"], line((0, 0.245, -0.10), (0, 0.25, 0.14), 3), hips, 0.055)
    neck = r.add("neck", (0, 0.25, 0.14), (0, 0.30, 0.20), chest, 0.03)
    head = r.add("head", (0, 0.30, 0.20), (0, 0.30, 0.29), neck, 0.04)
    r.add("jaw", (0, 0.285, 0.22), (0, 0.275, 0.285), head, 0.015)
    r.chain(["tail", "tail.001", "tail.002", "tail.003", "tail.004"],
            [(0, 0.24, -0.20), (0, 0.25, -0.27), (0, 0.27, -0.34), (0, 0.30, -0.40), (0, 0.34, -0.44), (0, 0.38, -0.46)],
            hips, 0.012, 0.9)

    def side(s):
        r.add(s.n("eye.{S}"), s.p((0.02, 0.32, 0.27)), s.p((0.02, 0.32, 0.28)), head, 0.007)
        e = r.add(s.n("ear.{S}"), s.p((0.025, 0.33, 0.23)), s.p((0.035, 0.36, 0.225)), head, 0.012)
        r.add(s.n("ear.{S}.001"), s.p((0.035, 0.36, 0.225)), s.p((0.04, 0.38, 0.22)), e, 0.008)
        sh = r.add(s.n("shoulder.{S}"), s.p((0.02, 0.25, 0.12)), s.p((0.045, 0.20, 0.14)), chest, 0.02)
        ua = r.add(s.n("upper_arm.{S}"), s.p((0.045, 0.20, 0.14)), s.p((0.05, 0.12, 0.11)), sh, 0.018)
        fa = r.add(s.n("forearm.{S}"), s.p((0.05, 0.12, 0.11)), s.p((0.05, 0.035, 0.13)), ua, 0.014)
        hand = r.add(s.n("hand.{S}"), s.p((0.05, 0.035, 0.13)), s.p((0.05, 0.016, 0.145)), fa, 0.012)
        for k, (dx, f) in enumerate(zip((0.012, 0.004, -0.004, -0.012), ("f_index", "f_middle", "f_ring", "f_pinky"))):
            x = 0.05 + dx
            p = r.add(s.n("palm.0%d.{S}" % (k + 1)), s.p((0.05 + dx * 0.4, 0.016, 0.145)), s.p((x, 0.01, 0.16)), hand, 0.005)
            r.chain([s.n(f + ".01.{S}"), s.n(f + ".02.{S}")], s.ps([(x, 0.01, 0.16), (x, 0.006, 0.172), (x, 0.005, 0.18)]), p, 0.004)
        th = r.add(s.n("thigh.{S}"), s.p((0.045, 0.23, -0.17)), s.p((0.05, 0.14, -0.12)), hips, 0.025)
        sn = r.add(s.n("shin.{S}"), s.p((0.05, 0.14, -0.12)), s.p((0.05, 0.075, -0.21)), th, 0.016)
        ft = r.add(s.n("foot.{S}"), s.p((0.05, 0.075, -0.21)), s.p((0.05, 0.012, -0.17)), sn, 0.01)
        r.add(s.n("toe.{S}"), s.p((0.05, 0.012, -0.17)), s.p((0.05, 0.006, -0.135)), ft, 0.01)

    r.sym(side)
    return r, quad_expect("hand.{S}", "foot.{S}", note="front paws: forearm → hand (wrist) → palm.01-04 → f_* toes; hind: shin → foot → toe")


def wolf():
    """A game wolf (80 cm at the shoulder) with every paw bone: metacarpal-level paw, toes in two
    segments with claws, a dewclaw on the front paws."""
    r = Rig("wolf", armature="Wolf_Rig")
    root = r.add("Root", (0, 0, 0), (0, 0, 0.3), None, geom=False)
    pel = r.add("Pelvis", (0, 0.78, -0.45), (0, 0.79, -0.30), root, 0.12)
    chest = r.chain(["Spine_01", "Spine_02", "Spine_03"], line((0, 0.79, -0.30), (0, 0.82, 0.35), 3), pel, 0.14)
    neck = r.chain(["Neck_01", "Neck_02"], line((0, 0.82, 0.35), (0, 0.98, 0.55), 2), chest, 0.08)
    head = r.add("Head", (0, 0.98, 0.55), (0, 0.95, 0.72), neck, 0.09)
    jaw = r.add("Jaw", (0, 0.92, 0.60), (0, 0.86, 0.80), head, 0.04)
    r.chain(["Tongue_01", "Tongue_02"], line((0, 0.90, 0.62), (0, 0.88, 0.76), 2), jaw, 0.02)
    r.chain(["Tail_0%d" % i for i in range(1, 6)], line((0, 0.76, -0.48), (0, 0.45, -0.85), 5), pel, 0.05, 0.85)

    def side(s):
        r.add(s.n("Eye_{S}"), s.p((0.04, 1.02, 0.68)), s.p((0.04, 1.02, 0.70)), head, 0.012)
        r.chain([s.n("Ear_01_{S}"), s.n("Ear_02_{S}")], s.ps(line((0.05, 1.04, 0.60), (0.07, 1.14, 0.58), 2)), head, 0.025)
        sc = r.add(s.n("Scapula_{S}"), s.p((0.05, 0.82, 0.30)), s.p((0.10, 0.66, 0.34)), chest, 0.05)
        ua = r.add(s.n("UpperArm_{S}"), s.p((0.10, 0.66, 0.34)), s.p((0.11, 0.44, 0.28)), sc, 0.05)
        fa = r.add(s.n("Forearm_{S}"), s.p((0.11, 0.44, 0.28)), s.p((0.11, 0.13, 0.30)), ua, 0.035)
        paw = r.add(s.n("FrontPaw_{S}"), s.p((0.11, 0.13, 0.30)), s.p((0.11, 0.04, 0.33)), fa, 0.03)
        r.add(s.n("Dewclaw_{S}"), s.p((0.09, 0.10, 0.31)), s.p((0.085, 0.08, 0.33)), paw, 0.008)
        hip_ = r.add(s.n("Thigh_{S}"), s.p((0.09, 0.76, -0.40)), s.p((0.11, 0.50, -0.28)), pel, 0.07)
        sn = r.add(s.n("Shin_{S}"), s.p((0.11, 0.50, -0.28)), s.p((0.11, 0.24, -0.46)), hip_, 0.045)
        hp = r.add(s.n("HindPaw_{S}"), s.p((0.11, 0.24, -0.46)), s.p((0.11, 0.04, -0.40)), sn, 0.03)
        for pre, p, z in (("Front", paw, 0.33), ("Hind", hp, -0.40)):
            for k, dx in enumerate((0.025, 0.008, -0.008, -0.025)):
                x = 0.11 + dx
                r.chain([s.n("%sToe%d_01_{S}" % (pre, k + 1)), s.n("%sToe%d_02_{S}" % (pre, k + 1)),
                         s.n("%sToe%d_Claw_{S}" % (pre, k + 1))],
                        s.ps([(x, 0.04, z), (x, 0.025, z + 0.03), (x, 0.015, z + 0.05), (x, 0.008, z + 0.065)]), p, 0.009)

    r.sym(side)
    return r, quad_expect("FrontPaw_{S}", "HindPaw_{S}", note="FrontPaw is the wrist-level body of the front paw; HindPaw the metatarsus from the hock")


def horse():
    """A horse (1.6 m at the withers) with a mane chain hanging from the neck."""
    r = Rig("blender_horse", armature="Armature")
    hips = r.add("spine", (0, 1.50, -0.70), (0, 1.52, -0.40), None, 0.22)
    chest = r.chain(["spine.001", "spine.002", "spine.003"], line((0, 1.52, -0.40), (0, 1.55, 0.55), 3), hips, 0.26)
    neck = r.chain(["neck.01", "neck.02", "neck.03", "neck.04"],
                   [(0, 1.55, 0.55), (0, 1.70, 0.70), (0, 1.85, 0.82), (0, 1.98, 0.92), (0, 2.05, 0.98)], chest, 0.12, 0.9)
    head = r.add("head", (0, 2.05, 0.98), (0, 1.75, 1.38), neck, 0.11)
    r.add("jaw", (0, 1.92, 1.05), (0, 1.70, 1.35), head, 0.05)
    r.chain(["mane.01", "mane.02", "mane.03"], [(0, 1.98, 0.84), (0, 1.84, 0.72), (0, 1.70, 0.60), (0, 1.58, 0.50)],
            "neck.02", 0.03)
    r.chain(["tail.0%d" % i for i in range(1, 6)], [(0, 1.52, -0.78), (0, 1.40, -0.88), (0, 1.22, -0.92),
                                                     (0, 1.02, -0.94), (0, 0.84, -0.95), (0, 0.70, -0.95)], hips, 0.06, 0.85)

    def side(s):
        r.add(s.n("eye.{S}"), s.p((0.08, 2.0, 1.10)), s.p((0.09, 2.0, 1.12)), head, 0.02)
        r.chain([s.n("ear.{S}"), s.n("ear.{S}.001")], s.ps(line((0.06, 2.10, 1.00), (0.08, 2.25, 0.97), 2)), head, 0.025)
        sh = r.add(s.n("shoulder.{S}"), s.p((0.10, 1.55, 0.40)), s.p((0.17, 1.20, 0.55)), chest, 0.10)
        ua = r.add(s.n("upper_arm.{S}"), s.p((0.17, 1.20, 0.55)), s.p((0.18, 0.95, 0.40)), sh, 0.09)
        fa = r.add(s.n("forearm.{S}"), s.p((0.18, 0.95, 0.40)), s.p((0.18, 0.50, 0.42)), ua, 0.06)
        cn = r.add(s.n("cannon.{S}"), s.p((0.18, 0.50, 0.42)), s.p((0.18, 0.22, 0.42)), fa, 0.04)
        ps = r.add(s.n("pastern.{S}"), s.p((0.18, 0.22, 0.42)), s.p((0.18, 0.09, 0.47)), cn, 0.035)
        r.add(s.n("hoof.{S}"), s.p((0.18, 0.09, 0.47)), s.p((0.18, 0.0, 0.52)), ps, 0.05)
        th = r.add(s.n("thigh.{S}"), s.p((0.16, 1.45, -0.60)), s.p((0.19, 0.95, -0.45)), hips, 0.13)
        sn = r.add(s.n("shin.{S}"), s.p((0.19, 0.95, -0.45)), s.p((0.19, 0.55, -0.70)), th, 0.07)
        cn = r.add(s.n("cannon_hind.{S}"), s.p((0.19, 0.55, -0.70)), s.p((0.19, 0.22, -0.66)), sn, 0.04)
        ps = r.add(s.n("pastern_hind.{S}"), s.p((0.19, 0.22, -0.66)), s.p((0.19, 0.09, -0.61)), cn, 0.035)
        r.add(s.n("hoof_hind.{S}"), s.p((0.19, 0.09, -0.61)), s.p((0.19, 0.0, -0.56)), ps, 0.05)

    r.sym(side)
    return r, quad_expect("hoof.{S}", "hoof_hind.{S}",
                          note="a horse's foot is its hoof (the body on the ground, where a rigger puts the foot control); "
                               "cannon and pastern are part of the leg. The mane chain hangs from neck.02 and is no limb.")


def lion():
    """A lion-like chimera (1 m at the shoulder) with ears, horns, a mane, a tufted tail, Unreal-style
    `_l`/`_r` names: its front paw is `hand_l`, which on a quadruped is a foot, not a grasper."""
    r = Rig("horned_lion")
    root = r.add("root", (0, 0, 0), (0, 0, 0.3), None, geom=False)
    pel = r.add("pelvis", (0, 0.95, -0.60), (0, 0.96, -0.40), root, 0.16)
    chest = r.chain(["spine_01", "spine_02", "spine_03"], line((0, 0.96, -0.40), (0, 1.00, 0.45), 3), pel, 0.2)
    neck = r.chain(["neck_01", "neck_02"], line((0, 1.00, 0.45), (0, 1.18, 0.70), 2), chest, 0.12)
    head = r.add("head", (0, 1.18, 0.70), (0, 1.12, 0.95), neck, 0.13)
    r.add("jaw", (0, 1.08, 0.78), (0, 1.02, 0.98), head, 0.05)
    r.chain(["tail_0%d" % i for i in range(1, 7)], [(0, 0.92, -0.65), (0, 0.85, -0.80), (0, 0.70, -0.90), (0, 0.55, -0.95),
                                                   (0, 0.42, -1.00), (0, 0.35, -1.08), (0, 0.33, -1.18)], pel, 0.04, 0.85)
    r.add("tail_tuft", (0, 0.33, -1.18), (0, 0.32, -1.28), "tail_06", 0.04)
    # Mane: chains hanging from the back of the head and the neck.
    for nm_, a, b in (("mane_c", (0, 1.32, 0.62), (0, 1.05, 0.45)), ("mane_l", (0.12, 1.25, 0.68), (0.18, 0.85, 0.60)),
                      ("mane_r", (-0.12, 1.25, 0.68), (-0.18, 0.85, 0.60))):
        r.chain(["%s_0%d" % (nm_, i) for i in range(1, 4)], line(a, b, 3), head, 0.05, 0.85)

    def side(s):
        r.add(s.n("eye_{s}"), s.p((0.05, 1.24, 0.90)), s.p((0.05, 1.24, 0.92)), head, 0.015)
        r.chain([s.n("ear_01_{s}"), s.n("ear_02_{s}")], s.ps(line((0.09, 1.30, 0.78), (0.12, 1.38, 0.76), 2)), head, 0.03)
        r.chain([s.n("horn_01_{s}"), s.n("horn_02_{s}"), s.n("horn_03_{s}")],
                s.ps([(0.06, 1.30, 0.84), (0.10, 1.42, 0.80), (0.15, 1.48, 0.70), (0.17, 1.45, 0.62)]), head, 0.03, 0.7)
        cl = r.add(s.n("clavicle_{s}"), s.p((0.06, 1.00, 0.40)), s.p((0.14, 0.80, 0.45)), chest, 0.08)
        ua = r.add(s.n("upperarm_{s}"), s.p((0.14, 0.80, 0.45)), s.p((0.15, 0.55, 0.38)), cl, 0.08)
        la = r.add(s.n("lowerarm_{s}"), s.p((0.15, 0.55, 0.38)), s.p((0.15, 0.13, 0.40)), ua, 0.05)
        hand = r.add(s.n("hand_{s}"), s.p((0.15, 0.13, 0.40)), s.p((0.15, 0.04, 0.45)), la, 0.045)
        th = r.add(s.n("thigh_{s}"), s.p((0.12, 0.92, -0.55)), s.p((0.15, 0.60, -0.40)), pel, 0.1)
        cf = r.add(s.n("calf_{s}"), s.p((0.15, 0.60, -0.40)), s.p((0.15, 0.28, -0.60)), th, 0.06)
        ft = r.add(s.n("foot_{s}"), s.p((0.15, 0.28, -0.60)), s.p((0.15, 0.04, -0.52)), cf, 0.04)
        r.add(s.n("ball_{s}"), s.p((0.15, 0.04, -0.52)), s.p((0.15, 0.015, -0.44)), ft, 0.04)
        for k, dx in enumerate((0.03, 0.01, -0.01, -0.03)):
            x = 0.15 + dx
            r.chain([s.n("claw_0%d_a_{s}" % (k + 1)), s.n("claw_0%d_b_{s}" % (k + 1))],
                    s.ps([(x, 0.04, 0.45), (x, 0.02, 0.49), (x, 0.01, 0.52)]), hand, 0.012)

    r.sym(side)
    return r, quad_expect("hand_{s}", "foot_{s}", note="Unreal-style names on a quadruped: hand_l is the front paw, a foot")


# ---------------------------------------------------------------------------------------------
# Bird, fish, insect, octopus


def bird():
    """A crow-sized bird (40 cm), wings spread, with feather chains and four toes per foot."""
    r = Rig("blender_bird", armature="Armature")
    hips = r.add("spine", (0, 0.20, -0.06), (0, 0.22, 0.0), None, 0.05)
    chest = r.chain(["spine.001", "spine.002"], line((0, 0.22, 0.0), (0, 0.26, 0.08), 2), hips, 0.06)
    neck = r.chain(["neck.001", "neck.002", "neck.003"], line((0, 0.26, 0.08), (0, 0.34, 0.11), 3), chest, 0.025)
    head = r.add("head", (0, 0.34, 0.11), (0, 0.36, 0.15), neck, 0.03)
    r.add("beak.upper", (0, 0.35, 0.15), (0, 0.345, 0.20), head, 0.01)
    r.add("beak.lower", (0, 0.34, 0.15), (0, 0.337, 0.19), head, 0.008)
    tail = r.add("tail", (0, 0.20, -0.07), (0, 0.19, -0.12), hips, 0.025)
    for k, dx in enumerate((-0.04, -0.02, 0.0, 0.02, 0.04)):
        r.add("tail_feather.0%d" % (k + 1), (dx * 0.3, 0.19, -0.12), (dx, 0.18, -0.24), tail, 0.008)

    def side(s):
        r.add(s.n("eye.{S}"), s.p((0.015, 0.355, 0.14)), s.p((0.02, 0.355, 0.145)), head, 0.005)
        w = [(0.04, 0.26, 0.05), (0.14, 0.27, 0.03), (0.26, 0.27, 0.04), (0.36, 0.27, 0.03)]
        wing = r.chain([s.n("wing.{S}"), s.n("wing.{S}.001"), s.n("wing.{S}.002")], s.ps(w), chest, 0.015)
        k = 0
        for seg, n in ((s.n("wing.{S}"), 2), (s.n("wing.{S}.001"), 3), (s.n("wing.{S}.002"), 3)):
            b = r.bones[r.index[seg]]
            for i in range(n):
                k += 1
                a = lerp(b["head"], b["tail"], (i + 0.5) / n)
                r.add(s.n("feather.{S}.%02d" % k), a, (a[0], a[1] - 0.005, a[2] - 0.12 - 0.01 * k), seg, 0.006)
        th = r.add(s.n("thigh.{S}"), s.p((0.03, 0.19, -0.02)), s.p((0.035, 0.14, 0.02)), hips, 0.02)
        sn = r.add(s.n("shin.{S}"), s.p((0.035, 0.14, 0.02)), s.p((0.035, 0.08, -0.02)), th, 0.012)
        ft = r.add(s.n("foot.{S}"), s.p((0.035, 0.08, -0.02)), s.p((0.035, 0.012, 0.0)), sn, 0.006)
        for name, d in (("toe_inner", (0.02, 0.0, 0.03)), ("toe_mid", (0.0, 0.0, 0.04)), ("toe_outer", (-0.02, 0.0, 0.03)),
                        ("toe_back", (0.0, 0.0, -0.03))):
            a = (0.035, 0.008, 0.0)
            pts = [a, add(a, tuple(c * 0.5 for c in d)), add(a, d), add(a, tuple(c * 1.3 for c in d))]
            r.chain([s.n(name + ".01.{S}"), s.n(name + ".02.{S}"), s.n(name + ".03.{S}")], s.ps(pts), ft, 0.004)

    r.sym(side)
    return r, dict(legs=2, graspers=0, feet=2, grasper_bodies=[], foot_bodies=["foot.L", "foot.R"],
                   note="wings and feathers are neither legs nor graspers; foot.L is the tarsometatarsus, toes hang from it")


def shark():
    """A 2.2 m shark, lying level (its belly on y = 0): spine, fins, tail; no legs."""
    r = Rig("shark", armature="Armature")
    y = 0.40
    root = r.add("root", (0, y, -0.1), (0, y, 0.3), None, 0.2)
    head = r.chain(["spine.001", "head"], [(0, y, 0.3), (0, y, 0.7), (0, y - 0.02, 1.1)], root, 0.18, 0.8)
    r.add("jaw", (0, y - 0.08, 0.75), (0, y - 0.12, 1.0), "head", 0.06)
    tail = r.chain(["tail.001", "tail.002", "tail.003", "tail.004"], line((0, y, -0.1), (0, y + 0.02, -0.95), 4), root, 0.15, 0.75)
    r.chain(["fin_caudal_upper", "fin_caudal_upper.001"], [(0, y + 0.02, -0.95), (0, y + 0.20, -1.05), (0, y + 0.38, -1.15)], tail, 0.03)
    r.chain(["fin_caudal_lower"], [(0, y + 0.02, -0.95), (0, y - 0.18, -1.05)], tail, 0.03)
    r.chain(["fin_dorsal", "fin_dorsal.001"], [(0, y + 0.18, 0.15), (0, y + 0.32, 0.0), (0, y + 0.42, -0.12)], root, 0.03)
    r.add("fin_dorsal_2", (0, y + 0.12, -0.55), (0, y + 0.20, -0.62), "tail.002", 0.02)
    r.add("fin_anal", (0, y - 0.10, -0.55), (0, y - 0.18, -0.62), "tail.002", 0.02)

    def side(s):
        r.add(s.n("eye.{S}"), s.p((0.10, y + 0.04, 0.85)), s.p((0.11, y + 0.04, 0.87)), head, 0.015)
        r.chain([s.n("fin_pectoral.{S}"), s.n("fin_pectoral.{S}.001")],
                s.ps([(0.12, y - 0.10, 0.40), (0.30, y - 0.22, 0.25), (0.45, y - 0.32, 0.12)]), "spine.001", 0.03)
        r.add(s.n("fin_pelvic.{S}"), s.p((0.07, y - 0.12, -0.35)), s.p((0.15, y - 0.20, -0.45)), "tail.001", 0.02)
        for g in range(1, 4):
            r.add(s.n("gill.{S}.%d" % g), s.p((0.15, y, 0.55 - g * 0.04)), s.p((0.16, y - 0.05, 0.55 - g * 0.04)), "spine.001", 0.005)

    r.sym(side)
    return r, dict(legs=0, graspers=0, feet=0, grasper_bodies=[], foot_bodies=[],
                   note="pectoral fins point down and out like limbs but are fins: no legs, feet or graspers")


def insect():
    """A giant beetle (30 cm long): head with mandibles and antennae, thorax, abdomen, six legs of
    coxa → femur → tibia → tarsus, wings."""
    r = Rig("insect", armature="Armature")
    th = r.add("thorax", (0, 0.08, -0.02), (0, 0.085, 0.06), None, 0.03)
    r.chain(["abdomen", "abdomen.001", "abdomen.002"], line((0, 0.08, -0.02), (0, 0.07, -0.17), 3), th, 0.04, 0.8)
    head = r.add("head", (0, 0.085, 0.06), (0, 0.08, 0.10), th, 0.025)
    spec = (("front", 0.05, 0.10), ("middle", 0.02, 0.0), ("back", -0.01, -0.10))

    def side(s):
        r.add(s.n("mandible_{s}"), s.p((0.012, 0.072, 0.10)), s.p((0.005, 0.07, 0.13)), head, 0.004)
        r.chain([s.n("antenna_{s}_0%d" % i) for i in (1, 2, 3)],
                s.ps([(0.01, 0.095, 0.095), (0.025, 0.12, 0.12), (0.04, 0.14, 0.15), (0.05, 0.15, 0.18)]), head, 0.003)
        r.add(s.n("elytron_{s}"), s.p((0.01, 0.11, 0.04)), s.p((0.035, 0.10, -0.12)), th, 0.01)
        r.chain([s.n("wing_{s}"), s.n("wing_{s}_01")], s.ps([(0.01, 0.105, 0.03), (0.05, 0.105, -0.06), (0.07, 0.10, -0.14)]), th, 0.005)
        for pos_, z, dz in spec:
            names = [s.n("leg_%s_{s}" % pos_), s.n("leg_%s_{s}_femur" % pos_), s.n("leg_%s_{s}_tibia" % pos_),
                     s.n("leg_%s_{s}_tarsus" % pos_)]
            pts = [(0.02, 0.07, z), (0.04, 0.075, z + dz * 0.1), (0.09, 0.10, z + dz * 0.4), (0.13, 0.02, z + dz * 0.7),
                   (0.15, 0.0, z + dz * 0.8)]
            r.chain(names, s.ps(pts), th, 0.008, 0.85)

    r.sym(side)
    feet = [Side(sg).n("leg_%s_{s}_tarsus" % p) for p, _, _ in spec for sg in (1, -1)]
    return r, dict(legs=6, graspers=0, feet=6, grasper_bodies=[], foot_bodies=feet,
                   note="mandibles, antennae, elytra and wings are none of legs, feet or graspers")


def octopus():
    """An octopus (mantle 30 cm) with 8 arms of 6 segments spread on the ground around it."""
    r = Rig("octopus", armature="Armature")
    body = r.add("body", (0, 0.12, 0.0), (0, 0.20, 0.0), None, 0.10)
    r.add("mantle", (0, 0.20, 0.0), (0, 0.32, -0.15), body, 0.10)
    feet = []
    for k in range(8):
        ang = math.radians(22.5 + 45 * k)  # around +Y, 0 = +Z (forward)
        d = (math.sin(ang), 0.0, math.cos(ang))
        side = "L" if d[0] > 0 else "R"
        num = (k if k < 4 else 7 - k) + 1  # 1 = front pair ... 4 = back pair
        names = ["tentacle_%s%d_0%d" % (side, num, i) for i in range(1, 7)]
        pts = [(0.08 * d[0], 0.10, 0.08 * d[2])]
        for i in range(1, 7):
            rr = 0.08 + 0.09 * i
            pts.append((rr * d[0], max(0.012, 0.10 - 0.035 * i), rr * d[2]))
        r.chain(names, pts, body, 0.03, 0.8)
        # Segments 03 on lie on the ground: the foot is the first of them, as a human's foot is
        # the ankle and not the toe tip (body i starts at pts[i - 1]).
        feet.append(names[3])
    for s in (Side(1), Side(-1)):
        r.add(s.n("eye_{s}"), s.p((0.07, 0.2, 0.06)), s.p((0.08, 0.2, 0.07)), body, 0.015)
    feet.sort()
    return r, dict(legs=8, graspers=0, feet=8, grasper_bodies=[], foot_bodies=feet,
                   note="decided: an octopus crawls on its arms, so each of the 8 tentacles is a leg; its foot is "
                        "the first segment lying on the ground (segment 04; 05 and 06 are its toes), as a human's foot "
                        "is the ankle and not the toe tip; none is a grasper, since no arm is set apart as a hand")


def fox():
    """A fox (40 cm at the shoulder) whose paws fan out into digits that Blender left with its
    default names ("Bone.012"): each digit lies on the ground, so geometry alone must tell a
    paw's toes from legs of their own."""
    r = Rig("fox", armature="Armature")
    hips = r.add("pelvis", (0, 0.38, -0.28), (0, 0.39, -0.16), None, 0.07)
    chest = r.chain(["spine_1", "spine_2", "spine_3"], line((0, 0.39, -0.16), (0, 0.40, 0.20), 3), hips, 0.08)
    neck = r.add("neck", (0, 0.40, 0.20), (0, 0.48, 0.30), chest, 0.04)
    head = r.add("head", (0, 0.48, 0.30), (0, 0.47, 0.42), neck, 0.05)
    r.add("jaw", (0, 0.45, 0.33), (0, 0.43, 0.45), head, 0.02)
    r.chain(["tail_1", "tail_2", "tail_3", "tail_4"], line((0, 0.38, -0.30), (0, 0.25, -0.70), 4), hips, 0.04, 0.85)
    count = [0]

    def bone():
        count[0] += 1
        return "Bone.%03d" % count[0]

    def side(s):
        r.add(s.n("eye.{S}"), s.p((0.03, 0.50, 0.40)), s.p((0.03, 0.50, 0.41)), head, 0.01)
        r.add(s.n("ear.{S}"), s.p((0.035, 0.52, 0.34)), s.p((0.05, 0.60, 0.33)), head, 0.015)
        ua = r.add(s.n("upper_arm.{S}"), s.p((0.06, 0.36, 0.17)), s.p((0.07, 0.22, 0.13)), chest, 0.03)
        fa = r.add(s.n("forearm.{S}"), s.p((0.07, 0.22, 0.13)), s.p((0.07, 0.05, 0.15)), ua, 0.02)
        fp = r.add(s.n("front_paw.{S}"), s.p((0.07, 0.05, 0.15)), s.p((0.07, 0.02, 0.17)), fa, 0.018)
        th = r.add(s.n("thigh.{S}"), s.p((0.06, 0.36, -0.26)), s.p((0.07, 0.22, -0.18)), hips, 0.04)
        sn = r.add(s.n("shin.{S}"), s.p((0.07, 0.22, -0.18)), s.p((0.07, 0.10, -0.30)), th, 0.025)
        hp = r.add(s.n("hind_paw.{S}"), s.p((0.07, 0.10, -0.30)), s.p((0.07, 0.02, -0.27)), sn, 0.018)
        for paw, z in ((fp, 0.17), (hp, -0.27)):
            for dx in (0.015, 0.005, -0.005, -0.015):
                x = 0.07 + dx
                d = r.add(s.n(bone()), s.p((x, 0.02, z)), s.p((x, 0.008, z + 0.02)), paw, 0.006)
                r.add(s.n(bone()), s.p((x, 0.008, z + 0.02)), s.p((x, 0.005, z + 0.035)), d, 0.005)

    r.sym(side)
    return r, quad_expect("front_paw.{S}", "hind_paw.{S}",
                          note="each paw fans out into four unnamed digits lying on the ground: they are its toes, "
                               "the paw is the foot (one foot per leg)")


RIGS = [mixamo, unreal, unity, vrm, rigify, cat, wolf, horse, bird, shark, insect, octopus, lion, fox]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "assets", "rigs")
    os.makedirs(out, exist_ok=True)
    table = []
    for make in RIGS:
        rig, exp = make()
        for b in exp["grasper_bodies"] + exp["foot_bodies"]:
            assert b in rig.index, (rig.name, b)
        assert exp["graspers"] == len(exp["grasper_bodies"]) and exp["feet"] == len(exp["foot_bodies"]), rig.name
        f = rig.name + ".glb"
        size = write_glb(rig, os.path.join(out, f))
        print("%-24s %4d bones %7d bytes" % (f, len(rig.bones), size))
        row = {"file": f}
        row.update(exp)
        row["bones"] = len(rig.bones)
        table.append(row)
    with open(os.path.join(out, "expected.json"), "w") as fh:
        json.dump(table, fh, indent=2)
        fh.write("\n")


if __name__ == "__main__":
    main()
