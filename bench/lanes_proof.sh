#!/usr/bin/env bash
# Does a lane measure what a serial run measures? The same run serial and with --lanes, back to
# back and interleaved (serial, lanes, serial, lanes, ...) so that the load of this shared
# machine hits both sides alike; each run under the shared root lock, one run per hold, with
# `uptime` recorded before it. Then, per pair, `elevbench compare SERIAL LANES --threshold 3`
# (U test per headline row), the daemons' lateness (achieved - modelled service time per request,
# and the largest overrun) and, with --trace-requests summary, the D2C means. docs/lanes.md has
# the figures and the commands.
#   bench/lanes_proof.sh PAIRS LANES SUITE ARGS...   e.g.
#   bench/lanes_proof.sh 2 2 tiobench --threads 1,4 --size 64 --random 500 --repetitions 5
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=$1 lanes=$2
shift 2
bin=${ELEVBENCH:-build/elevbench}
lock=${ELEVBENCH_LOCK:-/tmp/elevbench-root-tests.lock}
out=${OUT:-$(mktemp -d /var/tmp/elevbench-lanes-proof-XXXXXX)}
mkdir -p "$out"
echo "bench/lanes_proof.sh: results in $out" >&2
# DL against AS; on a kernel without bfq (docs/emulated-disk.md) against kyber (KY). SCHEDULERS
# overrides.
if [ -z "${SCHEDULERS:-}" ]; then
  SCHEDULERS=mq-deadline@DL,bfq:low_latency=0@AS
  "$bin" list schedulers | grep -qx bfq || SCHEDULERS=mq-deadline@DL,kyber@KY
fi
common=(--emulated ide-2003 --fs ext2 --schedulers "$SCHEDULERS"
        --trace-requests summary --no-history)
for pair in $(seq 1 "$pairs"); do
  for side in serial lanes; do
    r="$out/$pair-$side.json"
    extra=()
    # Like with like: the serial side runs on the machine one lane has, its disk's daemon on
    # the same CPUs as a lane's (docs/lanes.md).
    if [ "$side" = lanes ]; then extra=(--lanes "$lanes"); else extra=(--machine "cpus=$(( $(nproc) / lanes )),disk-cpus=shared"); fi
    echo "$pair $side $(uptime)" >> "$out/uptime.txt"
    start=$(date +%s.%N)
    flock -w 3600 "$lock" timeout -k 30 2400 "$bin" run "$@" "${common[@]}" "${extra[@]}" --seed "$((pair + ${SEED_BASE:-0}))" --out "$r" \
      >/dev/null 2>"$r.log"
    end=$(date +%s.%N)
    echo "$pair $side wall $(echo "$end - $start" | bc) s" | tee -a "$out/uptime.txt" >&2
  done
done
for pair in $(seq 1 "$pairs"); do
  "$bin" compare "$out/$pair-serial.json" "$out/$pair-lanes.json" --threshold 3 --format json \
    > "$out/$pair-compare.json" || true
  "$bin" compare "$out/$pair-serial.json" "$out/$pair-lanes.json" --threshold 3 --metrics all \
    --format json > "$out/$pair-compare-all.json" || true
done
python3 bench/lanes_proof_summary.py "$out" "$pairs"
