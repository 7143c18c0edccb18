//! Fuzz target: the verify job on a PDF in memory (what `pith verify` and the server's
//! `/verify` run), against the example record, so that no network is asked. It must answer a
//! report or an error, never panic; within the low RSS limit fuzz/run.sh sets (256 MB), a file
//! that multiplies what checking it costs is a crash.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pith::job::{self, verify::VerifyRequest};
use pith::record::Record;

fn record() -> &'static Record {
    static R: OnceLock<Record> = OnceLock::new();
    R.get_or_init(|| {
        Record::from_json(include_str!("../../examples/2402.03791v3.record.json"))
            .expect("the example record")
    })
}

fuzz_target!(|data: &[u8]| {
    let req = VerifyRequest {
        pdf_bytes: Some(job::verify::PdfBytes {
            data: data.to_vec(),
            name: "fuzz.pdf".into(),
        }),
        record: Some(job::RecordSource::Local(pith::record::LocalSource::Record(Box::new(
            record().clone(),
        )))),
        ..VerifyRequest::default()
    };
    if let Ok(report) = job::verify::run(&req) {
        // A verdict is one of the report's sentences.
        assert!(!report.headline().is_empty());
    }
});
