#!/usr/bin/env bash
# Benchmark for `pith batch --tar` (issue 26): an arXiv-like bulk tar (real PDFs from the
# shared corpus, as many as fit in SIZE_MB, named YYMM/<id>v1.pdf with a bulk-metadata line per
# id) streamed through pith against copying it (`cat IN.tar > OUT.tar && sync`, the floor).
# Prints the median wall time of RUNS runs, the ratio to the copy (target: 1.5x or less), the
# rate in MB/s and per core used, and GNU time's peak RSS. Not a timed test; run by hand:
#   bench/tar.sh [CORPUS_DIR] [SIZE_MB] [RUNS] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/corpus}"
size_mb="${2:-256}"
runs="${3:-5}"
jobs="${4:-$(nproc)}"
for tool in tar python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
work="$(mktemp -d "${TMPDIR:-/var/tmp}/pith-tar-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
pith="${CARGO_TARGET_DIR:-target}/release/pith"

# The tar: corpus PDFs from 100 KB to 5 MB (arXiv's PDFs are about 1 MB on average), cycled
# until SIZE_MB, each under a new-style id of month 2402; the metadata gives each id one version.
python3 - "$corpus" "$size_mb" "$work" <<'EOF'
import json, os, sys
corpus, size_mb, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
pdfs = sorted(
    os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs
    if f.lower().endswith(".pdf") and 100_000 <= os.path.getsize(os.path.join(d, f)) <= 5_000_000
)
pdfs.append("examples/2402.03791v3.pdf")
line = json.loads(open("tests/data/arxiv/vectors.snapshot.jsonl").readline())
line["versions"] = line["versions"][:1]
src = os.path.join(work, "src")
os.makedirs(os.path.join(src, "2402"))
total, i, names = 0, 0, []
with open(os.path.join(work, "meta.jsonl"), "w") as meta:
    while total < size_mb << 20:
        p = pdfs[i % len(pdfs)]
        ident = f"2402.{i:05d}"
        name = f"2402/{ident}v1.pdf"
        os.symlink(os.path.abspath(p), os.path.join(src, name))
        names.append(name)
        total += os.path.getsize(p)
        line["id"] = ident
        meta.write(json.dumps(line) + "\n")
        i += 1
open(os.path.join(work, "names"), "w").write("\n".join(names) + "\n")
print(f"bench: {i} PDFs, {total / 2**20:.0f} MB, from {len(pdfs)} distinct files", file=sys.stderr)
EOF
tar --format=gnu --dereference -cf "$work/in.tar" -C "$work/src" -T "$work/names"
rm -rf "$work/src"
in_mb=$(( $(stat -c %s "$work/in.tar") / 1048576 ))
sync

# Runs a command RUNS times; prints "median_seconds peak_rss_kb".
measure() {
  local times=() rss=0
  for _ in $(seq "$runs"); do
    rm -f "$work/out.tar"
    sync
    /usr/bin/time -f '%e %M' -o "$work/time" bash -c "$1"
    read -r t m < "$work/time"
    times+=("$t")
    [ "$m" -gt "$rss" ] && rss=$m
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v rss="$rss" '{a[NR]=$1} END {print a[int((NR+1)/2)], rss}'
}

export SOURCE_DATE_EPOCH=1700000000
read -r t_cat r_cat < <(measure "cat '$work/in.tar' > '$work/out.tar' && sync")
read -r t_file r_file < <(measure "'$pith' -q batch --tar '$work/in.tar' --out-tar '$work/out.tar' --arxiv-metadata '$work/meta.jsonl' --report /dev/null -j $jobs && sync")
summary=$("$pith" -q batch --tar "$work/in.tar" --out-tar "$work/check.tar" --arxiv-metadata "$work/meta.jsonl" -j "$jobs" | tail -n 1)
rm -f "$work/check.tar"
read -r t_pipe r_pipe < <(measure "cat '$work/in.tar' | '$pith' -q batch --tar - --out-tar - --arxiv-metadata '$work/meta.jsonl' --report /dev/null -j $jobs > '$work/out.tar' && sync")

echo "bench: $in_mb MB tar, median of $runs runs, $jobs workers, $(nproc) cores"
echo "bench: pith's totals: $summary"
printf '| run | median s | vs cat + sync | MB/s | MB/s per core | peak RSS MB |\n|---|---:|---:|---:|---:|---:|\n'
row() {
  awk -v n="$1" -v t="$2" -v base="$t_cat" -v mb="$in_mb" -v rss="$3" -v cores="$4" \
    'BEGIN {printf "| %s | %.2f | %.2fx | %.0f | %.0f | %.0f |\n", n, t, t / base, mb / t, mb / t / cores, rss / 1024}'
}
row "cat IN.tar > OUT.tar && sync" "$t_cat" "$r_cat" 1
row "pith batch --tar IN.tar --out-tar OUT.tar (-j $jobs)" "$t_file" "$r_file" "$(( jobs < $(nproc) ? jobs : $(nproc) ))"
row "cat IN.tar | pith batch --tar - --out-tar - > OUT.tar (-j $jobs)" "$t_pipe" "$r_pipe" "$(( jobs < $(nproc) ? jobs : $(nproc) ))"
