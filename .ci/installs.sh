#!/usr/bin/env bash
# Installs what CI built, the way users do, and runs it with no Rust toolchain in reach:
#
#   .ci/installs.sh static ARCHIVE…         the release archives, unpacked, under `env -i`
#   .ci/installs.sh programs DIR            the static programs a build left in DIR, under `env -i`
#   .ci/installs.sh wheel WHEEL             the wheel in a fresh virtual environment (pip, pipx, uv)
#   .ci/installs.sh deb DEB ROOT            the Debian package in a Debian root, then removed
#
# Each runs the README's main job (`pith inject` on the example paper) with what it installed and
# checks the output with pdfinfo and exiftool; `pith index` and `pith serve` must find pith-serve.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
example=(examples/2402.03791v3.pdf --arxiv-atom examples/2402.03791v3.atom.xml)
number=pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5

fail() {
  echo "installs: FAILED: $*" >&2
  exit 1
}

# The number is in the PDF's Info dictionary (pdfinfo) and its XMP packet (exiftool).
check_pdf() {
  local pdf=$1
  pdfinfo -custom "$pdf" | grep "^PithNumber: *$number$" >/dev/null || fail "$pdf: pdfinfo finds no $number"
  [[ $(exiftool -s3 -XMP-pith:Number "$pdf") == "$number" ]] ||
    fail "$pdf: exiftool finds no XMP pith:number $number"
  echo "installs: $pdf carries $number (pdfinfo, exiftool)"
}

# `pith index --help` and `pith serve --help` are answered by pith-serve, found beside pith.
check_serve() {
  local sub
  for sub in index serve; do
    "$@" "$sub" --help | grep "^Usage: pith $sub" >/dev/null || fail "pith $sub --help did not reach pith-serve"
  done
}

static() {
  local tmp archive
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  # Unpacked as a user does, both archives into one folder, so that pith finds pith-serve
  # beside it; each archive is checked against its SHA-256 sum first.
  for archive in "$@"; do
    (cd "$(dirname "$archive")" && sha256sum -c --strict "${archive##*/}.sha256")
    tar -xJf "$archive" -C "$tmp" --strip-components=1
  done
  local bin=$tmp
  for f in pith pith-serve README.md LICENSE-MIT LICENSE-APACHE man/pith.1.gz man/pith-inject.1.gz \
    completions/pith.bash completions/_pith completions/pith.fish tex/pith.sty; do
    [[ -f $bin/$f ]] || fail "$f is not in the archives"
  done
  programs "$bin"
}

# The static programs as a build leaves them (CI builds them once with cargo, in the profile and
# for the target dist-workspace.toml names; `dist build` packs the same programs into the
# release archives that `static` checks): run with an empty environment, statically linked.
programs() {
  local dir=$1 tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  # An empty environment: no PATH, HOME, locale or proxy; the program needs none of them
  env -i "$dir/pith" --version
  env -i "$dir/pith" inject "${example[@]}" -o "$tmp/out.pdf"
  check_pdf "$tmp/out.pdf"
  check_serve env -i "$dir/pith"
  # Static: no program interpreter, no shared library
  if file "$dir/pith" "$dir/pith-serve" | grep "dynamically linked" >/dev/null; then
    fail "$(file "$dir/pith" "$dir/pith-serve")"
  fi
}

# No cargo, no rustc: PATH holds the environment's bin/ and the system's, nothing of Rust's.
no_rust_path() {
  local p=$1:/usr/local/bin:/usr/bin:/bin
  if PATH=$p command -v cargo >/dev/null || PATH=$p command -v rustc >/dev/null; then
    fail "cargo or rustc is on $p"
  fi
  echo "$p"
}

