//! Writing PDF objects back as text (ISO 32000-2 §7.3) for the stamp's page update (issue 13):
//! the page dictionary, its resources and annotation list are read as [`Obj`] values, changed
//! and written out again. Every value survives: names are re-escaped (`#xx`), strings are
//! written in hexadecimal (their bytes may be binary), reals in Rust's shortest round-trip
//! form, which never uses an exponent.
//!
//! It owns serialisation only; it does not read files or decide what to change.

use crate::pdf::syntax::Obj;

/// Appends the text of `o` to `out`.
pub fn obj(o: &Obj, out: &mut Vec<u8>) {
    match o {
        Obj::Null => out.extend_from_slice(b"null"),
        Obj::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Obj::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
        Obj::Real(r) => {
            // Display never uses an exponent and round-trips; keep a real a real.
            let t = if r.is_finite() {
                format!("{r}")
            } else {
                "0".into()
            };
            out.extend_from_slice(t.as_bytes());
            if !t.contains('.') {
                out.extend_from_slice(b".0");
            }
        }
        Obj::Str(s) => {
            out.push(b'<');
            for b in s {
                out.extend_from_slice(format!("{b:02X}").as_bytes());
            }
            out.push(b'>');
        }
        Obj::Name(n) => name(n, out),
        Obj::Array(a) => {
            out.push(b'[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                obj(v, out);
            }
            out.push(b']');
        }
        Obj::Dict(d) => {
            out.extend_from_slice(b"<<");
            for (k, v, _) in &d.entries {
                out.push(b' ');
                name(k, out);
                out.push(b' ');
                obj(v, out);
            }
            out.extend_from_slice(b" >>");
        }
        Obj::Ref(r) => out.extend_from_slice(r.to_string().as_bytes()),
    }
}

/// The text of `o`.
pub fn to_vec(o: &Obj) -> Vec<u8> {
    let mut v = Vec::new();
    obj(o, &mut v);
    v
}

/// Appends `/name`, escaping delimiters, `#`, white space and bytes outside `!`..`~` as `#xx`
/// (§7.3.5).
pub fn name(n: &[u8], out: &mut Vec<u8>) {
    out.push(b'/');
    for &b in n {
        if (b'!'..=b'~').contains(&b) && !b"()<>[]{}/%#".contains(&b) {
            out.push(b);
        } else {
            out.extend_from_slice(format!("#{b:02X}").as_bytes());
        }
    }
}

/// A number for a content stream or an object: at most four decimals, no exponent, no `-0`.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let r = (v * 10_000.0).round() / 10_000.0;
    if r == r.trunc() && r.abs() < 1e15 {
        return format!("{}", r as i64);
    }
    let s = format!("{r:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// A literal string `( … )` with `\`, `(` and `)` escaped (§7.3.4.2), for ASCII text.
pub fn literal(s: &str) -> Vec<u8> {
    let mut out = vec![b'('];
    for &b in s.as_bytes() {
        if matches!(b, b'\\' | b'(' | b')') {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.push(b')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::syntax::Parser;

    /// Parses `t`, with the source spans cleared (they differ between two texts).
    fn parse(t: &[u8]) -> Obj {
        fn clear(o: &mut Obj) {
            match o {
                Obj::Dict(d) => {
                    d.span = 0..0;
                    for (_, v, s) in &mut d.entries {
                        *s = 0..0;
                        clear(v);
                    }
                }
                Obj::Array(a) => a.iter_mut().for_each(clear),
                _ => {}
            }
        }
        let mut o = Parser::new(t, 0, true).object().unwrap();
        clear(&mut o);
        o
    }

    #[test]
    fn objects_survive_a_round_trip() {
        let src: &[u8] =
            b"<< /Type /Page /A#20B (a\\(b\\)\\\\) /Arr [1 -2.5 0.000125 true null 3 0 R <00FF>] \
            /D << /X [] /Y << >> >> /N#2Fx /a#23b >>";
        let o = parse(src);
        let text = to_vec(&o);
        assert_eq!(parse(&text), o, "{}", String::from_utf8_lossy(&text));
    }

    #[test]
    fn numbers_are_plain() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-0.00001), "0");
        assert_eq!(num(12.34567), "12.3457");
        assert_eq!(num(-90.5), "-90.5");
        assert_eq!(
            num(1e20),
            "100000000000000000000.0000".trim_end_matches(".0000")
        );
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(literal("a(b)\\"), b"(a\\(b\\)\\\\)".to_vec());
    }
}
