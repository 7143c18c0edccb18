//! pith-serve's tests: one binary, a module per topic (as the main suite).
mod common;

mod anchors;
mod attacks;
mod badges;
mod captures;
mod captures_evidence;
mod cites;
mod cites_bounds;
mod cli;
mod export;
mod floods;
mod forged;
mod headers;
mod hostile;
mod hostile_index;
mod hostile_inputs;
mod index;
mod limits;
mod pages;
mod parity;
mod protocol;
mod readers;
mod router;
mod routes;
mod snippets;
mod versions;
