//! Property tests against Python itself: our canonical JSON must equal, byte for byte,
//! `json.dumps(v, sort_keys=True, separators=(',',':'), ensure_ascii=False)`, and `canon()` must
//! equal `" ".join(s.split()).lower()`, for thousands of generated values full of non-ASCII
//! text, quotes, backslashes, control characters and awkward whitespace.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRng, TestRunner};
use serde_json::{Map, Value};

/// Characters that stress escaping and canonicalisation.
fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::char::range(' ', '~'),
        2 => proptest::char::range('\u{0}', '\u{1f}'),
        1 => Just('\u{7f}'),
        1 => Just('"'),
        1 => Just('\\'),
        1 => prop::sample::select(vec!['\u{85}', '\u{a0}', '\u{1680}', '\u{2003}', '\u{2028}', '\u{2029}', '\u{202f}', '\u{3000}', '\u{feff}', '\u{200b}', '\u{180e}']),
        2 => prop::sample::select(vec!['é', 'ß', 'İ', 'Σ', 'ς', 'Ω', 'ǅ', 'ﬁ', 'Å', 'K', 'ẞ', 'ΐ', '中', '𝔘', '😀', '\u{301}', '\u{10ffff}', '\u{fffd}']),
        1 => any::<char>(),
    ]
}

fn tricky_string() -> impl Strategy<Value = String> {
    prop::collection::vec(tricky_char(), 0..24).prop_map(|v| v.into_iter().collect())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::num::f64::NORMAL.prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        tricky_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((tricky_string(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn generate<T: std::fmt::Debug>(strategy: impl Strategy<Value = T>, n: usize) -> Vec<T> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// Runs a Python program that reads JSON lines on stdin and writes one JSON line per input.
fn python_lines(program: &str, inputs: &[String]) -> Vec<String> {
    let mut child = Command::new("python3")
        .args(["-c", program])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().unwrap();
    let data = inputs.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(data.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "python failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
#[ignore = "full tier (a long matrix or property run): cargo test -- --include-ignored"]
fn canonical_json_equals_python_json_dumps() {
    if !common::have_tool("python3", "canonical_json_equals_python_json_dumps") {
        return;
    }
    let values = generate(json_value(), 3000);
    // Python prints the canonical bytes hex-encoded so that no newline or encoding question
    // can blur the comparison.
    let program = "import sys, json\nfor line in sys.stdin:\n    v = json.loads(line)\n    print(json.dumps(v, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode('utf-8').hex())";
    let inputs: Vec<String> = values
        .iter()
        .map(|v| serde_json::to_string(v).unwrap())
        .collect();
    let expected = python_lines(program, &inputs);
    assert_eq!(expected.len(), values.len());
    for (v, want) in values.iter().zip(&expected) {
        let got = pith::number::hex(&pith::record::canonical::to_vec(v));
        assert_eq!(&got, want, "value {v}");
    }
}

#[test]
#[ignore = "full tier (a long matrix or property run): cargo test -- --include-ignored"]
fn canon_equals_python_split_join_lower() {
    if !common::have_tool("python3", "canon_equals_python_split_join_lower") {
        return;
    }
    let texts = generate(tricky_string(), 5000);
    let program = "import sys, json\nfor line in sys.stdin:\n    s = json.loads(line)\n    print(' '.join(s.split()).lower().encode('utf-8').hex())";
    let inputs: Vec<String> = texts
        .iter()
        .map(|t| serde_json::to_string(t).unwrap())
        .collect();
    let expected = python_lines(program, &inputs);
    for (t, want) in texts.iter().zip(&expected) {
        assert_eq!(
            &pith::number::hex(pith::record::canon(t).as_bytes()),
            want,
            "text {t:?}"
        );
    }
}
