#!/usr/bin/env bash
# Compile-time overhead of pith.sty: the same article compiled with and without
# \usepackage{pith}, on each engine, RUNS times each (interleaved), reporting the median
# CPU time (user+system of the TeX run and, for dvips, dvips and ps2pdf) and the difference.
# CPU time rather than wall time, so that other load on the machine does not swamp the result. Usage: bench/sty.sh [RUNS] [ENGINES...]
#   bench/sty.sh 10 pdflatex xelatex lualatex dvips
# Uses the committed latex/pith.sty and tests/latex/article.tex; no network, no shell escape.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-10}"; shift || true
engines=("$@"); [ ${#engines[@]} -eq 0 ] && engines=(pdflatex xelatex lualatex dvips)
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 FORCE_SOURCE_DATE=1
cp "$root/latex/pith.sty" "$work/"
filler='\newcommand\lipsumtext{Filler words fill the column and the page. Filler words fill the column and the page.}'
make_doc() { # $1 = preamble lines, $2 = output file
  PKG="$1$filler" perl -pe 's/%%PRE%%//; s/%%OPTS%%//; s/%%PKG%%/$ENV{PKG}/' \
    "$root/tests/latex/article.tex" > "$2"
}
make_doc '\usepackage{hyperref}' "$work/without.tex"
make_doc '\usepackage{hyperref}\usepackage{pith}\pithnumber{pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5}' "$work/with.tex"
compile() { # $1 engine, $2 job
  case "$1" in
    dvips) latex -interaction=nonstopmode -halt-on-error "$2.tex" >/dev/null &&
           dvips -q -o "$2.ps" "$2.dvi" && ps2pdf "$2.ps" "$2.pdf" ;;
    *) "$1" -interaction=nonstopmode -halt-on-error "$2.tex" >/dev/null ;;
  esac
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
cd "$work"
printf '%-9s %12s %12s %10s %8s\n' engine "without/cpu-s" "with/cpu-s" "overhead" "runs"
for e in "${engines[@]}"; do
  compile "$e" without; compile "$e" with   # warm the caches (fonts, format)
  : > t_without; : > t_with; : > c_without; : > c_with
  for ((i = 0; i < runs; i++)); do
    for job in without with; do
      TIMEFORMAT='%3U + %3S'
      { time compile "$e" "$job" 2>/dev/null; } 2>> "c_$job"
      tail -n 1 "c_$job" | awk '{print $1 + $3}' >> "t_$job"
    done
  done
  a=$(median < t_without); b=$(median < t_with)
  printf '%-9s %12.3f %12.3f %+9.1f%% %8d\n' "$e" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN {print (b - a) * 100 / a}')" "$runs"
done
