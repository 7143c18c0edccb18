#!/usr/bin/env bash
# Benchmark for `pith inject`: one ~50 MB PDF made by concatenating real PDFs from
# the shared corpus with qpdf; `pith inject` in place and to a new file against exiftool writing
# the same kind of metadata (also an incremental update) and against `cp` and `cp` + sync (the
# floors). Prints the median wall time of RUNS runs and the ratio to `cp`, then the bytes each
# pith mode reads (strace: read/pread64 return values; copy_file_range separately, the kernel
# copies those without pith reading them). The full side-by-side table with pikepdf, PyMuPDF
# and qpdf is bench/archive.py. Not a timed test; run by hand:
#   bench/inject.sh [CORPUS_DIR] [RUNS]
# SIZE_MB=N (50) sets the size of the concatenation.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/corpus}"
size_mb="${SIZE_MB:-50}"
runs="${2:-7}"
source bench/lib.sh
require qpdf exiftool python3 strace
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# PITH_BIN=path runs that binary instead of building this tree's.
pith_bin

# Inputs: the largest corpus files that qpdf checks cleanly, added one by one until the
# concatenation (streams uncompressed, as qpdf shares repeated files) reaches SIZE_MB.
mapfile -t candidates < <(find "$corpus" -name '*.pdf' -size +100k -size -5M -printf '%s %p\n' | sort -n | cut -d' ' -f2-)
inputs=()
for f in "${candidates[@]}"; do
  if timeout 20 qpdf --check "$f" >/dev/null 2>&1 && ! qpdf --is-encrypted "$f" >/dev/null 2>&1; then
    inputs+=("$f")
  fi
  [ "${#inputs[@]}" -ge $((size_mb * 6 < 300 ? size_mb * 6 : 300)) ] && break
