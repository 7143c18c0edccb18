#!/usr/bin/env bash
# What the quick-compiling release profile costs at run time against the dist profile (thin
# LTO, 4 codegen units: what the release profile was before): the same CPU-bound work, with
# each binary in turn, RUNS times; prints the median wall and user+sys CPU seconds of each and
# their ratio. Also times each profile's build from scratch (in a target directory of its own)
# unless NO_BUILD_TIMES=1. Not a timed test; run by hand:
#   bench/profiles.sh [RUNS]
# Work measured:
#   number   `pith number --arxiv-snapshot` on 50,000 generated snapshot lines (JSON, canonical
#            records, SHA-256): the bulk numbering path
#   inject   `pith batch` of 400 copies of the example paper into a fresh directory (reading,
#            planning and writing incremental updates, synced): the archive path
#   stamp    the same with --stamp (font subset, page content, link annotation)
#   badge    `pith badge --qr` 300 times (SVG and QR code): the web path
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
command -v python3 >/dev/null || { echo "bench: python3 is required" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

build() { # profile, target dir: prints "wall user+sys" of a build from scratch
  local profile="$1" dir="$2" t0 t1
  t0=$(date +%s.%N)
  local cpu
  cpu=$( { /usr/bin/env time -f '%U %S' cargo build --locked --quiet --profile "$profile" \
    --target-dir "$dir" >/dev/null 2>/dev/null; } 2>&1 | tail -n 1)
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v c="$cpu" 'BEGIN { split(c, u, " "); printf "%.0f %.0f\n", b - a, u[1] + u[2] }'
}

declare -A bin
if [ "${NO_BUILD_TIMES:-0}" = 1 ]; then
  cargo build --locked --quiet --release
  cargo build --locked --quiet --profile dist
  bin[release]="${CARGO_TARGET_DIR:-target}/release/pith"
  bin[dist]="${CARGO_TARGET_DIR:-target}/dist/pith"
else
  for p in release dist; do
    read -r wall cpu < <(build "$p" "$work/target-$p")
    echo "bench: build --profile $p from scratch: ${wall} s wall, ${cpu} s user+sys (load $(cut -d' ' -f1-3 /proc/loadavg))"
    bin[$p]="$work/target-$p/$p/pith"
  done
fi

# Inputs
python3 bench/arxiv_gen.py 50000 > "$work/snapshot.jsonl"
mkdir -p "$work/in"
for i in $(seq 1 400); do
  cp examples/2402.03791v3.pdf "$work/in/p$i.pdf"
  echo "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5" > "$work/in/p$i.pith"
done
export SOURCE_DATE_EPOCH=1700000000

one() { # profile, case: runs the case once
  local pith="${bin[$1]}"
  case "$2" in
    number) "$pith" -q number --arxiv-snapshot "$work/snapshot.jsonl" > /dev/null ;;
    inject) rm -rf "$work/out"; "$pith" -q batch --dir "$work/in" --out-dir "$work/out" --report /dev/null -j 2 ;;
    stamp) rm -rf "$work/out"; "$pith" -q batch --dir "$work/in" --out-dir "$work/out" --report /dev/null -j 2 --stamp ;;
    badge) for i in $(seq 1 300); do "$pith" badge pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --qr -o - > /dev/null; done ;;
  esac
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '| case | release wall s | dist wall s | release/dist | release CPU s | dist CPU s | release/dist |\n'
printf '|---|---:|---:|---:|---:|---:|---:|\n'
for c in number inject stamp badge; do
  declare -A wall cpu
  for p in release dist; do
    one "$p" "$c" # warm-up
    ws=() cs=()
    for _ in $(seq 1 "$runs"); do
      # Alternate nothing: each profile's runs are back to back, the two profiles one after the
      # other per case, so that a change of load shows in both columns of the same row.
      out=$( { /usr/bin/env time -f '%e %U %S' bash -c "$(declare -f one); $(declare -p bin work); one $p $c"; } 2>&1 | tail -n 1)
      ws+=("$(echo "$out" | awk '{print $1}')")
      cs+=("$(echo "$out" | awk '{print $2 + $3}')")
    done
    wall[$p]=$(printf '%s\n' "${ws[@]}" | median)
    cpu[$p]=$(printf '%s\n' "${cs[@]}" | median)
  done
  awk -v c="$c" -v wr="${wall[release]}" -v wd="${wall[dist]}" -v cr="${cpu[release]}" -v cd="${cpu[dist]}" \
    'BEGIN { printf "| %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |\n", c, wr, wd, wr / wd, cr, cd, cr / cd }'
done
echo "bench: median of $runs runs each; load $(cut -d' ' -f1-3 /proc/loadavg)"
