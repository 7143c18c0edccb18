# What the shell benchmarks share, sourced by them (bench/inject.sh, bench/tar.sh): the check
# for the tools a benchmark needs, and the pith it measures.

# Exits with 2, naming the first of the tools given that is not on PATH.
require() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
  done
}

# Sets $pith: PITH_BIN=path runs that binary, else this tree's release build (built first).
pith_bin() {
  if [[ -n "${PITH_BIN:-}" ]]; then
    pith="$PITH_BIN"
  else
    cargo build --release --quiet
    pith="${CARGO_TARGET_DIR:-target}/release/pith"
  fi
}
