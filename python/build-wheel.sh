#!/usr/bin/env bash
# Builds the pith-number wheel with the `pith` and `pith-serve` programs in it:
#
#   python/build-wheel.sh BIN_DIR OUT_DIR [MATURIN ARGS…]
#   python/build-wheel.sh target/x86_64-unknown-linux-musl/dist dist/ --release
#
# BIN_DIR holds the built programs (`cargo build --profile dist -p pith-number -p pith-serve`,
# or the static build of a release); they are copied into python/wheel-data/scripts/, which
# maturin packs as the wheel's scripts (pyproject.toml, [tool.maturin] data), and the wheel is
# built by maturin (`$MATURIN`, else `maturin` on PATH) into OUT_DIR. The wheel is refused
# unless both programs are in it.
set -euo pipefail
bin_dir=${1:?usage: build-wheel.sh BIN_DIR OUT_DIR [MATURIN ARGS…]}
out_dir=${2:?usage: build-wheel.sh BIN_DIR OUT_DIR [MATURIN ARGS…]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
exe=""
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) exe=.exe ;; esac
scripts="$here/wheel-data/scripts"
rm -rf "$here/wheel-data"
trap 'rm -rf "$here/wheel-data"' EXIT
mkdir -p "$scripts"
for program in pith pith-serve; do
  if [[ ! -x "$bin_dir/$program$exe" ]]; then
    echo "build-wheel: $bin_dir/$program$exe: no such program; build it first" >&2
    exit 2
  fi
  cp "$bin_dir/$program$exe" "$scripts/"
done
"${MATURIN:-maturin}" build --locked -m "$here/Cargo.toml" -o "$out_dir" "$@"
wheel=$(ls -t "$out_dir"/pith_number-*.whl | head -1)
listing=$(python3 -m zipfile -l "$wheel")
for program in pith pith-serve; do
  if ! grep -q "\.data/scripts/$program$exe " <<<"$listing"; then
    echo "build-wheel: $wheel: $program is not in the wheel's scripts" >&2
    exit 1
  fi
done
echo "build-wheel: $wheel"
