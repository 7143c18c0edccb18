//! Renders the LaTeX package `pith.sty` from `templates/` (issue #3).
