#!/usr/bin/env bash
# Benchmark for `pith batch --tar`: an arXiv-like bulk tar (real PDFs from the
# shared corpus, as many as fit in SIZE_MB, named YYMM/<id>v1.pdf with a bulk-metadata line per
# id) streamed through pith against copying it (`cat IN.tar > OUT.tar && sync`, the floor).
# Prints the median wall time of RUNS alternating rounds, the ratio to the copy (target: 1.2x
# or less), the rate in MB/s, the CPU time (user + sys) and MB per CPU second (what a core
# costs), and GNU time's peak RSS; also the run whose report goes to a file (the others send
# theirs to /dev/null), the run with --arxiv-manifest, which adds an md5 of the input and of
# the output, and md5sum alone for scale. Not a timed test; run by hand:
#   bench/tar.sh [CORPUS_DIR] [SIZE_MB] [RUNS] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/corpus}"
size_mb="${2:-256}"
runs="${3:-5}"
jobs="${4:-$(nproc)}"
source bench/lib.sh
require tar python3 /usr/bin/time
work="$(mktemp -d "${TMPDIR:-/var/tmp}/pith-tar-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# PITH_BIN=path runs that binary instead of building this tree's.
pith_bin

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
tar --format=gnu --dereference --hard-dereference -cf "$work/in.tar" -C "$work/src" -T "$work/names"
rm -rf "$work/src"
in_mb=$(( $(stat -c %s "$work/in.tar") / 1048576 ))
sync

# The commands timed, by name; each round runs every one once, the first one in turn (so no
# command always runs right after the same other one), each after a sync and with no output
# left over. `measure NAME` then prints "median_wall_s median_cpu_s peak_rss_kb" (CPU: user +
# sys) over the rounds.
declare -A cmd wall cpu peak
names=()
add() { names+=("$1"); cmd[$1]="$2"; wall[$1]=""; cpu[$1]=""; peak[$1]=0; }
rounds() {
  local r i n k
  n=${#names[@]}
  for r in $(seq 0 $((runs - 1))); do
    for i in $(seq 0 $((n - 1))); do
      k=${names[$(( (i + r) % n ))]}
      rm -f "$work/out.tar"
      sync
      /usr/bin/time -f '%e %U %S %M' -o "$work/time" bash -c "${cmd[$k]}"
      read -r t u s m < "$work/time"
      wall[$k]+="$t "
      cpu[$k]+="$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}') "
      if [ "$m" -gt "${peak[$k]}" ]; then peak[$k]=$m; fi
    done
  done
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() { echo "$(median <<< "${wall[$1]}") $(median <<< "${cpu[$1]}") ${peak[$1]}"; }

# A manifest listing the tar, for the run that checks it (md5 of the input and the output).
python3 - "$work" <<'EOF2'
import hashlib, os, sys
work = sys.argv[1]
t = os.path.join(work, "in.tar")
h = hashlib.md5()
with open(t, "rb") as f:
    for b in iter(lambda: f.read(1 << 20), b""):
        h.update(b)
open(os.path.join(work, "manifest.xml"), "w").write(
    "<arXivPDF>\n<file>\n<filename>pdf/in.tar</filename>\n"
    f"<md5sum>{h.hexdigest()}</md5sum>\n<size>{os.path.getsize(t)}</size>\n<yymm>2402</yymm>\n</file>\n</arXivPDF>\n")
EOF2

export SOURCE_DATE_EPOCH=1700000000
add cat "cat '$work/in.tar' > '$work/out.tar' && sync"
add file "'$pith' -q batch --tar '$work/in.tar' --out-tar '$work/out.tar' --arxiv-metadata '$work/meta.jsonl' --report /dev/null -j $jobs && sync"
add rep "'$pith' -q batch --tar '$work/in.tar' --out-tar '$work/out.tar' --arxiv-metadata '$work/meta.jsonl' --report '$work/report.jsonl' -j $jobs && sync"
add pipe "cat '$work/in.tar' | '$pith' -q batch --tar - --out-tar - --arxiv-metadata '$work/meta.jsonl' --report /dev/null -j $jobs > '$work/out.tar' && sync"
add man "'$pith' -q batch --tar '$work/in.tar' --out-tar '$work/out.tar' --arxiv-metadata '$work/meta.jsonl' --arxiv-manifest '$work/manifest.xml' --report /dev/null -j $jobs && sync"
add md5 "md5sum '$work/in.tar' > /dev/null"
rounds
read -r t_cat c_cat r_cat < <(measure cat)
read -r t_file c_file r_file < <(measure file)
read -r t_rep c_rep r_rep < <(measure rep)
read -r t_pipe c_pipe r_pipe < <(measure pipe)
read -r t_man c_man r_man < <(measure man)
read -r t_md5 c_md5 r_md5 < <(measure md5)
summary=$("$pith" -q batch --tar "$work/in.tar" --out-tar "$work/check.tar" --arxiv-metadata "$work/meta.jsonl" -j "$jobs" | tail -n 1)
rm -f "$work/check.tar"

echo "bench: $in_mb MB tar, median of $runs alternating rounds, $jobs workers, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "bench: pith's totals: $summary"
printf '| run | median s | vs cat + sync | MB/s | CPU s | MB per CPU s | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|\n'
row() {
  awk -v n="$1" -v t="$2" -v c="$3" -v base="$t_cat" -v mb="$in_mb" -v rss="$4" \
    'BEGIN {printf "| %s | %.2f | %.2fx | %.0f | %.2f | %.0f | %.0f |\n", n, t, t / base, mb / t, c, (c > 0 ? mb / c : 0), rss / 1024}'
}
row "cat IN.tar > OUT.tar && sync" "$t_cat" "$c_cat" "$r_cat"
row "pith batch --tar IN.tar --out-tar OUT.tar" "$t_file" "$c_file" "$r_file"
row "pith batch --tar IN.tar --out-tar OUT.tar --report R.jsonl" "$t_rep" "$c_rep" "$r_rep"
row "cat IN.tar \\| pith batch --tar - --out-tar - > OUT.tar" "$t_pipe" "$c_pipe" "$r_pipe"
row "pith batch --tar IN.tar --out-tar OUT.tar --arxiv-manifest M.xml" "$t_man" "$c_man" "$r_man"
row "md5sum IN.tar (what the manifest check adds, for scale)" "$t_md5" "$c_md5" "$r_md5"
