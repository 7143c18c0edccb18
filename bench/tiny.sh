#!/usr/bin/env bash
# Every benchmark in bench/ at a tiny size, one after the other, so that none of them rots: CI
# runs this (its figures say nothing; each script's own exit status is what is checked). Prints
# each script's wall time. Scripts that need a build of their own or a download say so and are
# skipped, visibly.
#   bench/tiny.sh [BIN_DIR]
# BIN_DIR holds the pith and pith-serve to run (default target/release, built if missing);
# CORPUS (default ../shared/corpus, else the TeX Live documentation) gives the real PDFs.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-}"
if [[ -z $bin ]]; then
  cargo build --release --quiet -p pith-number -p pith-serve
  bin="${CARGO_TARGET_DIR:-target}/release"
fi
bin="$(cd "$bin" && pwd)"
corpus="${CORPUS:-../shared/corpus}"
[[ -d $corpus ]] || corpus=/usr/share/texlive/texmf-dist/doc
export PITH_BIN="$bin/pith" PITH_OLD_BIN="$bin/pith" PITH="$bin/pith" PITH_BIN_DIR="$bin"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/pith-bench-tiny.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# A few real PDFs for the scripts that walk a whole folder.
mkdir -p "$work/few"
# (head ends the pipe early: the writers' SIGPIPE is expected, not a failure.)
{ find "$corpus" -name '*.pdf' -type f -size +20k -size -2M | LC_ALL=C sort || true; } | head -12 \
  | while read -r f; do cp "$f" "$work/few/$(basename "$(dirname "$f")")-$(basename "$f")"; done
failed=()
run() { # name, command...
  local name="$1" start=$SECONDS; shift
  echo "bench-tiny: $name"
  if "$@" > "$work/out" 2>&1; then
    echo "bench-tiny: $name: ok, $((SECONDS - start)) s"
  else
    cat "$work/out"
    echo "bench-tiny: $name: FAILED, $((SECONDS - start)) s"
    failed+=("$name")
  fi
}
skip() { echo "bench-tiny: $1: skipped ($2)"; }

run number.py python3 bench/number.py --records 200 --runs 1
run arxiv.py python3 bench/arxiv.py --sizes 1000 --pdfs 20 --runs 1 --batch-metadata 1000 \
  --python-max 1000 --work "$work/arxiv"
# Its small-file half reads the installed documentation's PDFs.
docs=$({ find /usr/share/doc /usr/share/texlive/texmf-dist/doc -name '*.pdf' -type f 2>/dev/null || true; } | head -10 | wc -l)
if ((docs >= 10)); then
  run archive.py python3 bench/archive.py --sizes 1 --runs 1 --small-min 10 --small-max 20 \
    --work "$work/archive"
else
  echo "bench-tiny: archive.py: its small-file half skipped (fewer than 10 documentation PDFs installed)"
  run archive.py python3 bench/archive.py --sizes 1 --runs 1 --skip-small --work "$work/archive"
fi
run batch_release.py python3 bench/batch_release.py --count 20 --runs 1 --corpus "$corpus" \
  --work "$work/batch"
run corpus_classes.py python3 bench/corpus_classes.py "$bin/pith" "$bin/pith" "$work/few"
run inject.sh env SIZE_MB=2 bench/inject.sh "$corpus" 1
run refs.py python3 bench/refs.py --papers 1 --refs 5 --pith "$bin/pith" --corpus "$work/few"
run serve.sh env HOT_ROUNDS=1 bench/serve.sh 1 300 2000 300
run sty.sh bench/sty.sh 1 pdflatex
run stamp_refusals.sh bench/stamp_refusals.sh "$work/few" 5
run tar.sh bench/tar.sh "$corpus" 8 1
skip badge.sh "builds the badge bench (cargo bench, a release build of its own) and installs badge-maker from npm"
skip profiles.sh "builds the release and dist profiles from scratch"
if ((${#failed[@]})); then
  echo "bench-tiny: failed: ${failed[*]}"
  exit 1
fi
