//! Badges per second and bytes per badge of `pith::badge::svg`, over the same cases
//! as `bench/badge.mjs` runs through shields.io's badge-maker. Run both with `bench/badge.sh`,
//! or alone with `cargo bench --bench badge`. Prints one JSON line per case.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pith::badge::{svg, Look, RecordStatus, Style};
use pith::PithNumber;

fn main() {
    let n = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").expect("seed number");
    let secs: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let cases = [
        ("short flat", Look::default()),
        (
            "short flat-square",
            Look::default().style(Style::FlatSquare),
        ),
        ("full flat", Look::default().full(true)),
        (
            "short+status flat",
            Look::default().status(Some(RecordStatus::Verified)),
        ),
        (
            "full+status flat-square",
            Look::default()
                .full(true)
                .status(Some(RecordStatus::Anchored))
                .style(Style::FlatSquare),
        ),
        ("short flat + QR", Look::default().qr(Some(2))),
    ];
    for (name, o) in cases {
        let bytes = svg(&n, &o).expect("badge").len();
        // Warm up, then count whole badges for the time budget.
        for _ in 0..1000 {
            black_box(svg(black_box(&n), black_box(&o)).expect("badge"));
        }
        let budget = Duration::from_secs_f64(secs);
        let start = Instant::now();
        let mut count = 0u64;
        while start.elapsed() < budget {
            for _ in 0..100 {
                black_box(svg(black_box(&n), black_box(&o)).expect("badge"));
            }
            count += 100;
        }
        let rate = count as f64 / start.elapsed().as_secs_f64();
        println!("{{\"tool\":\"pith\",\"case\":\"{name}\",\"badges_per_s\":{rate:.0},\"bytes\":{bytes}}}");
    }
}