done
[ "${#inputs[@]}" -gt 0 ] || { echo "bench: no usable corpus PDFs in $corpus" >&2; exit 2; }
big="$work/big.pdf"
pages=()
size=0
i=0
while [ "$size" -lt $((size_mb * 1024 * 1024)) ] && [ "$i" -lt 2000 ]; do
  # qpdf shares a file given twice, so later rounds use copies under other names.
  n=${#inputs[@]}
  src="${inputs[$((i % n))]}"
  if [ "$i" -ge "$n" ]; then
    cp "$src" "$work/copy-$i.pdf"
    src="$work/copy-$i.pdf"
  fi
  pages+=("$src")
  i=$((i + 1))
  qpdf --empty --stream-data=uncompress --pages "${pages[@]}" -- "$work/next.pdf" 2>/dev/null || true
  next=$(stat -c %s "$work/next.pdf" 2>/dev/null || echo 0)
  if [ "$next" -gt $((size_mb * 6 / 5 * 1024 * 1024 + 1024 * 1024)) ]; then
    unset 'pages[-1]' # this file would overshoot the size by far: skip it
  else
    mv "$work/next.pdf" "$big"
    size=$next
  fi
done
echo "bench: input $(numfmt --to=iec "$size") ($size bytes) from ${#pages[@]} corpus files"

time_runs() { # label, command...; prints the median seconds
  local label="$1"; shift
  local times=()
  for _ in $(seq "$runs"); do
    rm -f "$work/out.pdf" "$work/out.pdf_exiftool_tmp"
    local t0 t1
    t0=$EPOCHREALTIME # no fork inside the timed interval
    "$@" >/dev/null 2>&1
    t1=$EPOCHREALTIME
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -n | python3 -c 'import sys,statistics; print(statistics.median(float(l) for l in sys.stdin))'
}

number=pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5
url=https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5
cp_t=$(time_runs cp cp "$big" "$work/out.pdf")
cps_t=$(time_runs cp+sync sh -c "cp '$big' '$work/out.pdf' && sync '$work/out.pdf'")
pith_t=$(time_runs pith "$pith" inject "$big" --number "$number" -o "$work/out.pdf")
exif_t=$(time_runs exiftool exiftool -config /dev/null "-XMP-xmp:Identifier+=$number" "-XMP-dc:Relation+=$url" -o "$work/out.pdf" "$big")

# In place: metadata only vs metadata + visible stamp on page 1, each run on a fresh
# copy of the input (the copy is not timed).
time_inplace() { # extra args...; prints the median seconds
  local times=()
  for _ in $(seq "$runs"); do
    cp "$big" "$work/ip.pdf"
    sync "$work/ip.pdf"
    local t0 t1
    t0=$EPOCHREALTIME # no fork inside the timed interval
    "$pith" inject "$work/ip.pdf" --number "$number" --in-place "$@" >/dev/null 2>&1
    t1=$EPOCHREALTIME
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -n | python3 -c 'import sys,statistics; print(statistics.median(float(l) for l in sys.stdin))'
}
ip_t=$(time_inplace)
# --force: qpdf carries the signature fields of signed corpus files into the concatenation
# (their signatures no longer cover it), which --stamp would otherwise refuse.
ips_t=$(time_inplace --stamp --force)
cp "$big" "$work/ip.pdf"
"$pith" inject "$work/ip.pdf" --number "$number" --in-place >/dev/null
ip_grow=$(( $(stat -c %s "$work/ip.pdf") - size ))
cp "$big" "$work/ip.pdf"
"$pith" inject "$work/ip.pdf" --number "$number" --in-place --stamp --force >/dev/null
ips_grow=$(( $(stat -c %s "$work/ip.pdf") - size ))
pdftotext -f 1 -l 1 "$work/ip.pdf" - | grep -q 'pith:7BMK4ZKT' || { echo "bench: no stamp on page 1" >&2; exit 1; }

# Sanity: pith's output carries the number and keeps the input as a prefix.
"$pith" inject "$big" --number "$number" -o "$work/out.pdf" >/dev/null
cmp -s -n "$size" "$big" "$work/out.pdf" || { echo "bench: input is not a prefix of pith's output" >&2; exit 1; }

python3 - "$cp_t" "$cps_t" "$ip_t" "$pith_t" "$exif_t" "$size" "$ips_t" "$ip_grow" "$ips_grow" <<'PY'
import sys
cp, cps, ip, pith, exif, size, ips, ip_grow, ips_grow = map(float, sys.argv[1:])
print(f"| tool | median time (s) | MB/s | ratio to cp | ratio to cp + sync |")
print(f"|---|---:|---:|---:|---:|")
for name, t in [("cp", cp), ("cp + sync", cps), ("pith inject --in-place", ip), ("pith inject -o", pith), ("exiftool", exif)]:
    print(f"| {name} | {t:.4f} | {size / t / 1e6:.0f} | {t / cp:.2f} | {t / cps:.2f} |")
print()
print(f"| in place | median time (s) | bytes appended |")
print(f"|---|---:|---:|")
print(f"| pith inject --in-place (metadata) | {ip:.4f} | {ip_grow:.0f} |")
print(f"| pith inject --in-place --stamp | {ips:.4f} | {ips_grow:.0f} |")
PY

# Bytes read per mode, from the syscalls' return values.
syscall_bytes() { # syscalls, command...; prints the sum of the return values
  local calls="$1"; shift
  strace -f -qq -e trace="$calls" -o "$work/strace.log" "$@" >/dev/null 2>&1 || true
  awk -F'= ' '/= [0-9]+$/ {s += $NF} END {print s + 0}' "$work/strace.log"
}
xref_bytes=$(python3 - "$big" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
sx = int(re.findall(rb"startxref\s+(\d+)", data[-2048:])[-1])
print(len(data) - sx)
PY
)
reads="read,pread64,readv,preadv,preadv2"
cp "$big" "$work/inplace.pdf"
echo
echo "| mode | bytes read by pith | bytes copied by the kernel (copy_file_range) |"
echo "|---|---:|---:|"
echo "| (newest xref section and trailer) | $xref_bytes | |"
echo "| pith inspect | $(syscall_bytes "$reads" "$pith" inspect "$big") | |"
echo "| pith inspect --deep | $(syscall_bytes "$reads" "$pith" inspect --deep "$big") | |"
echo "| pith inject --in-place | $(syscall_bytes "$reads" "$pith" inject --in-place "$work/inplace.pdf" --number "$number") | |"
rm -f "$work/out.pdf"
echo "| pith inject -o | $(syscall_bytes "$reads" "$pith" inject "$big" --number "$number" -o "$work/out.pdf") | $(syscall_bytes copy_file_range "$pith" inject "$big" --number "$number" -o "$work/out2.pdf") |"

