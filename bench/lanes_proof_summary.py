#!/usr/bin/env python3
"""The table of bench/lanes_proof.sh: per headline row, the serial and lanes means of each pair,
the change, the U test's p and whether it differs significantly by more than 3 %; then the
daemons' lateness and the tracer's D2C means, serial against lanes.
  bench/lanes_proof_summary.py DIR PAIRS"""
import json
import statistics
import sys

out, pairs = sys.argv[1], int(sys.argv[2])


def rows(path):
    try:
        with open(path) as f:
            return json.load(f)["rows"]
    except (OSError, ValueError, KeyError):
        return []


def key(r):
    return (r["section"], r["row"], r["base"]["label"] or r["base"]["identifier"], r["metric"])


def fmt_p(p):
    """A U test's p, or why there is none (n = 1 a side: compare gives no p)."""
    return "no test" if p is None else f"{p:.3f}"


def modes(values):
    """Each repetition's value, in run order: a bimodal row (bfq's queue merge) shows as two
    clusters, and how often each occurs is what a lane must keep (docs/lanes.md)."""
    return " ".join(f"{v:.3g}" for v in values)


table = {}
for p in range(1, pairs + 1):
    for r in rows(f"{out}/{p}-compare.json"):
        if r.get("presence") != "both":
            continue
        sig = (r.get("p_value") or 1) < 0.05 and abs(r.get("change_pct", 0)) > 3
        table.setdefault(key(r), []).append((r["base"]["mean"], r["new"]["mean"], r["change_pct"],
                                             r.get("p_value"), sig))
print("| section | row | config | metric | " +
      " | ".join(f"pair {p}: serial → lanes (change, p)" for p in range(1, pairs + 1)) +
      " | > 3 % and p < 0.05 |")
print("|---|---|---|---|" + "---|" * pairs + "---|")
bad = 0
for k in sorted(table):
    cells = [f"{b:.3g} → {n:.3g} ({c:+.1f} %, {fmt_p(p)})" for b, n, c, p, _ in table[k]]
    flagged = sum(1 for *_, s in table[k] if s)
    bad += flagged
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | " + " | ".join(cells) +
          f" | {'**' + str(flagged) + '**' if flagged else 0} |")
print(f"\n{bad} row-pair(s) differ by more than 3 % with p < 0.05, of "
      f"{sum(len(v) for v in table.values())}")

print("\n| section | row | config | metric | pair | serial, each repetition | lanes, each repetition |")
print("|---|---|---|---|---|---|---|")
for p in range(1, pairs + 1):
    for r in rows(f"{out}/{p}-compare.json"):
        if r.get("presence") == "both":
            print(f"| {' | '.join(str(x) for x in key(r))} | {p} | {modes(r['base']['values'])} | "
                  f"{modes(r['new']['values'])} |")

# D2C (request tracer) rows, every metric ending in _d2c_mean_ms.
d2c = {}
for p in range(1, pairs + 1):
    for r in rows(f"{out}/{p}-compare-all.json"):
        if r["metric"].endswith("d2c_mean_ms") and r.get("presence") == "both":
            d2c.setdefault(key(r), []).append((r["base"]["mean"], r["new"]["mean"],
                                               r["change_pct"], r.get("p_value")))
if d2c:
    print("\n| section | row | config | D2C metric | " +
          " | ".join(f"pair {p}: serial → lanes ms (change, p)" for p in range(1, pairs + 1)) + " |")
    print("|---|---|---|---|" + "---|" * pairs)
    for k in sorted(d2c):
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | " +
              " | ".join(f"{b:.3g} → {n:.3g} ({c:+.1f} %, {fmt_p(p)})" for b, n, c, p in d2c[k]) +
              " |")


def lateness(path):
    """(mean lateness per request in µs, largest overrun in ms) over the run's cells."""
    with open(path) as f:
        doc = json.load(f)
    late, reqs, worst = 0, 0, 0
    for c in doc["cells"]:
        dc = c.get("disk_counters") or {}
        late += dc.get("achieved_ns", 0) - dc.get("modelled_ns", 0)
        reqs += dc.get("requests", 0)
        worst = max(worst, dc.get("max_overrun_ns", 0))
    return (late / reqs / 1e3 if reqs else 0), worst / 1e6, doc["context"].get("lanes")


print("\n| pair | side | daemon lateness per request (µs) | largest overrun (ms) | cells |")
print("|---|---|---|---|---|")
for p in range(1, pairs + 1):
    for side in ("serial", "lanes"):
        try:
            mean, worst, _ = lateness(f"{out}/{p}-{side}.json")
            with open(f"{out}/{p}-{side}.json") as f:
                n = len(json.load(f)["cells"])
            print(f"| {p} | {side} | {mean:.1f} | {worst:.2f} | {n} |")
        except (OSError, ValueError, KeyError) as e:
            print(f"| {p} | {side} | ({e}) | | |")
