"""Builds test rigs the way artists do in Blender and exports each to glTF.

Run headless (Debian's `blender` and `python3-numpy` packages; the glTF add-on needs numpy):

    blender -b --factory-startup --python tools/blender/make_rigs.py -- tests/fixtures/gltf

Each rig is an armature in Blender's conventions (Z up, the creature facing -Y, its left at +X,
`.L`/`.R` names), some skinned to a simple mesh made of one box per bone with weights blended
at the joints, some bones only; one is a plain tree of parented mesh objects (no armature).
The Mixamo-style rig is built in centimetres under a 0.01 armature scale and faces +Y, as rigs
downloaded from the web often do, to exercise unit and facing handling.
"""

import sys
import os
import bpy
from mathutils import Vector

OUT = sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else "tests/fixtures/gltf"


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def mirror(bones):
    """Adds the .R / Right twin of every .L / Left bone (x negated)."""
    out = list(bones)
    for name, head, tail, parent, deform in bones:
        twin = None
        for l, r in ((".L", ".R"), ("Left", "Right"), ("_l", "_r")):
            if l in name:
                twin = name.replace(l, r)
                break
        if twin is None:
            continue
        p = parent
        if p:
            for l, r in ((".L", ".R"), ("Left", "Right"), ("_l", "_r")):
                p = p.replace(l, r)
        out.append((twin, (-head[0], head[1], head[2]), (-tail[0], tail[1], tail[2]), p, deform))
    return out


def armature(name, bones, scale=1.0, unit=1.0):
    """bones: (name, head, tail, parent, deform); coordinates in metres times `unit`."""
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.objects.active = obj
    obj.scale = (scale, scale, scale)
    bpy.ops.object.mode_set(mode="EDIT")
    for bname, head, tail, parent, deform in bones:
        eb = data.edit_bones.new(bname)
        eb.head = Vector(head) * unit
        eb.tail = Vector(tail) * unit
        eb.use_deform = deform
        if parent:
            eb.parent = data.edit_bones[parent]
            eb.use_connect = (eb.parent.tail - eb.head).length < 1e-6
    bpy.ops.object.mode_set(mode="OBJECT")
    return obj


def skin(arm, bones, unit=1.0, radius=0.04):
    """One box per deform bone, weighted to it and blended with its parent near the joint."""
    verts, faces, groups = [], [], []
    names = {b[0]: b for b in bones}
    for bname, head, tail, parent, deform in bones:
        if not deform:
            continue
        h, t = Vector(head) * unit, Vector(tail) * unit
        axis = t - h
        if axis.length < 1e-9:
            continue
        r = max(radius * unit, 0.12 * axis.length)
        side = axis.orthogonal().normalized() * r
        other = axis.normalized().cross(side).normalized() * r
        base = len(verts)
        for end, at in ((0, h), (1, t)):
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                verts.append(at + side * sx + other * sy)
                w = {bname: 1.0}
                if end == 0 and parent and names.get(parent, (0, 0, 0, 0, False))[4]:
                    w = {bname: 0.6, parent: 0.4}
                groups.append(w)
        faces += [(base + a, base + b, base + c, base + d) for a, b, c, d in
                  ((0, 1, 2, 3), (4, 7, 6, 5), (0, 4, 5, 1), (1, 5, 6, 2), (2, 6, 7, 3), (3, 7, 4, 0))]
    mesh = bpy.data.meshes.new(arm.name + "_mesh")
    mesh.from_pydata([tuple(v) for v in verts], [], faces)
    mesh.update()
    obj = bpy.data.objects.new(arm.name + "_body", mesh)
    bpy.context.scene.collection.objects.link(obj)
    vg = {}
    for i, w in enumerate(groups):
        for g, weight in w.items():
            if g not in vg:
                vg[g] = obj.vertex_groups.new(name=g)
            vg[g].add([i], weight, "REPLACE")
    obj.parent = arm
    mod = obj.modifiers.new("Armature", "ARMATURE")
    mod.object = arm
    return obj


