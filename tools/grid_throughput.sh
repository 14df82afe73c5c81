#!/bin/bash
# The grid's throughput, single run vs 2 shards run one after the other and merged (README,
# "The grid at scale"): the sample project's 10 actions × (17 samples + 183 zoo creatures)
# = 2,000 cells, 3 repetitions. Run from the repository root after
#   cargo build --release -p anymorph --no-default-features --features jemalloc
# on a quiet machine; it also checks that the merged report is the single run's.
set -euo pipefail
B="${ANYMORPH:-target/release/anymorph}"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
G=(--project assets/sample.project.json --creatures sample_creatures --random 183 --seed 1
    --thumbnails none --threads 2)
now() { date +%s.%N; }
for rep in 1 2 3; do
    rm -rf "${T:?}"/*
    t0=$(now); "$B" validate "${G[@]}" --report "$T/single" > "$T/single.out"; t1=$(now)
    "$B" validate "${G[@]}" --shard 0/2 --report "$T/s0" > /dev/null; t2=$(now)
    "$B" validate "${G[@]}" --shard 1/2 --report "$T/s1" > /dev/null; t3=$(now)
    "$B" report merge "$T/s0" "$T/s1" --report "$T/merged" > /dev/null; t4=$(now)
    cmp "$T/single/summary.json" "$T/merged/summary.json"
    cmp "$T/single/index.html" "$T/merged/index.html"
    diff -r "$T/single/pages" "$T/merged/pages"
    echo "rep $rep: single $(echo "$t1 - $t0" | bc) s; shards $(echo "$t2 - $t1" | bc) + $(echo "$t3 - $t2" | bc) s, merge $(echo "$t4 - $t3" | bc) s, total $(echo "$t4 - $t1" | bc) s"
done
head -1 "$T/single.out"
