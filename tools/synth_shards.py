#!/usr/bin/env python3
# Usage: tools/synth_shards.py SHARD/cells.jsonl COPIES SHARDS OUT  (README, "The grid at scale")
# Synthetic shards for measuring `report merge`: the cells of a real run (one shard, in
# stream order) repeated `copies` times with new creature indices and names, dealt to
# `shards` files round robin by creature.
import json, sys, os
src, copies, shards, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
lines = open(src).read().splitlines()
header, cells, end = json.loads(lines[0]), [json.loads(l) for l in lines[1:-1]], json.loads(lines[-1])
n = end["creatures"]
files, counts = [], [0]*shards
for i in range(shards):
    d = os.path.join(out, f"s{i}"); os.makedirs(d, exist_ok=True)
    h = dict(header); h["shard"] = {"index": i, "count": shards}
    f = open(os.path.join(d, "cells.jsonl"), "w"); f.write(json.dumps(h, separators=(",", ":")) + "\n")
    files.append(f)
for j in range(copies):
    for c in cells:
        k = c["creature"] + j * n
        c2 = dict(c); c2["creature"] = k
        r = dict(c["report"]); r["creature"] = f'{r["creature"]}_{j}'; c2["report"] = r
        s = k % shards
        files[s].write(json.dumps(c2, separators=(",", ":")) + "\n"); counts[s] += 1
for i, f in enumerate(files):
    e = dict(end); e["end_cells"] = counts[i]; e["creatures"] = n * copies
    f.write(json.dumps(e, separators=(",", ":")) + "\n"); f.close()
print(sum(counts), "cells in", shards, "shards")
