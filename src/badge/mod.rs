//! SVG badges and embedding snippets (issue #5).
