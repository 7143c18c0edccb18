#!/usr/bin/env bash
# Benchmark: pith's badges beside shields.io's badge-maker, same cases, same machine,
# one after the other (not in CI). Needs node and npm; installs badge-maker into bench/.
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules/badge-maker ] || npm ci --no-audit --no-fund >/dev/null
export BENCH_SECONDS="${BENCH_SECONDS:-2}"
{
  (cd .. && cargo bench --quiet --bench badge 2>/dev/null)
  node badge.mjs
} | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
cases = list(dict.fromkeys(r["case"] for r in rows))
by = {(r["tool"], r["case"]): r for r in rows}
print("| case | pith badges/s | badge-maker badges/s | speed-up | pith bytes | badge-maker bytes |")
print("|---|---:|---:|---:|---:|---:|")
for c in cases:
    p, s = by.get(("pith", c)), by.get(("badge-maker", c))
    f = lambda r, k: "{:,}".format(r[k]) if r else "n/a"
    ratio = "{:.1f}x".format(p["badges_per_s"] / s["badges_per_s"]) if p and s else "n/a"
    print("| {} | {} | {} | {} | {} | {} |".format(c, f(p, "badges_per_s"), f(s, "badges_per_s"), ratio, f(p, "bytes"), f(s, "bytes")))
'
