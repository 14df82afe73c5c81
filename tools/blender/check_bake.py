"""Opens baked glTF files in Blender and reports what an animator would see: the armature, the
skinned mesh, and each animation as an action with keyframes that move bones.

    blender -b --factory-startup --python tools/blender/check_bake.py -- OUT.glb [MORE.glb ...]

Prints one JSON line per file (prefixed `CHECK `) and exits non-zero if a file has no
armature, no action, or an action whose keys never move a bone.
"""

import json
import sys
import bpy
import numpy

# Debian's Blender 3.4 glTF importer still uses `numpy.bool`, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

files = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
failed = False
for path in files:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    arms = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    report = {
        "file": path,
        "armatures": [{"name": a.name, "bones": len(a.data.bones)} for a in arms],
        "meshes": [{"name": m.name, "vertices": len(m.data.vertices),
                    "skinned": any(md.type == "ARMATURE" for md in m.modifiers)} for m in meshes],
        "actions": [],
    }
    for action in bpy.data.actions:
        keys = [len(fc.keyframe_points) for fc in action.fcurves]
        entry = {"name": action.name, "fcurves": len(action.fcurves),
                 "keyframes": sum(keys), "frame_range": list(action.frame_range)}
        # Play the action on the armature and measure how far the bones move.
        moved = 0.0
        if arms:
            arm = arms[0]
            if arm.animation_data is None:
                arm.animation_data_create()
            arm.animation_data.action = action
            start, end = int(action.frame_range[0]), int(action.frame_range[1])
            scene = bpy.context.scene
            scene.frame_set(start)
            first = {b.name: b.head.copy() for b in arm.pose.bones}
            for f in range(start, end + 1, max(1, (end - start) // 8)):
                scene.frame_set(f)
                for b in arm.pose.bones:
                    moved = max(moved, (b.head - first[b.name]).length)
        entry["max_bone_travel_m"] = round(moved, 4)
        report["actions"].append(entry)
    ok = bool(arms) and bool(report["actions"]) and all(
        a["keyframes"] > 0 and a["max_bone_travel_m"] > 1e-3 for a in report["actions"])
    report["ok"] = ok
    failed |= not ok
    print("CHECK " + json.dumps(report))
sys.exit(1 if failed else 0)
