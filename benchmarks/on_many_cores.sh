#!/usr/bin/env bash
# Issue 33's measurements that a 2-core machine cannot make, as one script for a lent machine
# with more cores (run from the checkout's root; what it prints is also written under $OUT):
#
#   bash benchmarks/on_many_cores.sh scaling   # the split's speed-up at 1, 2, 4, 8, 16 workers,
#                                              # CPU over wall, and the first run's compile cost
#   bash benchmarks/on_many_cores.sh mm56 S    # MM(5,6) on every core for S seconds, journaled
#   bash benchmarks/on_many_cores.sh defaults PEER # the split at each worker count's default piece size,
#                                              # idle hurry and pushed budgets at every core, the first 4x7
#                                              # after the warm step, and the small rows against the peer's
#                                              # mmstrat binary PEER (everything into $OUT/defaults.txt)
#   bash benchmarks/on_many_cores.sh compare OLD   # the split on every core, this checkout's code
#                                              # against an older one's (its arena/ and benchmarks/ in OLD:
#                                              # git archive REV arena agents benchmarks | tar -x -C OLD)
#
# Each step has its own time limit, so a step that runs long costs only itself.
set -u
OUT=${OUT:-/tmp/on-many-cores}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
CORES=$(nproc)

step() {  # step NAME SECONDS COMMAND...: run COMMAND under a time limit, its output into $OUT/NAME.txt
    local name=$1 limit=$2
    shift 2
    echo "== $name (at most ${limit} s): $*"
    local start=$SECONDS
    timeout --signal=TERM --kill-after=10 "$limit" "$@" 2>&1 | tee -a "$OUT/${ONE_FILE:-$name}.txt"
    echo "== $name: exit ${PIPESTATUS[0]} after $((SECONDS - start)) s"
}

cpu_over_wall() {  # cpu_over_wall COMMAND...: the command's wall and CPU seconds (children's user + system)
    "$PY" - "$@" <<'EOF'
import os, subprocess, sys, time
before, start = os.times(), time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
wall, after = time.perf_counter() - start, os.times()
cpu = after.children_user - before.children_user + after.children_system - before.children_system
print(f"wall {wall:.2f} s  CPU {cpu:.2f} s  CPU/wall {cpu / wall:.2f}  {' '.join(sys.argv[2:])}")
EOF
}

cpu_steps() {  # one process on 4x6 and 4x7, and the split of 4x7 on 4 and on every core
    cpu_over_wall "$PY" -m arena optimal mastermind
    cpu_over_wall "$PY" -m arena optimal mastermind:colors=7
    cpu_over_wall "$PY" -m arena optimal mastermind:colors=7 --workers 4
    cpu_over_wall "$PY" -m arena optimal mastermind:colors=7 --workers "$CORES"
}
machine() {
    echo "cores: $CORES"
    "$PY" -c "import sys, numpy, numba, scipy; print('python', sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'scipy', scipy.__version__)"
    "$PY" -m arena optimal mastermind:pegs=3,colors=3 | head -3
}

first_after_warm() {  # a fresh numba cache, the set-up's warm step, then 4x7 twice: what a user's first solve costs
    NUMBA_CACHE_DIR=$(mktemp -d)
    export NUMBA_CACHE_DIR
    cpu_over_wall "$PY" -m arena.optimal.search.warm
    cpu_over_wall "$PY" -m arena optimal mastermind:colors=7
    cpu_over_wall "$PY" -m arena optimal mastermind:colors=7
}

export -f cpu_steps cpu_over_wall machine first_after_warm
export PY CORES

scaling() {
    step machine 120 bash -c machine
    grep -q "^cores" "$OUT/machine.txt" && grep -q "total\|guesses" "$OUT/machine.txt" || return 1
    # The first run compiling, against the second, each on a fresh numba cache (no warm step).
    step coldstart 170 "$PY" benchmarks/bench_coldstart.py --long
    # Every row below runs compiled code from the default cache, filled here once.
    step warm 60 "$PY" -m arena.optimal.search.warm
    step cpu 90 bash -c cpu_steps
    step parallel-small 150 "$PY" benchmarks/bench_parallelism.py --only 4x7,5x5 \
        --workers "1,2,4,8,$CORES" --split-after 1000,200
    step parallel-bulls 200 "$PY" benchmarks/bench_parallelism.py --only "Bulls and Cows" \
        --workers "1,4,$CORES" --split-after 200
}

compare() {  # the same rows on every core, the older checkout's code first, then this one's
    local old=$1
    step machine 60 bash -c machine
    step warm 120 bash -c "$PY -m arena.optimal.search.warm && cd $old && PYTHONPATH=$old $PY -m arena.optimal.search.warm"
    step compare 150 bash -c "cpu_over_wall $PY -m arena optimal mastermind:colors=7
        for code in $old .; do
            echo \"== the code in \$code\"
            PYTHONPATH=\$code $PY \$code/benchmarks/bench_parallelism.py --only 4x7,5x5 --workers $CORES --split-after 1000,200
            PYTHONPATH=\$code $PY \$code/benchmarks/bench_parallelism.py --only 'Bulls and Cows' --workers $CORES --split-after 200
        done"
}

defaults() {  # the code of the second lease, most wanted first (the command's own limit may cut the tail)
    local peer=$1
    export ONE_FILE=defaults
    step machine 60 bash -c machine
    step warm 60 "$PY" -m arena.optimal.search.warm
    step parallel-small 120 "$PY" benchmarks/bench_parallelism.py --only 4x7,5x5 --workers "1,2,4,8,$CORES"
    step parallel-bulls 220 "$PY" benchmarks/bench_parallelism.py --only "Bulls and Cows" --workers "1,4,8,$CORES"
    step peer 90 "$PY" benchmarks/bench_peer_optimal.py --peer "$peer" --runs 3 --rows start-up,4x6,4x8-no-repeats
    step cpu 60 bash -c cpu_steps
    step hurry 60 "$PY" benchmarks/bench_hurry.py --only 4x7,5x5 --workers "$CORES" --runs 1 --split-after 100
    step push 60 "$PY" benchmarks/bench_hurry.py --only 4x7,5x5 --workers "$CORES" --runs 1 --split-after 100 --switch push
    step first-after-warm 90 bash -c first_after_warm
}

mm56() {  # MM(5,6) from the best tree known, every core, for $1 seconds; the journal resumes it
    local seconds=${1:-180}
    step mm56 $((seconds + 120)) "$PY" -m arena optimal mastermind:pegs=5 --workers "$CORES" \
        --start tree:file=experiments/data/mastermind-pegs-5-lookahead-repair100.json \
        --journal "$OUT/mastermind-pegs-5-split.jsonl" --time-limit "$seconds" --log-every 15 --json
    # A file back from the lent machine is at most 16 MiB (a 290 s run's journal was 23 MB gzipped):
    # parts of 15 MiB, joined again by `cat mastermind-pegs-5-split.jsonl.gz.part* > ....jsonl.gz`.
    gzip -9 -c "$OUT/mastermind-pegs-5-split.jsonl" | split -b 15M -d - "$OUT/mastermind-pegs-5-split.jsonl.gz.part"
    rm "$OUT/mastermind-pegs-5-split.jsonl"
    ls -l "$OUT"
}

case "${1:-}" in
    scaling) scaling ;;
    mm56) mm56 "${2:-180}" ;;
    compare) compare "$2" ;;
    defaults) defaults "$2" ;;
    *) echo "usage: bash benchmarks/on_many_cores.sh scaling | mm56 SECONDS | compare OLD | defaults PEER" >&2; exit 2 ;;
esac
