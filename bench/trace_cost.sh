#!/usr/bin/env bash
# What `--trace-requests summary` (and `full`) costs: the same runs with and without the tracer,
# interleaved (off, summary, full, off, summary, full, ...) so drift hits every mode alike, on
# the emulated ide-2003 disk. Prints one line per run (wall seconds and the headline rates) and
# the mean per mode. Needs root; docs/performance.md has the figures and the command.
#   bench/trace_cost.sh [PAIRS] [MODES]     (default 3 rounds of "off summary full")
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
modes=${2:-"off summary full"}
bin=${ELEVBENCH:-build/elevbench}
out=$(mktemp -d /var/tmp/elevbench-trace-cost-XXXXXX)
# KEEP=1 keeps the results files (their traces are the evidence of the rows).
[ "${KEEP:-0}" = 1 ] && echo "bench/trace_cost.sh: results kept in $out" >&2 || trap 'rm -rf "$out"' EXIT
suites=("tiobench --threads 1,4 --size 128 --random 1000"
        "nickbench --benches 3,6 --size 64")
for round in $(seq 1 "$rounds"); do
  for mode in $modes; do
    for i in "${!suites[@]}"; do
      r="$out/$round-$mode-$i.json"
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      "$bin" run ${suites[$i]} --emulated ide-2003 --fs ext2 \
        --schedulers mq-deadline@DL,bfq:low_latency=0@AS --trace-requests "$mode" --seed "$round" \
        --out "$r" --no-history >/dev/null 2>"$r.log"
      end=$(date +%s.%N)
      python3 - "$r" "$mode" "$round" "$(echo "$end - $start" | bc)" <<'PY'
import json, sys
path, mode, rnd, wall = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
d = json.load(open(path))
rates = {}
for r in d["records"]:
    if d["suite"] == "tiobench":
        key = f"{r['label']} {r['phase']} t{r['threads']}"
        rates[key] = r["metrics"]["rate_mb_s"]
    else:
        rates[f"{r['label']} bench{r['bench']}"] = r["io_rate_mb_s"]
print(json.dumps({"suite": d["suite"], "mode": mode, "round": int(rnd), "wall_s": round(wall, 2),
                  "rates": {k: round(v, 2) for k, v in sorted(rates.items())}}))
PY
    done
  done
done | tee "$out/lines.jsonl"
python3 - "$out/lines.jsonl" <<'PY'
import json, sys, statistics
rows = [json.loads(l) for l in open(sys.argv[1])]
for suite in sorted({r["suite"] for r in rows}):
    base = [r for r in rows if r["suite"] == suite and r["mode"] == "off"]
    for mode in ["off", "summary", "full"]:
        sel = [r for r in rows if r["suite"] == suite and r["mode"] == mode]
        if not sel:
            continue
        wall = statistics.mean(r["wall_s"] for r in sel)
        keys = sorted(sel[0]["rates"])
        ratio = []
        for k in keys:
            b = statistics.mean(r["rates"][k] for r in base) if base else None
            m = statistics.mean(r["rates"][k] for r in sel)
            if b:
                ratio.append(m / b)
        print(f"{suite:10s} {mode:8s} n={len(sel)} wall {wall:7.1f} s  mean rate / off "
              f"{statistics.mean(ratio):.4f} (min {min(ratio):.4f}, max {max(ratio):.4f}) "
              f"over {len(keys)} headline rows")
PY
