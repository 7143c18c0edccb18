//! pith-serve's tests: one binary, a module per topic (as the main suite).
mod common;

mod anchors;
mod attacks;
mod cites;
mod export;
mod forged;
mod hostile;
mod index;
mod limits;
mod pages;
mod protocol;
mod router;
mod routes;
mod snippets;
