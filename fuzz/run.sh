#!/usr/bin/env bash
# Builds the fuzz targets as plain libFuzzer binaries and runs each for a bounded time.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, every target)
#
# Needs stable Rust and a C++ compiler only: the binaries are built with `cargo build` and the
# coverage flags `cargo fuzz build -s none` passes, so neither cargo-fuzz nor nightly is needed
# (no AddressSanitizer: pith is `#![forbid(unsafe_code)]`, so a panic or an abort is the crash
# to find). For local work `RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET` works as well.
#
# Seeds: fuzz/seeds/TARGET (committed), plus for the PDF targets (pdf_inject, places, inspect,
# verify) the PDFs under 20 KB of ../shared/corpus (or $PITH_CORPUS) and tests/fixtures. New
# inputs go to a scratch corpus (fuzz/corpus/TARGET, not committed). A crash stops the run and
# fails the script, and so does an input over the target's bounds: the readers' targets
# (places, inspect, verify, filters, ots, and the outside-input readers warc, cdx, bbl, refs_text,
# refs_lines) have 256 MB and 10 s per input, so that a small file that costs
# memory or work out of proportion is found as a crash; the others 2 GB and 20 s. The input is
# saved in fuzz/artifacts/TARGET/ and the command to replay it is printed.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
all=(atom record_json bundle xmp pdf_inject places inspect verify filters ots warc cdx bbl refs_text refs_lines)
# Targets that read PDFs: seeded with the corpus and fixtures.
pdf_targets=" pdf_inject places inspect verify refs_text "
if (($#)); then targets=("$@"); else targets=("${all[@]}"); fi

triple=$(rustc -vV | sed -n 's/^host: //p')
flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
flags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table"
flags+=" -Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-sanitizer-coverage-stack-depth"
flags+=" -Cllvm-args=-simplifycfg-branch-fold-threshold=0 --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
target_dir=${CARGO_TARGET_DIR:-target}
echo "fuzz: building ${targets[*]} ($triple, libFuzzer, no sanitizer)"
start=$SECONDS
# --target keeps the coverage flags away from build scripts and proc macros, as cargo-fuzz does.
RUSTFLAGS="$flags" cargo build --release --locked --target "$triple" --target-dir "$target_dir" \
  $(printf -- '--bin %s ' "${targets[@]}")
echo "fuzz: built in $((SECONDS - start)) s"

corpus_dir=${PITH_CORPUS:-../../shared/corpus}
pdf_seeds=corpus/pdf-seeds
wants_pdfs=0
for t in "${targets[@]}"; do [[ $pdf_targets == *" $t "* ]] && wants_pdfs=1; done
if ((wants_pdfs)); then
  rm -rf "$pdf_seeds"
  mkdir -p "$pdf_seeds"
  if [[ -d "$corpus_dir" ]]; then
    # Small files only: each seed is run once at start-up, and small inputs mutate faster.
    find "$corpus_dir" -name '*.pdf' -size -20k -print0 |
      while IFS= read -r -d '' f; do cp "$f" "$pdf_seeds/$(echo "$f" | sha1sum | cut -c1-16).pdf"; done
  else
    echo "fuzz: $corpus_dir not found; the PDF targets start from tests/fixtures only"
  fi
  cp ../tests/fixtures/*.pdf "$pdf_seeds/"
fi

# One target per core at a time (two cores: the eight targets take four rounds).
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
run_one() {
  local t=$1 bin="$target_dir/$triple/release/$1" seeds=() rss=2048 timeout=20
  mkdir -p "corpus/$t" "artifacts/$t"
  if [[ $pdf_targets == *" $t "* ]]; then seeds=("$pdf_seeds"); fi
  if [[ -d seeds/$t ]]; then seeds+=("seeds/$t"); fi
  # The readers must stay bounded whatever a file claims: a low limit makes an amplification
  # a crash.
  case $t in places | inspect | verify | filters | ots | warc | cdx | bbl | refs_text | refs_lines) rss=256 timeout=10 ;; esac
  "$bin" "corpus/$t" "${seeds[@]}" -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb="$rss" \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"artifacts/$t.log" 2>&1
  echo $? >"artifacts/$t.rc"
}
echo "fuzz: running ${#targets[@]} targets for $secs s each, $jobs at a time"
running=0
for t in "${targets[@]}"; do
  rm -f "artifacts/$t.rc"
  run_one "$t" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

failed=()
for t in "${targets[@]}"; do
  log="artifacts/$t.log"
  rc=$(cat "artifacts/$t.rc" 2>/dev/null || echo "?")
  stats=$(grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$log" |
    sed 's/stat:://; s/: */=/' | tr '\n' ' ' || true)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  if [[ $rc == 0 ]]; then
    echo "fuzz: $t ok: $stats$cov"
  else
    echo "fuzz: $t FAILED (libFuzzer exit $rc): $stats$cov"
    grep -E 'panicked|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/fuzz:   /' || true
    for a in "artifacts/$t"/*; do
      [[ -f $a ]] && echo "fuzz:   replay: (cd fuzz && $target_dir/$triple/release/$t $a)"
    done
    echo "fuzz:   full log: fuzz/$log"
    failed+=("$t")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: FAILED: ${failed[*]} (keep each input as a regression test in tests/hardening_inputs.rs)"
  exit 1
fi
echo "fuzz: all ${#targets[@]} targets ran $secs s each without a crash"