def export(name):
    path = os.path.join(OUT, name + ".glb")
    bpy.ops.export_scene.gltf(filepath=path, export_format="GLB", export_animations=False,
                              export_skins=True, export_yup=True, export_materials="NONE")
    print("exported", path)


def humanoid_bones(prefix=""):
    b = [
        ("root", (0, 0, 0), (0, 0.4, 0), None, False),
        ("spine", (0, 0.02, 0.95), (0, 0.01, 1.1), "root", True),
        ("spine.001", (0, 0.01, 1.1), (0, 0.0, 1.25), "spine", True),
        ("spine.002", (0, 0.0, 1.25), (0, 0.0, 1.38), "spine.001", True),
        ("spine.003", (0, 0.0, 1.38), (0, 0.01, 1.5), "spine.002", True),
        ("neck", (0, 0.01, 1.5), (0, 0.0, 1.6), "spine.003", True),
        ("head", (0, 0.0, 1.6), (0, 0.0, 1.8), "neck", True),
        ("jaw", (0, -0.02, 1.64), (0, -0.1, 1.62), "head", True),
        ("eye.L", (0.03, -0.08, 1.7), (0.03, -0.1, 1.7), "head", True),
        ("shoulder.L", (0.02, 0.0, 1.46), (0.17, 0.02, 1.46), "spine.003", True),
        ("upper_arm.L", (0.18, 0.02, 1.45), (0.45, 0.02, 1.43), "shoulder.L", True),
        ("forearm.L", (0.45, 0.02, 1.43), (0.7, 0.0, 1.42), "upper_arm.L", True),
        ("hand.L", (0.7, 0.0, 1.42), (0.8, 0.0, 1.42), "forearm.L", True),
        ("thigh.L", (0.1, 0.02, 0.95), (0.1, 0.0, 0.52), "spine", True),
        ("shin.L", (0.1, 0.0, 0.52), (0.1, 0.03, 0.09), "thigh.L", True),
        ("foot.L", (0.1, 0.03, 0.09), (0.1, -0.11, 0.02), "shin.L", True),
        ("toe.L", (0.1, -0.11, 0.02), (0.1, -0.18, 0.02), "foot.L", True),
        ("heel.02.L", (0.06, 0.05, 0.0), (0.14, 0.05, 0.0), "foot.L", False),
    ]
    for f, dy in (("thumb", -0.04), ("f_index", -0.02), ("f_middle", 0.0), ("f_ring", 0.02), ("f_pinky", 0.04)):
        x = 0.8 if f != "thumb" else 0.74
        for i in range(3):
            parent = "hand.L" if i == 0 else f"{f}.0{i}.L"
            b.append((f"{f}.0{i + 1}.L", (x + 0.03 * i, dy, 1.42), (x + 0.03 * (i + 1), dy, 1.42), parent, True))
    return mirror(b)


def humanoid():
    reset()
    bones = humanoid_bones()
    arm = armature("Humanoid", bones)
    skin(arm, bones)
    export("humanoid")


def humanoid_unnamed():
    """The same body with Blender's default names: only geometry can tell the parts apart."""
    reset()
    bones = [b for b in humanoid_bones() if b[0] not in ("root",) and not b[0].startswith("heel")]
    rename = {b[0]: ("Bone" if i == 0 else f"Bone.{i:03d}") for i, b in enumerate(bones)}
    bones = [(rename[n], h, t, rename.get(p) if p != "root" else None, d) for n, h, t, p, d in bones]
    armature("Armature", bones)
    export("humanoid_unnamed")


