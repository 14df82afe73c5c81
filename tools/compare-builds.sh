#!/usr/bin/env bash
# Runs two builds of the `anymorph` CLI over the same inputs and compares every output to the
# byte: each clip on each sample creature (with targets, walking, slopes and waves), random
# creatures and clips on them, the validation grid, an exported package and a baked glTF.
# It tells whether a compiler change (a new toolchain, a MIR pass switched off, another
# opt-level) changes anything the runtime computes; see docs/TOOLCHAIN.md.
#
#   tools/compare-builds.sh A/anymorph B/anymorph [WORKDIR]
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_A BUILD_B [WORKDIR]" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
a=$(realpath "$1")
b=$(realpath "$2")
work=${3:-$(mktemp -d)}

outputs() {
    local bin=$1 out=$2
    rm -rf "$out"
    mkdir -p "$out"
    # Paths in the outputs are relative to $out, so the two runs print the same ones.
    cd "$out"
    local clips=$root/assets/clips creatures=$root/sample_creatures
    for creature in "$creatures"/*.creature.json; do
        local c
        c=$(basename "$creature" .creature.json)
        for clip in "$clips"/*.clip.json; do
            "$bin" eval "$creature" "$clip" --frames 0:2:30 >"eval_${c}_$(basename "$clip" .clip.json).json" 2>&1 || true
        done
        "$bin" eval "$creature" "$clips/reach_target.clip.json" --frames 0:1:30 \
            --target 0.3,1.2,0.5 >"target_$c.json" 2>&1 || true
        "$bin" eval "$creature" "$clips/idle_breathe.clip.json" --frames 0:2:30 \
            --speed 1.2 --turn 0.4 --terrain waves >"walk_$c.json" 2>&1 || true
        "$bin" eval "$creature" "$clips/wave.clip.json" --frames 0:2:30 \
            --speed 0.8 --terrain slope:12 >"slope_$c.json" 2>&1 || true
    done
    for seed in 1 2 3 5 8 13 21 34; do
        "$bin" generate --seed "$seed" --out "random_$seed.creature.json" >/dev/null 2>&1 || true
    done
    for seed in 1 2 3 5; do
        for clip in wave pick_up dance; do
            "$bin" eval "random_$seed.creature.json" "$clips/$clip.clip.json" --frames 0:2:30 \
                >"random_${seed}_$clip.json" 2>&1 || true
        done
    done
    "$bin" validate --clips "$clips" --creatures "$creatures" --random 20 --thumbnails none \
        --report grid >grid.log 2>&1 || true
    "$bin" export "$root/assets/sample.project.json" --out package.json --reduce 0.001 --json \
        >export.json 2>&1 || true
    "$bin" bake "$creatures/biped.creature.json" "$clips/dance.clip.json" --all-variants \
        --out dance.glb >bake.log 2>&1 || true
    cd - >/dev/null
}

outputs "$a" "$work/a" &
outputs "$b" "$work/b" &
wait
count=$(find "$work/a" -type f | wc -l)
if diff -rq "$work/a" "$work/b"; then
    echo "the same: $count outputs (in $work)"
else
    echo "the builds differ (outputs in $work/a and $work/b)"
    exit 1
fi
