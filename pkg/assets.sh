#!/usr/bin/env bash
# Generates what the packages ship beside the programs, from the built `pith` itself so that it
# always matches it: the man pages (`pith man`), shell completions (`pith completions`) and the
# LaTeX package (`pith sty`):
#
#   pkg/assets.sh BIN_DIR      # e.g. target/x86_64-unknown-linux-musl/dist
#
# writes BIN_DIR/man/*.1.gz, BIN_DIR/completions/{pith.bash,_pith,pith.fish,pith.elv,_pith.ps1}
# and BIN_DIR/tex/{pith.sty,pith.sty.ltxml}, where the Debian package ([package.metadata.deb]
# in Cargo.toml, "target/release/" standing for BIN_DIR) and the release archives take them.
set -euo pipefail
bin_dir=${1:?usage: assets.sh BIN_DIR}
pith="$bin_dir/pith"
[[ -x $pith ]] || { echo "assets: $pith: no such program; build it first" >&2; exit 2; }
rm -rf "$bin_dir/man" "$bin_dir/completions" "$bin_dir/tex"
mkdir -p "$bin_dir/man" "$bin_dir/completions" "$bin_dir/tex"
"$pith" --quiet man --dir "$bin_dir/man"
# gzip -n: no name or time stamp, so that the same pages give the same bytes
gzip -9n "$bin_dir"/man/*.1
"$pith" completions bash >"$bin_dir/completions/pith.bash"
"$pith" completions zsh >"$bin_dir/completions/_pith"
"$pith" completions fish >"$bin_dir/completions/pith.fish"
"$pith" completions elvish >"$bin_dir/completions/pith.elv"
"$pith" completions powershell >"$bin_dir/completions/_pith.ps1"
"$pith" --quiet sty -o "$bin_dir/tex"
echo "assets: $(ls "$bin_dir/man" | wc -l) man pages, completions for 5 shells, pith.sty in $bin_dir"