def mixamo():
    """Mixamo-style names, modelled in centimetres under a 0.01 scale, facing +Y (backwards)."""
    reset()
    m = "mixamorig:"
    b = [
        (m + "Hips", (0, 0, 95), (0, 0, 105), None, True),
        (m + "Spine", (0, 0, 105), (0, 0, 118), m + "Hips", True),
        (m + "Spine1", (0, 0, 118), (0, 0, 132), m + "Spine", True),
        (m + "Spine2", (0, 0, 132), (0, 0, 148), m + "Spine1", True),
        (m + "Neck", (0, 0, 148), (0, 0, 160), m + "Spine2", True),
        (m + "Head", (0, 0, 160), (0, 0, 178), m + "Neck", True),
        (m + "HeadTop_End", (0, 0, 178), (0, 0, 185), m + "Head", True),
        (m + "LeftShoulder", (-3, 0, 145), (-17, 0, 145), m + "Spine2", True),
        (m + "LeftArm", (-17, 0, 145), (-30, 0, 120), m + "LeftShoulder", True),
        (m + "LeftForeArm", (-30, 0, 120), (-38, 0, 96), m + "LeftArm", True),
        (m + "LeftHand", (-38, 0, 96), (-40, 0, 88), m + "LeftForeArm", True),
        (m + "LeftUpLeg", (-10, 0, 93), (-10, 0, 52), m + "Hips", True),
        (m + "LeftLeg", (-10, 0, 52), (-10, -2, 9), m + "LeftUpLeg", True),
        (m + "LeftFoot", (-10, -2, 9), (-10, 10, 2), m + "LeftLeg", True),
        (m + "LeftToeBase", (-10, 10, 2), (-10, 16, 2), m + "LeftFoot", True),
        (m + "LeftToe_End", (-10, 16, 2), (-10, 19, 2), m + "LeftToeBase", True),
    ]
    for f, dy in (("Thumb", 2.5), ("Index", 1.5), ("Middle", 0), ("Ring", -1.5), ("Pinky", -3)):
        for i in range(1, 5):
            parent = m + "LeftHand" if i == 1 else f"{m}LeftHand{f}{i - 1}"
            b.append((f"{m}LeftHand{f}{i}", (-40, dy, 88 - 2.5 * (i - 1)), (-40, dy, 88 - 2.5 * i), parent, True))
    bones = mirror(b)
    arm = armature("Armature", bones, scale=0.01)
    skin(arm, bones, radius=4.0)
    export("mixamo_humanoid")


def horse():
    reset()
    b = [
        ("spine", (0, 0.7, 1.3), (0, 0.4, 1.35), None, True),
        ("spine.001", (0, 0.4, 1.35), (0, 0.1, 1.36), "spine", True),
        ("spine.002", (0, 0.1, 1.36), (0, -0.2, 1.37), "spine.001", True),
        ("spine.003", (0, -0.2, 1.37), (0, -0.5, 1.42), "spine.002", True),
        ("neck", (0, -0.5, 1.42), (0, -0.7, 1.65), "spine.003", True),
        ("neck.001", (0, -0.7, 1.65), (0, -0.85, 1.85), "neck", True),
        ("head", (0, -0.85, 1.85), (0, -1.3, 1.6), "neck.001", True),
        ("ear.L", (0.06, -0.85, 1.9), (0.08, -0.83, 2.02), "head", True),
        ("eye.L", (0.1, -1.0, 1.85), (0.12, -1.02, 1.85), "head", True),
        ("tail", (0, 0.72, 1.3), (0, 0.9, 1.15), "spine", True),
        ("tail.001", (0, 0.9, 1.15), (0, 1.0, 0.85), "tail", True),
        ("thigh.L", (0.16, 0.6, 1.25), (0.16, 0.45, 0.85), "spine", True),
        ("shin.L", (0.16, 0.45, 0.85), (0.16, 0.65, 0.5), "thigh.L", True),
        ("hindfoot.L", (0.16, 0.65, 0.5), (0.16, 0.62, 0.1), "shin.L", True),
        ("h_hoof.L", (0.16, 0.62, 0.1), (0.16, 0.57, 0.0), "hindfoot.L", True),
        ("shoulder.L", (0.12, -0.45, 1.35), (0.16, -0.4, 1.0), "spine.003", True),
        ("upper_arm.L", (0.16, -0.4, 1.0), (0.16, -0.45, 0.7), "shoulder.L", True),
        ("forearm.L", (0.16, -0.45, 0.7), (0.16, -0.45, 0.35), "upper_arm.L", True),
        ("forefoot.L", (0.16, -0.45, 0.35), (0.16, -0.47, 0.1), "forearm.L", True),
        ("f_hoof.L", (0.16, -0.47, 0.1), (0.16, -0.52, 0.0), "forefoot.L", True),
    ]
    bones = mirror(b)
    arm = armature("Horse", bones)
    skin(arm, bones, radius=0.06)
    export("horse")


