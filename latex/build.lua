-- l3build configuration of pith.sty.
-- pith.sty and pith.sty.ltxml are generated (pith sty -o latex); l3build checks them and
-- packs the CTAN upload. Run from this directory:
--   l3build check   log-level tests in testfiles/ (tests/latex.rs runs it in a copy)
--   l3build ctan    pith-ctan.zip: pith/{README.md,pith.sty,pith.sty.ltxml,pith.tex,pith.pdf},
--                   the manual typeset from pith.tex in this run (tests/latex.rs checks it)
module = "pith"
sourcefiles = {"pith.sty", "pith.sty.ltxml"}
installfiles = {"pith.sty", "pith.sty.ltxml"}
unpackfiles = {}
typesetfiles = {"pith.tex"}
typesetexe = "pdflatex"
textfiles = {"README.md"}
-- The committed pith.pdf is a copy for readers of the repository; the zip carries the one
-- typeset here, so that it always matches pith.tex and pith.sty.
excludefiles = {"*~", "build.lua", "config-*.lua"}
-- The TDS zip inside the upload: CTAN installs it as it stands (tex/latex/pith/pith.sty, doc/,
-- source/), and users unpack it into a TEXMF tree (TEXMFHOME) where kpsewhich finds pith.sty.
packtdszip = true
ctanzip = "pith-ctan"
checkengines = {"pdftex"}
stdengine = "pdftex"
checkruns = 1
