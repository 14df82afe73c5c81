#!/usr/bin/env python3
"""Compares what the importer says about each corpus rig with assets/rigs/expected.json.

    python3 tools/rigs/compare.py [--bin PATH] [--rigs DIR] [--verbose]

The binary is --bin, else $ANYMORPH, else target/release/anymorph. For each rig it runs
`info FILE --json` (legs, the legs' feet, each body's caps and the reason for them) and
prints expected vs current legs / graspers / feet and every body that is a grasper or foot on one
side only, with the importer's reason. Exit status 1 on any mismatch or a file the importer cannot
read, 0 when every rig matches.
"""

import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("ANYMORPH", "target/release/anymorph"))
    ap.add_argument("--rigs", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "rigs"))
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    expected = json.load(open(os.path.join(a.rigs, "expected.json")))
    bad = 0
    rows = []
    print("%-22s %-11s %-11s %-11s %s" % ("rig", "legs e/now", "grasp e/now", "feet e/now", ""))
    for e in expected:
        path = os.path.join(a.rigs, e["file"])
        pj = subprocess.run([a.bin, "info", path, "--json"], capture_output=True, text=True)
        if pj.returncode:
            print("%-22s cannot be read: %s" % (e["file"], pj.stderr.strip()))
            bad += 1
            continue
        d = json.loads(pj.stdout)
        reasons = d.get("caps_sources", {})
        caps = {b: set(c) for b, c in d["body_caps"].items()}
        graspers = sorted(b for b, c in caps.items() if "grasper" in c)
        feet = sorted(l["foot"] for l in d.get("leg_list", []))
        foot_caps = sorted(b for b, c in caps.items() if "foot" in c)
        legs = d.get("legs", 0)
        ok = (legs == e["legs"] and len(graspers) == e["graspers"] and len(feet) == e["feet"]
              and graspers == sorted(e["grasper_bodies"]) and feet == sorted(e["foot_bodies"]))
        flag = "ok" if ok else "MISMATCH"
        print("%-22s %-11s %-11s %-11s %s" % (e["file"].replace(".glb", ""), "%d/%d" % (e["legs"], legs),
                                               "%d/%d" % (e["graspers"], len(graspers)), "%d/%d" % (e["feet"], len(feet)), flag))
        if not ok:
            bad += 1
            for kind, want, got in (("grasper", e["grasper_bodies"], graspers), ("foot", e["foot_bodies"], feet)):
                for b in sorted(set(got) - set(want)):
                    print("    extra %-7s %-28s caps: %-18s reason: %s" % (kind, b, " ".join(sorted(caps.get(b, ()))), reasons.get(b, "?")))
                for b in sorted(set(want) - set(got)):
                    print("    missing %-5s %-28s caps: %-18s reason: %s" % (kind, b, " ".join(sorted(caps.get(b, ()))), reasons.get(b, "?")))
            if set(foot_caps) != set(feet) and a.verbose:
                print("    bodies with the foot cap: %s" % " ".join(foot_caps))
        rows.append(e["file"])
    print("%d of %d rigs match" % (len(expected) - bad, len(expected)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
