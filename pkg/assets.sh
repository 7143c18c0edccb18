#!/usr/bin/env bash
# Generates what the packages ship beside the programs, from a `pith` built from this tree, so
# that it always says what the programs do: the man pages (`pith man`), shell completions
# (`pith completions`) and the LaTeX package (`pith sty`). Any build gives the same text:
#
#   pkg/assets.sh BIN_DIR      # e.g. target/debug after `cargo build`
#
# writes target/assets/man/*.1.gz, target/assets/completions/{pith.bash,_pith,pith.fish,
# pith.elv,_pith.ps1} and target/assets/tex/{pith.sty,pith.sty.ltxml}, the same for every
# platform, where the Debian package ([package.metadata.deb] in Cargo.toml) and the release
# archives (dist-workspace.toml, `include`) take them.
set -euo pipefail
bin_dir=${1:?usage: assets.sh BIN_DIR}
out=$(cd "$(dirname "$0")/.." && pwd)/target/assets
pith="$bin_dir/pith"
[[ -x $pith ]] || { echo "assets: $pith: no such program; build it first" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/man" "$out/completions" "$out/tex"
"$pith" --quiet man --dir "$out/man"
# gzip -n: no name or time stamp, so that the same pages give the same bytes
gzip -9n "$out"/man/*.1
"$pith" completions bash >"$out/completions/pith.bash"
"$pith" completions zsh >"$out/completions/_pith"
"$pith" completions fish >"$out/completions/pith.fish"
"$pith" completions elvish >"$out/completions/pith.elv"
"$pith" completions powershell >"$out/completions/_pith.ps1"
"$pith" --quiet sty -o "$out/tex"
echo "assets: $(ls "$out/man" | wc -l) man pages, completions for 5 shells, pith.sty in $out"
