//! Canonical JSON: the exact bytes that are hashed into a Pith Number.
//!
//! `SPEC.md` defines them as what Python writes with
//! `json.dumps(r, sort_keys=True, separators=(',', ':'), ensure_ascii=False)`. This module
//! reproduces that byte for byte for any JSON value: keys sorted by code point, no whitespace,
//! non-ASCII text left as UTF-8, and only `"`, `\`, and U+0000–U+001F escaped (with the short
//! escapes `\b \f \n \r \t`, else `\u00XX` in lowercase hex). Floats follow Python's `repr`.
//! The property test in `tests/canonical_python.rs` compares it against `python3` itself.

use serde_json::Value;

/// Writes `value` as canonical JSON bytes.
///
/// # Examples
/// ```
/// let v: serde_json::Value = serde_json::from_str(r#"{"b":1,"a":"é\n"}"#)?;
/// assert_eq!(pith::record::canonical::to_vec(&v), "{\"a\":\"é\\n\",\"b\":1}".as_bytes());
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn to_vec(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(512);
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            // Python sorts str keys by code point; UTF-8 byte order is the same order.
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push(b'{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(out, k);
                out.push(b':');
                write_value(out, v);
            }
            out.push(b'}');
        }
    }
}

/// Appends `s` as a JSON string the way Python's `json` does with `ensure_ascii=False`.
pub fn write_string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if esc.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[(b >> 4) as usize]);
            out.push(HEX[(b & 15) as usize]);
        } else {
            out.extend_from_slice(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

fn write_number(out: &mut Vec<u8>, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        out.extend_from_slice(i.to_string().as_bytes());
    } else if let Some(u) = n.as_u64() {
        out.extend_from_slice(u.to_string().as_bytes());
    } else if let Some(f) = n.as_f64() {
        out.extend_from_slice(python_float_repr(f).as_bytes());
    }
}

/// Python's `repr(float)`: the shortest round-tripping digits, in fixed notation when the
/// decimal exponent is in `-4..16`, else `d.ddde±XX`; integral values keep a `.0`.
pub fn python_float_repr(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    // `{:e}` gives the shortest round-trip digits as d.ddde<exp>.
    let sci = format!("{:e}", f.abs());
    let (mant, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let sign = if f < 0.0 { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if exp < 0 {
            format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
        } else if exp + 1 >= n {
            format!("{}{}.0", digits, "0".repeat((exp + 1 - n) as usize))
        } else {
            let (a, b) = digits.split_at((exp + 1) as usize);
            format!("{a}.{b}")
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits
        };
        let es = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{es}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_python() {
        let v = Value::String("a\"b\\c\u{1}\u{1f}\u{7f}\u{2028}é\u{8}\u{c}".into());
        assert_eq!(
            String::from_utf8(to_vec(&v)).unwrap(),
            "\"a\\\"b\\\\c\\u0001\\u001f\u{7f}\u{2028}é\\b\\f\""
        );
    }

    #[test]
    fn sorts_keys_by_code_point() {
        let v: Value = serde_json::from_str(r#"{"é":1,"z":2,"A":3,"a":[true,null]}"#).unwrap();
        assert_eq!(
            String::from_utf8(to_vec(&v)).unwrap(),
            r#"{"A":3,"a":[true,null],"z":2,"é":1}"#
        );
    }

    #[test]
    fn floats_like_python_repr() {
        for (f, s) in [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1.5e-5, "1.5e-05"),
            (0.0001, "0.0001"),
            (-2.5, "-2.5"),
            (123456.789, "123456.789"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ] {
            assert_eq!(python_float_repr(f), s);
        }
    }
}
