#!/bin/sh
# The one entry point of the grid on a batch engine (Kubernetes Indexed Job, Slurm array,
# or a loop on one machine). Two modes:
#
#   entrypoint.sh shard [validate arguments…]
#       checks shard $SHARD_INDEX of $SHARD_COUNT into $RESULTS/shard-$SHARD_INDEX
#       (its cells.jsonl; written to a part file and renamed when complete, so a shard
#       killed midway leaves nothing a merge would take)
#   entrypoint.sh merge
#       builds $RESULTS/report (index.html, summary.json) from shard-0 … shard-(N-1);
#       fails, writing no report, if any shard is missing, cut short or of another grid
#
# SHARD_INDEX defaults to the engine's own index: $JOB_COMPLETION_INDEX (Kubernetes) or
# $SLURM_ARRAY_TASK_ID (Slurm). SHARD_COUNT defaults to $SLURM_ARRAY_TASK_COUNT.
# THREADS defaults to the CPUs this process may use. ANYMORPH is the binary. The shard mode
# sets --shard, --threads, --thumbnails none and --report itself: pass only the grid (rows,
# creatures, --config, --random …).
set -eu

ANYMORPH="${ANYMORPH:-anymorph}"
RESULTS="${RESULTS:?set RESULTS to the shared results folder}"
SHARD_COUNT="${SHARD_COUNT:-${SLURM_ARRAY_TASK_COUNT:-}}"
: "${SHARD_COUNT:?set SHARD_COUNT to the number of shards}"

mode="${1:-}"
[ $# -gt 0 ] && shift
case "$mode" in
shard)
    index="${SHARD_INDEX:-${JOB_COMPLETION_INDEX:-${SLURM_ARRAY_TASK_ID:-}}}"
    : "${index:?no shard index: set SHARD_INDEX, or run as a Kubernetes Indexed Job or a Slurm array task}"
    threads="${THREADS:-$(nproc)}"
    exec "$ANYMORPH" validate "$@" \
        --shard "$index/$SHARD_COUNT" \
        --threads "$threads" \
        --thumbnails none \
        --report "$RESULTS/shard-$index"
    ;;
merge)
    # Every shard is named, so a missing one is an error rather than a smaller report.
    set --
    i=0
    while [ "$i" -lt "$SHARD_COUNT" ]; do
        set -- "$@" "$RESULTS/shard-$i"
        i=$((i + 1))
    done
    exec "$ANYMORPH" report merge "$@" --report "$RESULTS/report"
    ;;
*)
    echo "usage: entrypoint.sh shard [validate arguments…] | entrypoint.sh merge" >&2
    exit 2
    ;;
esac