def bird():
    reset()
    b = [
        ("spine", (0, 0.08, 0.28), (0, 0.0, 0.3), None, True),
        ("chest", (0, 0.0, 0.3), (0, -0.08, 0.33), "spine", True),
        ("neck", (0, -0.08, 0.33), (0, -0.1, 0.42), "chest", True),
        ("neck.001", (0, -0.1, 0.42), (0, -0.11, 0.48), "neck", True),
        ("head", (0, -0.11, 0.48), (0, -0.16, 0.5), "neck.001", True),
        ("beak", (0, -0.16, 0.5), (0, -0.22, 0.49), "head", True),
        ("eye.L", (0.02, -0.14, 0.51), (0.025, -0.15, 0.51), "head", True),
        ("tail", (0, 0.08, 0.28), (0, 0.16, 0.27), "spine", True),
        ("wing_upper.L", (0.04, -0.05, 0.34), (0.16, -0.03, 0.36), "chest", True),
        ("wing_fore.L", (0.16, -0.03, 0.36), (0.3, -0.01, 0.35), "wing_upper.L", True),
        ("wing_hand.L", (0.3, -0.01, 0.35), (0.4, 0.01, 0.34), "wing_fore.L", True),
        ("thigh.L", (0.04, 0.04, 0.27), (0.05, 0.0, 0.19), "spine", True),
        ("shin.L", (0.05, 0.0, 0.19), (0.05, 0.04, 0.09), "thigh.L", True),
        ("tarsus.L", (0.05, 0.04, 0.09), (0.05, 0.03, 0.02), "shin.L", True),
        ("foot.L", (0.05, 0.03, 0.02), (0.05, 0.0, 0.005), "tarsus.L", True),
        ("toe_front.L", (0.05, 0.0, 0.005), (0.05, -0.05, 0.0), "foot.L", True),
        ("toe_side.L", (0.05, 0.0, 0.005), (0.08, -0.03, 0.0), "foot.L", True),
        ("toe_back.L", (0.05, 0.0, 0.005), (0.05, 0.04, 0.0), "foot.L", True),
    ]
    for i in range(1, 5):
        b.append((f"feather_primary.L.{i:03d}", (0.36 + 0.012 * i, 0.0, 0.345), (0.42 + 0.02 * i, 0.1, 0.34), "wing_hand.L", True))
    for i in range(1, 4):
        b.append((f"feather_secondary.L.{i:03d}", (0.18 + 0.04 * i, -0.02, 0.355), (0.2 + 0.04 * i, 0.1, 0.35), "wing_fore.L", True))
    for i, x in enumerate((-0.03, 0.0, 0.03)):
        b.append((f"tail_feather.{i:03d}", (0, 0.16, 0.27), (x * 2, 0.28, 0.26), "tail", True))
    bones = mirror(b)
    arm = armature("Bird", bones)
    skin(arm, bones, radius=0.015)
    export("bird")


