#!/usr/bin/env bash
# Is a lane's writeback limit what makes a lane's run differ from the serial one
# (docs/performance.md, "Lanes against serial")? Runs the serial side of bench/lanes_proof.sh,
# `--machine cpus=HOST/LANES,disk-cpus=shared`, and, once the run has set the emulated disk's
# vm limits (vm.dirty_bytes 48 MB, background 16 MB), replaces them from outside the run with
# what one of LANES lanes has (docs/lanes.md): the global limits raised, the disk's
# max_ratio_fine and min_ratio_fine at its share, and (MODE=strict, the default) strict_limit 1.
# MODE=nostrict leaves strict_limit 0; MODE=none changes nothing (the control). The run restores
# the global values it journaled when it exits; the disk's bdi goes with its loop device.
#   bench/lane_writeback_probe.sh RUNS LANES SUITE ARGS...   e.g.
#   MODE=strict bench/lane_writeback_probe.sh 1 2 nickbench --benches 2 --size 128 --repetitions 5 --fresh-fs
set -euo pipefail
cd "$(dirname "$0")/.."
runs=$1 lanes=$2
shift 2
mode=${MODE:-strict}
bin=${ELEVBENCH:-build/elevbench}
lock=${ELEVBENCH_LOCK:-/tmp/elevbench-root-tests.lock}
out=${OUT:-$(mktemp -d /var/tmp/elevbench-wb-probe-XXXXXX)}
mkdir -p "$out"
echo "bench/lane_writeback_probe.sh: MODE=$mode, results in $out" >&2
# LaneWritebackLimits (harness/device/bdi_limits.cc) for LANES lanes.
read -r ratio global background < <(python3 - "$lanes" <<'EOF'
import sys
lanes = int(sys.argv[1]); whole = 1000000; page = 4096
ratio = whole * 98 // 100 // lanes
up = lambda b: (b + page - 1) // page * page
g = up((48 * 2**20 * whole + ratio - 1) // ratio)
bg = up((16 * 2**20 * whole + ratio - 1) // ratio)
print(ratio, g, bg)
EOF
)
# As bench/lanes_proof.sh: DL against AS, or against kyber (KY) on a kernel without bfq.
if [ -z "${SCHEDULERS:-}" ]; then
  SCHEDULERS=mq-deadline@DL,bfq:low_latency=0@AS
  grep -qw bfq /sys/block/*/queue/scheduler 2>/dev/null || SCHEDULERS=mq-deadline@DL,kyber@KY
fi
common=(--emulated ide-2003 --fs ext2 --schedulers "$SCHEDULERS"
        --trace-requests summary --no-history)
loops_now() { ls -d /sys/block/loop* 2>/dev/null | sort; }

# Waits (at most 600 s) for the run to set the emulated vm limits and make its loop device,
# then writes a lane's limits. Prints what it wrote.
impose_lane_writeback() {
  local before=$1 deadline=$((SECONDS + 600)) disk=""
  while [ $SECONDS -lt $deadline ]; do
    if [ "$(cat /proc/sys/vm/dirty_bytes)" = $((48 << 20)) ]; then
      disk=$(comm -13 <(echo "$before") <(loops_now) | head -1)
      [ -n "$disk" ] && [ -s "$disk/dev" ] && break
    fi
    sleep 0.05
  done
  [ -n "$disk" ] || { echo "no run to impose on" >&2; return 1; }
  local bdi=/sys/class/bdi/$(cat "$disk/dev")
  echo "$global" > /proc/sys/vm/dirty_bytes
  echo "$background" > /proc/sys/vm/dirty_background_bytes
  echo "$ratio" > "$bdi/max_ratio_fine"
  echo "$ratio" > "$bdi/min_ratio_fine"
  [ "$mode" = strict ] && echo 1 > "$bdi/strict_limit"
  echo "$(basename "$disk") $bdi: dirty_bytes $global background $background ratio_fine $ratio" \
    "strict_limit $(cat "$bdi/strict_limit")"
}

for run in $(seq 1 "$runs"); do
  r="$out/$run-serial-$mode.json"
  echo "$run $mode $(uptime)" >> "$out/uptime.txt"
  before=$(loops_now)
  flock -w 3600 "$lock" timeout -k 30 2400 "$bin" run "$@" "${common[@]}" \
    --machine "cpus=$(( $(nproc) / lanes )),disk-cpus=shared" \
    --seed "$((run + ${SEED_BASE:-0}))" --out "$r" >/dev/null 2>"$r.log" &
  pid=$!
  if [ "$mode" != none ]; then
    impose_lane_writeback "$before" | tee -a "$out/uptime.txt" >&2 || true
  fi
  wait "$pid"
  echo "$run $mode done: dirty_bytes now $(cat /proc/sys/vm/dirty_bytes)" | tee -a "$out/uptime.txt" >&2
done
