//! pith's integration tests: one test binary, a module per topic (as ripgrep's
//! `tests/tests.rs`), on the one harness in `common/`. Run one topic with
//! `cargo test --test main latex:: -- --include-ignored` (the module path is the filter).
//!
//! Two tiers: `cargo test` runs the behaviour tests; the slow ones (TeX Live, the shared
//! corpus, bombs, killed processes, long matrices) are `#[ignore = "full tier (…)"]` and run
//! with `cargo test -- --include-ignored`, as CI does.
//!
//! Tests that need an external tool or the shared corpus skip when it is missing, and the
//! binary ends its output with how many skipped and why (`common::skips`); under
//! `PITH_REQUIRE_TOOLS=1` (CI) a missing tool fails the test instead.

mod common;

mod arxiv;
mod arxiv_ids;
mod badge;
mod badge_places;
mod badge_qr;
mod badge_render;
mod badge_snippets;
mod batch;
mod batch_digest;
mod bombs;
mod canonical_python;
mod captures;
mod captures_evidence;
mod cli_core;
mod cli_habits;
mod cli_help;
mod cli_outputs;
mod doors;
mod encrypted;
mod every_door;
mod hardening_files;
mod hardening_inputs;
mod hardening_text;
mod hardening_xmp;
mod hostile;
mod hostile_inputs;
mod latex;
mod latex_band;
mod latex_bare_code;
mod latex_ctan;
mod latex_errors;
mod latex_generator;
mod latex_kits;
mod latex_matrix;
mod latex_options;
mod latexml;
mod layering;
mod net;
mod net_mirrors;
mod net_verify;
mod net_versions;
mod newcomer;
mod ots;
mod pdf;
mod pdf_corpus;
mod pdf_io;
mod pdf_kill;
mod pdf_offsets;
mod pdf_repair;
mod readers;
mod readme;
mod refs;
mod refs_layout;
mod refs_pages;
mod requests;
mod requests_pdf;
mod run_reports;
mod stamp;
mod stamp_corpus;
mod stamp_place;
mod stamp_tagged;
mod tar;
mod tar_manifest;
mod trust;
mod vectors;
