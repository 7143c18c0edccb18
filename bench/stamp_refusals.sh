#!/usr/bin/env bash
# Not a timing: how many real PDFs `pith inject --stamp` refuses ("page 1 has no free
# margin"), and why, over the documentation PDFs of Debian's texlive-latex-base-doc,
# texlive-pictures-doc, ghostscript-doc and libcairo2-doc packages (page colours, framed pages,
# full-page pictures, landscape tables). N files (default 200) are taken evenly spaced from the
# sorted list of every PDF there; `all` takes every one. For each refusal it prints the file
# and pith's message; for each stamp nearer than 10 pt to an edge of the page, the file and the
# distance (from the link rectangle, read back with qpdf --json). Run by hand:
#   bench/stamp_refusals.sh [DOC_DIR] [N|all]
# Without DOC_DIR the four packages are fetched with `apt-get download` and unpacked with
# `dpkg -x` into a temporary directory. PITH=path runs another pith binary.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${2:-200}"
for tool in qpdf python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "${1:-}" ]; then
  docs="$1"
else
  (cd "$work" && apt-get download texlive-latex-base-doc texlive-pictures-doc ghostscript-doc \
    libcairo2-doc >/dev/null && for d in ./*.deb; do dpkg -x "$d" root; done)
  docs="$work/root"
fi
if [ -z "${PITH:-}" ]; then
  cargo build --release --quiet
  PITH="${CARGO_TARGET_DIR:-target}/release/pith"
fi
mapfile -t all < <(find "$docs" -name '*.pdf' -type f | LC_ALL=C sort)
if [ "$n" = all ] || [ "$n" -ge "${#all[@]}" ]; then
  files=("${all[@]}")
else
  files=()
  for ((i = 0; i < n; i++)); do files+=("${all[i * ${#all[@]} / n]}"); done
fi
stamped=0 refused=0 other=0 near=0
for f in "${files[@]}"; do
  out="$work/out.pdf"
  rm -f "$out"
  set +e
  msg="$("$PITH" inject "$f" --number pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --stamp -o "$out" 2>&1 >/dev/null)"
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    stamped=$((stamped + 1))
    # The stamp's distance to the nearest edge of the crop box (or media box).
    d="$(qpdf --json=2 "$out" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
objs = j["qpdf"][1]
page = objs["obj:" + j["pages"][0]["object"]]["value"]
def val(v):
    return objs["obj:" + v]["value"] if isinstance(v, str) and v.endswith(" R") else v
box = [float(x) for x in val(page.get("/CropBox") or page.get("/MediaBox") or [0, 0, 612, 792])]
for a in val(page.get("/Annots", [])):
    a = val(a)
    if "/PithStamp" in a:
        r = [float(x) for x in val(a["/Rect"])]
        print(round(min(r[0] - box[0], r[1] - box[1], box[2] - r[2], box[3] - r[3]), 1))
' 2>/dev/null || true)"
    if [ -n "$d" ] && python3 -c "import sys; sys.exit(0 if float('$d') < 10 else 1)"; then
      near=$((near + 1))
      echo "near the edge ($d pt): $f"
    fi
  elif [[ "$msg" == *"no free margin"* ]]; then
    refused=$((refused + 1))
    echo "refused: $f"
  else
    other=$((other + 1))
    echo "not stamped (exit $rc): $f: ${msg%%$'\n'*}"
  fi
done
echo "files ${#files[@]}: stamped $stamped (of them within 10 pt of an edge: $near), refused for want of a free margin $refused, other errors $other"
