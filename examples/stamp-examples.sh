#!/usr/bin/env bash
# Renders examples/stamp-*.png: page 1 of three stamped documents, with pdftoppm.
#   stamp-portrait.png   examples/2402.03791v3.pdf, default stamp (short form, left margin)
#   stamp-rotated.png    tests/fixtures/stamp/rotate90.pdf (/Rotate 90), default stamp
#   stamp-arxiv.png      tests/fixtures/stamp/arxiv-like.pdf, full form beside arXiv's stamp
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=$(target/debug/pith number --arxiv-atom examples/2402.03791v3.atom.xml)
stamp() { target/debug/pith inject "$1" --number "$n" -o "$tmp/$2.pdf" --stamp "${@:3}" >/dev/null
  pdftoppm -f 1 -l 1 -r 60 -png -singlefile "$tmp/$2.pdf" "examples/stamp-$2"; }
stamp examples/2402.03791v3.pdf portrait
stamp tests/fixtures/stamp/rotate90.pdf rotated
stamp tests/fixtures/stamp/arxiv-like.pdf arxiv --stamp-full
ls -l examples/stamp-*.png
