#!/usr/bin/env bash
# Rebuilds assets/fonts/PithStamp-DejaVuSans.ttf, the font of `pith inject --stamp`:
# DejaVu Sans (Debian's fonts-dejavu-core) cut down with fontTools' pyftsubset (PyPI `fonttools`)
# to the characters a stamp can contain: "pith:", the year digits and the RFC 4648 base32
# alphabet of a Pith Number. Hinting is dropped (the stamp is small text; renderers hint it
# themselves) and glyph names are kept out, which keeps the file at a few KB. The cmap, hmtx,
# OS/2, head, hhea, post, name and glyf tables are kept: src/pdf/stamp/font.rs reads them.
set -euo pipefail
cd "$(dirname "$0")"
src=${DEJAVU:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
pyftsubset "$src" \
  --text='pith: ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' \
  --no-hinting --desubroutinize --name-IDs=0,1,2,3,4,5,6,13,14 \
  --notdef-outline --recommended-glyphs --drop-tables+=GSUB,GPOS,GDEF,kern,FFTM,MATH,gasp \
  --output-file=PithStamp-DejaVuSans.ttf
# PithText-DejaVuSans.ttf: the same font cut down to printable ASCII (U+0020..U+007E), for the
# text of one-page drawings (`pith badge --format pdf`): a badge's label, number and status.
pyftsubset "$src" \
  --unicodes=U+0020-007E \
  --no-hinting --desubroutinize --name-IDs=0,1,2,3,4,5,6,13,14 \
  --notdef-outline --recommended-glyphs --drop-tables+=GSUB,GPOS,GDEF,kern,FFTM,MATH,gasp \
  --output-file=PithText-DejaVuSans.ttf