wheel() {
  local wheel=$1 tmp path
  wheel=$(realpath "$wheel")
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  python3 -m venv "$tmp/venv"
  "$tmp/venv/bin/pip" install --quiet --no-deps "$wheel"
  path=$(no_rust_path "$tmp/venv/bin")
  (
    cd "$tmp"
    export PATH=$path HOME=$tmp
    [[ $(command -v pith) == "$tmp/venv/bin/pith" ]] || fail "pith is not the wheel's: $(command -v pith)"
    pith --version
    pith inject "${example[@]/#examples/$repo/examples}" -o "$tmp/out.pdf"
    check_pdf "$tmp/out.pdf"
    check_serve pith
    python -m pith_number --version
    python -c 'import pith_number; print("pith_number", pith_number.__version__)'
  )
  # pipx and uv (from PyPI, in an environment of their own) install the wheel file as a tool:
  # the command is linked into their bin folder, and runs from there.
  python3 -m venv "$tmp/tools"
  "$tmp/tools/bin/pip" install --quiet pipx uv
  PIPX_HOME=$tmp/pipx PIPX_BIN_DIR=$tmp/pipx-bin "$tmp/tools/bin/pipx" install --quiet "$wheel"
  UV_TOOL_DIR=$tmp/uv UV_TOOL_BIN_DIR=$tmp/uv-bin UV_CACHE_DIR=$tmp/uv-cache \
    "$tmp/tools/bin/uv" tool install --quiet --offline "$wheel"
  for bin in "$tmp/pipx-bin" "$tmp/uv-bin"; do
    (
      export PATH
      PATH=$(no_rust_path "$bin")
      cd "$tmp"
      pith --version
      pith inject "${example[@]/#examples/$repo/examples}" -o "$tmp/out-${bin##*/}.pdf"
      check_pdf "$tmp/out-${bin##*/}.pdf"
      check_serve pith
    )
  done
}

deb() {
  local deb=$1 root=$2 before after
  deb=$(realpath "$deb")
  local in_root=(chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
    DEBIAN_FRONTEND=noninteractive)
  # What the root holds before, less what apt and dpkg keep about themselves and TeX's file
  # name databases (ls-R, rewritten by the package's texhash)
  snapshot() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./tmp -o -path ./var/cache \
      -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./root \) -prune \
      -o ! -name ls-R -printf '%y %m %p\n' | sort)
  }
  before=$(snapshot)
  cp "$deb" "$root/tmp/"
  mkdir -p "$root/tmp/pith-example"
  cp examples/2402.03791v3.pdf examples/2402.03791v3.atom.xml "$root/tmp/pith-example/"
  "${in_root[@]}" apt-get install -y -qq "/tmp/${deb##*/}" >/dev/null
  "${in_root[@]}" sh -c 'command -v pith && pith --version && pith-serve --version'
  "${in_root[@]}" pith inject /tmp/pith-example/2402.03791v3.pdf \
    --arxiv-atom /tmp/pith-example/2402.03791v3.atom.xml -o /tmp/pith-example/out.pdf
  check_pdf "$root/tmp/pith-example/out.pdf"
  check_serve "${in_root[@]}" pith
  local sty
  sty=$("${in_root[@]}" kpsewhich pith.sty) || fail "kpsewhich does not find pith.sty"
  [[ $sty == /usr/share/texmf/tex/latex/pith/pith.sty ]] || fail "kpsewhich found $sty"
  echo "installs: kpsewhich pith.sty: $sty"
  for f in /usr/share/man/man1/pith.1.gz /usr/share/man/man1/pith-inject.1.gz \
    /usr/share/bash-completion/completions/pith /usr/lib/systemd/system/pith-serve.service \
    /usr/share/doc/pith/copyright /usr/share/doc/pith/LICENSE-APACHE; do
    [[ -f $root$f ]] || fail "$f is not installed"
  done
  # `man pith`: the page renders (groff, as man does)
  zcat "$root/usr/share/man/man1/pith.1.gz" | groff -man -Tutf8 2>&1 | grep "pith inject" >/dev/null ||
    fail "/usr/share/man/man1/pith.1.gz does not render"
  # The unit is installed, not enabled
  if find "$root/etc/systemd" -name pith-serve.service 2>/dev/null | grep . >/dev/null; then
    fail "pith-serve.service is enabled: $(find "$root/etc/systemd" -name pith-serve.service)"
  fi
  "${in_root[@]}" apt-get remove -y -qq pith >/dev/null
  if "${in_root[@]}" kpsewhich pith.sty; then fail "kpsewhich still finds pith.sty after apt remove"; fi
  rm -rf "$root/tmp/${deb##*/}" "$root/tmp/pith-example"
  after=$(snapshot)
  if [[ $before != "$after" ]]; then
    diff <(echo "$before") <(echo "$after") >&2 || true
    fail "apt remove left the root changed (above: < before install, > after remove)"
  fi
  echo "installs: apt remove pith left the root as it was"
}

what=${1:?usage: installs.sh static ARCHIVE… | programs DIR | wheel WHEEL | deb DEB ROOT}
shift
case $what in
static | programs | wheel | deb) "$what" "$@" ;;
*) fail "unknown step $what" ;;
esac
