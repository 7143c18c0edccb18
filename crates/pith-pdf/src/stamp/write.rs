//! Writing PDF objects back as text (ISO 32000-2 §7.3) for the stamp's page update (issue 13):
//! the page dictionary, its resources and annotation list are read as [`Obj`] values, changed
//! and written out again. Every value survives: names are re-escaped (`#xx`), strings are
//! written in hexadecimal (their bytes may be binary), reals in Rust's shortest round-trip
//! form, which never uses an exponent.
//!
//! It owns serialisation only; it does not read files or decide what to change.

use crate::security::SecurityHandler;
use crate::syntax::{Obj, Ref};

/// How strings are written: as they are, or encrypted for the object they belong to (an
/// encrypted file's new objects, ISO 32000-2 §7.6.2; issue 18.3).
#[derive(Clone, Copy, Default)]
pub struct Strings<'a> {
    sec: Option<(&'a dyn SecurityHandler, Ref)>,
}

impl<'a> Strings<'a> {
    /// Strings of object `id`, encrypted with `sec` when the file is encrypted.
    pub fn of(sec: Option<&'a dyn SecurityHandler>, id: Ref) -> Self {
        Strings {
            sec: sec.map(|h| (h, id)),
        }
    }

    fn bytes(&self, s: &[u8]) -> Vec<u8> {
        match self.sec {
            Some((h, id)) => h.encrypt_string(id, s),
            None => s.to_vec(),
        }
    }
}

/// Appends the text of `o` to `out`, strings written as `strings` says
/// ([`Strings::default`]: in clear).
pub fn obj(o: &Obj, out: &mut Vec<u8>, strings: Strings<'_>) {
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
        Obj::Str(s) => hex(&strings.bytes(s), out),
        Obj::Name(n) => name(n, out),
        Obj::Array(a) => {
            out.push(b'[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                obj(v, out, strings);
            }
            out.push(b']');
        }
        Obj::Dict(d) => {
            out.extend_from_slice(b"<<");
            for (k, v, _) in &d.entries {
                out.push(b' ');
                name(k, out);
                out.push(b' ');
                obj(v, out, strings);
            }
            out.extend_from_slice(b" >>");
        }
        Obj::Ref(r) => out.extend_from_slice(r.to_string().as_bytes()),
    }
}

/// The text of `o`, strings written as `strings` says.
pub fn to_vec(o: &Obj, strings: Strings<'_>) -> Vec<u8> {
    let mut v = Vec::new();
    obj(o, &mut v, strings);
    v
}

/// Appends `<…>`, the bytes in hexadecimal.
fn hex(bytes: &[u8], out: &mut Vec<u8>) {
    out.push(b'<');
    for b in bytes {
        out.extend_from_slice(format!("{b:02X}").as_bytes());
    }
    out.push(b'>');
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

/// A string for ASCII text as `strings` says: a literal `( … )` in clear, hexadecimal when
/// encrypted (the bytes are then binary).
pub fn text_in(s: &str, strings: Strings<'_>) -> Vec<u8> {
    if strings.sec.is_none() {
        return literal(s);
    }
    let mut out = Vec::new();
    hex(&strings.bytes(s.as_bytes()), &mut out);
    out
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
    use crate::syntax::Parser;

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
        let text = to_vec(&o, Strings::default());
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

    #[test]
    fn strings_are_encrypted_for_their_object_when_asked() {
        use crate::security::{SecurityHandler, StreamKind};
        use crate::syntax::Dict;
        /// Appends the object number to each string: enough to see which key was used.
        struct Tag;
        impl SecurityHandler for Tag {
            fn decrypt_string(&self, _: Ref, d: &[u8]) -> Vec<u8> {
                d.to_vec()
            }
            fn decrypt_stream(&self, _: Ref, _: &Dict, d: &[u8]) -> Vec<u8> {
                d.to_vec()
            }
            fn encrypt_string(&self, id: Ref, d: &[u8]) -> Vec<u8> {
                [d, id.num.to_string().as_bytes()].concat()
            }
            fn encrypt_stream(&self, _: Ref, _: StreamKind, d: &[u8]) -> Vec<u8> {
                d.to_vec()
            }
        }
        let o = parse(b"<< /A (x) /B [(y) /N] >>");
        let enc = to_vec(&o, Strings::of(Some(&Tag), Ref::new(7, 0)));
        assert_eq!(enc, b"<< /A <7837> /B [<7937> /N] >>");
        assert_eq!(
            to_vec(&o, Strings::default()),
            b"<< /A <78> /B [<79> /N] >>"
        );
        assert_eq!(text_in("a(b", Strings::default()), b"(a\\(b)");
        assert_eq!(
            text_in("ab", Strings::of(Some(&Tag), Ref::new(3, 0))),
            b"<616233>"
        );
    }
}
