-- l3build configuration for the log-level tests of pith.sty (issue #3).
-- pith.sty itself is generated (pith sty -o latex); l3build only checks it.
-- Run from this directory: l3build check   (tests/latex.rs runs it in a copy of it)
module = "pith"
sourcefiles = {"pith.sty"}
installfiles = {"pith.sty"}
unpackfiles = {}
typesetfiles = {}
checkengines = {"pdftex"}
stdengine = "pdftex"
checkruns = 1