def spider():
    """Eight legs, pedipalps and fangs; bones only (no mesh)."""
    reset()
    b = [
        ("thorax", (0, 0.0, 0.3), (0, -0.15, 0.3), None, True),
        ("abdomen", (0, 0.0, 0.3), (0, 0.3, 0.34), "thorax", True),
        ("head", (0, -0.15, 0.3), (0, -0.22, 0.3), "thorax", True),
        ("palp.L", (0.03, -0.2, 0.3), (0.08, -0.3, 0.26), "head", True),
        ("palp.L.001", (0.08, -0.3, 0.26), (0.1, -0.36, 0.2), "palp.L", True),
        ("fang.L", (0.015, -0.22, 0.28), (0.02, -0.26, 0.24), "head", True),
    ]
    for i, y in enumerate((-0.12, -0.06, 0.0, 0.06)):
        spread = (-0.15, -0.05, 0.05, 0.15)[i]
        n = f"leg{i + 1}.L"
        b += [
            (n, (0.05, y, 0.3), (0.12, y + spread * 0.5, 0.34), "thorax", True),
            (n + ".001", (0.12, y + spread * 0.5, 0.34), (0.3, y + spread, 0.45), n, True),
            (n + ".002", (0.3, y + spread, 0.45), (0.45, y + spread * 1.4, 0.2), n + ".001", True),
            (n + ".003", (0.45, y + spread * 1.4, 0.2), (0.52, y + spread * 1.6, 0.0), n + ".002", True),
        ]
    armature("Spider", mirror(b))
    export("spider")


def snake():
    reset()
    b, prev = [], None
    n = 16
    for i in range(n):
        name = "spine" if i == 0 else f"spine.{i:03d}"
        y0, y1 = 1.2 - 2.0 * i / n, 1.2 - 2.0 * (i + 1) / n
        b.append((name, (0.03 * ((i % 4) - 1.5) * 0, y0, 0.05), (0, y1, 0.05), prev, True))
        prev = name
    b += [
        ("head", (0, -0.8, 0.05), (0, -0.95, 0.06), prev, True),
        ("jaw", (0, -0.82, 0.04), (0, -0.95, 0.03), "head", True),
        ("tongue", (0, -0.9, 0.04), (0, -1.0, 0.04), "jaw", True),
        ("eye.L", (0.03, -0.88, 0.08), (0.035, -0.9, 0.08), "head", True),
    ]
    bones = mirror(b)
    arm = armature("Snake", bones)
    skin(arm, bones, radius=0.04)
    export("snake")


def robot_nodes():
    """No armature: mesh objects parented to each other, with names no rule knows."""
    reset()

    def part(name, parent, location, size):
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
        obj = bpy.context.active_object
        obj.name = name
        obj.data.name = name + "_mesh"
        obj.scale = size
        bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
        if parent:
            world = obj.matrix_world.copy()
            obj.parent = bpy.data.objects[parent]
            obj.matrix_world = world
        return obj

    part("chassis", None, (0, 0, 0.8), (0.4, 0.6, 0.2))
    part("mast", "chassis", (0, -0.2, 1.05), (0.06, 0.06, 0.3))
    part("sensor", "mast", (0, -0.25, 1.25), (0.15, 0.12, 0.1))
    for side, x in (("L", 1), ("R", -1)):
        for i, y in enumerate((-0.2, 0.2)):
            part(f"mount{i}.{side}", "chassis", (x * 0.22, y, 0.75), (0.06, 0.06, 0.06))
            part(f"strut{i}.{side}", f"mount{i}.{side}", (x * 0.3, y, 0.45), (0.05, 0.05, 0.5))
            part(f"pad{i}.{side}", f"strut{i}.{side}", (x * 0.3, y, 0.05), (0.1, 0.1, 0.1))
        part(f"boom.{side}", "chassis", (x * 0.3, -0.3, 0.95), (0.25, 0.05, 0.05))
        part(f"gripper.{side}", f"boom.{side}", (x * 0.5, -0.35, 0.95), (0.08, 0.08, 0.08))
    export("robot_nodes")


os.makedirs(OUT, exist_ok=True)
for make in (humanoid, humanoid_unnamed, mixamo, horse, bird, spider, snake, robot_nodes):
    make()
