#!/usr/bin/env python3
"""Compares what the importer says about each corpus rig with assets/rigs/expected.json.

    python3 tools/rigs/compare.py [--bin PATH] [--rigs DIR] [--verbose]

The binary is --bin, else $ANYMORPH, else target/release/anymorph. For each rig it runs
`info FILE --json` (legs, the legs' feet, the reason per body) and `info FILE` (the caps per body),
prints expected vs current legs / graspers / feet and every body that is a grasper or foot on one
side only, with the importer's reason. Exit status 1 on any mismatch or a file the importer cannot
read, 0 when every rig matches.
"""

import argparse
import json
import os
import subprocess
import sys


def parse_caps(text, names):
    """Caps per body from the text table of `info` (body names may hold spaces)."""
    by_len = sorted(names, key=len, reverse=True)
    caps, table = {}, False
    for line in text.splitlines():
        if line.startswith("body ") and "caps" in line:
            table = True
            continue
        if not table:
            continue
        if line.startswith("locomotion"):
            break
        body = next((n for n in by_len if line.startswith(n + " ")), None)
        if body is None:
            continue
        rest = line[len(body):].strip()
        if rest.startswith("- "):
            rest = rest[2:].strip()
        else:
            parent = next((n for n in by_len if rest.startswith(n + " ")), None)
            if parent:
                rest = rest[len(parent):].strip()
        parts = rest.split("(from", 1)[0].split()
        caps[body] = set(parts[1:])  # parts[0] is the limb distance
    return caps


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
        pt = subprocess.run([a.bin, "info", path], capture_output=True, text=True)
        if pj.returncode or pt.returncode:
            print("%-22s cannot be read: %s" % (e["file"], (pj.stderr or pt.stderr).strip()))
            bad += 1
            continue
        d = json.loads(pj.stdout)
        reasons = d.get("caps_sources", {})
        caps = parse_caps(pt.stdout, list(reasons.keys()))
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
