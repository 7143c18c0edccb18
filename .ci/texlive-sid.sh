#!/usr/bin/env bash
# Builds (or reuses) a Debian unstable ("sid") root with the newest TeX Live that Debian ships,
# for the second TeX Live leg of the pith.sty matrix:
#
#   .ci/texlive-sid.sh DIR        # prints DIR when ready
#   PITH_TEX_CHROOT=DIR PITH_REQUIRE_TOOLS=1 cargo test --test main latex
#
# Packages come from Debian's archive only (debootstrap --variant=minbase, then apt inside the
# root); no containers. The root is cached: when DIR/.pith-ready exists it is reused (local
# runs); CI passes a fresh DIR. The archive's copy of unstable can carry an expired Release
# date, hence Acquire::Check-Valid-Until=false. Nothing is mounted into the root (the TeX
# programs need no /proc), so removing DIR is a plain rm -rf.
#
# Measured on the 2-core development machine: debootstrap 36 s, TeX install 3 min 05 s, 1.7 GB.
set -euo pipefail
root=${1:?usage: texlive-sid.sh DIR}
mirror=${PITH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages=(
  texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-publishers
  texlive-xetex texlive-luatex texlive-fonts-recommended lmodern ghostscript
  # conference kits (tests/kits); zip for `l3build ctan`
  tex-gyre texlive-science zip
  # AASTeX's epsf and ulem (tests/latex.rs, class_options)
  texlive-plain-generic
)
if [ -f "$root/.pith-ready" ]; then
  echo "texlive-sid: reusing $root" >&2
  echo "$root"
  exit 0
fi
if [ -e "$root" ] && [ -n "$(ls -A "$root" 2>/dev/null)" ]; then
  echo "texlive-sid: $root exists but is not a finished root (no .pith-ready); remove it first" >&2
  exit 2
fi
command -v debootstrap >/dev/null ||
  apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
mkdir -p "$root"
start=$SECONDS
echo "texlive-sid: debootstrap --variant=minbase sid $root ($mirror)" >&2
debootstrap --variant=minbase sid "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
  tail -20 "$root.debootstrap.log" >&2
  exit 1
}
boot=$SECONDS
echo "texlive-sid: debootstrap took $((boot - start)) s; installing ${packages[*]}" >&2
apt_in_root=(chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get
  -o Acquire::Check-Valid-Until=false)
"${apt_in_root[@]}" update -qq >&2
"${apt_in_root[@]}" install -y -qq --no-install-recommends "${packages[@]}" \
  >"$root.apt.log" 2>&1 || {
  tail -20 "$root.apt.log" >&2
  exit 1
}
chroot "$root" apt-get clean
chroot "$root" pdflatex --version | head -1 >&2
echo "texlive-sid: TeX install took $((SECONDS - boot)) s; $(du -sh "$root" | cut -f1)" >&2
touch "$root/.pith-ready"
echo "$root"
