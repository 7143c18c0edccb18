//! The one primitive layer under pith's typed writers (typst/pdf-writer keeps the
//! same split): serialising any object value ([`obj`], [`to_vec`]: names re-escaped, strings in
//! hexadecimal, reals without exponent), names ([`name`]), numbers ([`num`], [`number`]), and
//! dictionaries built as values ([`dict`]); on top of it, the writers of this module in the
//! spec's words: values ([`Value`]), new dictionaries and edited copies of existing ones
//! ([`DictPatch`]), stream objects ([`stream`], [`metadata_stream`]) and the trailer entries an
//! update repeats ([`Trailer`]). The typed writers of fonts ([`super::font`]), annotations
//! ([`super::annotation`]) and structure elements ([`super::structure`]) build on it. Each
//! writer serialises its object for one object identity ([`Ref`]) so strings and streams can be
//! encrypted per object (see [`crate::security`]).
//!
//! Editing keeps what pith does not understand: [`DictPatch`] writes the entries it sets first,
//! then the original dictionary text with only those keys cut out, byte for byte (
//! "never lose anything"; re-serialising unknown entries could change them).

use crate::security::{SecurityHandler, StreamKind};
use crate::syntax::{text_string, Dict, Obj, Ref};

/// A value written into a dictionary.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An indirect reference `N G R` (§7.3.10).
    Ref(Ref),
    /// A text string (§7.9.2.2): a literal for printable ASCII, else UTF-16BE hexadecimal.
    Text(String),
    /// A name (§7.3.5), given without the slash; only regular characters are written as is.
    Name(String),
    /// An integer (§7.3.3).
    Int(i64),
}

impl Value {
    /// Serialises the value as it appears in object `id` (strings encrypted by `sec`).
    pub fn write(&self, out: &mut Vec<u8>, id: Ref, sec: Option<&dyn SecurityHandler>) {
        match self {
            Value::Ref(r) => out.extend_from_slice(r.to_string().as_bytes()),
            Value::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
            Value::Name(n) => name(n.as_bytes(), out),
            Value::Text(t) => match sec {
                None => out.extend_from_slice(&text_string(t)),
                Some(h) => {
                    // Encrypted strings are binary: always hexadecimal.
                    let plain = text_bytes(t);
                    out.push(b'<');
                    for b in h.encrypt_string(id, &plain) {
                        out.extend_from_slice(format!("{b:02X}").as_bytes());
                    }
                    out.push(b'>');
                }
            },
        }
    }
}

/// The bytes of a text string: ASCII as is, else UTF-16BE with a byte-order mark.
fn text_bytes(s: &str) -> Vec<u8> {
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        s.as_bytes().to_vec()
    } else {
        let mut v = vec![0xFE, 0xFF];
        for u in s.encode_utf16() {
            v.extend_from_slice(&u.to_be_bytes());
        }
        v
    }
}

/// A dictionary written as a set of entries over an original dictionary's text (or over an
/// empty one): `<<`, then ` /Key value` for each entry set, then the original text after its
/// `<<` with the entries of those keys removed. A new dictionary is a patch of `<< >>`.
#[derive(Debug, Clone)]
pub struct DictPatch<'a> {
    original: Option<(&'a Dict, &'a [u8])>,
    set: Vec<(String, Value)>,
    remove: Vec<String>,
}

impl<'a> DictPatch<'a> {
    /// A new, empty dictionary.
    pub fn new() -> Self {
        DictPatch {
            original: None,
            set: Vec::new(),
            remove: Vec::new(),
        }
    }

    /// An edited copy of `dict`, whose text is `text` (`<<` … `>>`; the dictionary's spans
    /// index `text`, as after [`rebase`]).
    pub fn of(dict: &'a Dict, text: &'a [u8]) -> Self {
        DictPatch {
            original: Some((dict, text)),
            set: Vec::new(),
            remove: Vec::new(),
        }
    }

    /// Sets `key` (without slash) to `value`, replacing any entry of that key.
    pub fn set(&mut self, key: &str, value: Value) -> &mut Self {
        self.set.retain(|(k, _)| k != key);
        self.set.push((key.to_string(), value));
        self
    }

    /// Removes every entry of `key` (without slash) from the original, and any set before.
    pub fn remove(&mut self, key: &str) -> &mut Self {
        self.set.retain(|(k, _)| k != key);
        self.remove.push(key.to_string());
        self
    }

    /// Serialises the dictionary as part of object `id`.
    pub fn write(&self, id: Ref, sec: Option<&dyn SecurityHandler>) -> Vec<u8> {
        let mut out = b"<<".to_vec();
        for (k, v) in &self.set {
            out.push(b' ');
            name(k.as_bytes(), &mut out);
            out.push(b' ');
            v.write(&mut out, id, sec);
        }
        let (d, text) = self.original.unwrap_or((&EMPTY, b"<< >>"));
        let mut at = 2;
        for (k, _, span) in &d.entries {
            let cut = self.set.iter().any(|(s, _)| s.as_bytes() == k.as_slice())
                || self.remove.iter().any(|s| s.as_bytes() == k.as_slice());
            if cut && span.start >= at && span.end <= text.len() {
                out.extend_from_slice(&text[at..span.start]);
                at = span.end;
            }
        }
        out.extend_from_slice(&text[at.min(text.len())..]);
        out
    }
}

impl Default for DictPatch<'_> {
    fn default() -> Self {
        Self::new()
    }
}

/// How strings are written: as they are, or encrypted for the object they belong to (an
/// encrypted file's new objects, ISO 32000-2 §7.6.2).
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

/// Asserts that a writer produced `expected`, printing both as text when it did not.
#[cfg(test)]
pub(crate) fn assert_bytes(found: &[u8], expected: &[u8]) {
    assert!(
        found == expected,
        "\nEXPECTED: {}\nFOUND:    {}",
        String::from_utf8_lossy(expected),
        String::from_utf8_lossy(found)
    );
}

/// Asserts that `o` is written as `expected` (no encryption).
#[cfg(test)]
pub(crate) fn assert_writes(o: &Obj, expected: &[u8]) {
    assert_bytes(&to_vec(o, Strings::default()), expected);
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

static EMPTY: Dict = Dict {
    entries: Vec::new(),
    span: 0..5,
};

/// Shifts a dictionary's spans so they index its own text (`<<` at 0), as [`DictPatch::of`]
/// expects.
pub fn rebase(d: &mut Dict) {
    let base = d.span.start;
    d.span = 0..d.span.end - base;
    for (_, _, s) in &mut d.entries {
        *s = s.start - base..s.end - base;
    }
}

/// The body of a metadata stream (§14.3.2, PDF 1.4+): `/Type /Metadata /Subtype /XML`,
/// unfiltered so that tools which do not decode streams can still find the packet, as object
/// `id`.
pub fn metadata_stream(id: Ref, packet: &[u8], sec: Option<&dyn SecurityHandler>) -> Vec<u8> {
    let entries = dict(vec![
        ("Type", name_obj("Metadata")),
        ("Subtype", name_obj("XML")),
    ]);
    stream(id, &entries, StreamKind::Metadata, packet, sec)
}

/// The body of a stream object (§7.3.8) whose dictionary holds `entries` (a dictionary
/// value, without `/Length`, which is added last) and the data `data` as given (filtered or
/// not, as `entries` says), as object `id`; an encrypted file's data and strings are
/// encrypted for `id`.
pub fn stream(
    id: Ref,
    entries: &Obj,
    kind: StreamKind,
    data: &[u8],
    sec: Option<&dyn SecurityHandler>,
) -> Vec<u8> {
    let enc;
    let data = match sec {
        Some(h) => {
            enc = h.encrypt_stream(id, kind, data);
            &enc[..]
        }
        None => data,
    };
    let mut d = match entries {
        Obj::Dict(d) => d.clone(),
        _ => Dict::default(),
    };
    d.entries.retain(|(k, _, _)| k != b"Length");
    d.entries
        .push((b"Length".to_vec(), Obj::Int(data.len() as i64), 0..0));
    let mut body = to_vec(&Obj::Dict(d), Strings::of(sec, id));
    body.extend_from_slice(b"\nstream\n");
    body.extend_from_slice(data);
    body.extend_from_slice(b"\nendstream");
    body
}

/// A dictionary value with `entries` in order (keys without the slash), for [`obj`].
pub fn dict(entries: Vec<(&str, Obj)>) -> Obj {
    Obj::Dict(Dict {
        entries: entries
            .into_iter()
            .map(|(k, v)| (k.as_bytes().to_vec(), v, 0..0))
            .collect(),
        span: 0..0,
    })
}

/// A name value (without the slash).
pub fn name_obj(n: &str) -> Obj {
    Obj::Name(n.as_bytes().to_vec())
}

/// A number value: an integer when `v` rounded to four decimals is one, else a real of at most
/// four decimals (the precision of [`num`]).
pub fn number(v: f64) -> Obj {
    if !v.is_finite() {
        return Obj::Int(0);
    }
    let r = (v * 10_000.0).round() / 10_000.0;
    if r == r.trunc() && r.abs() < 1e15 {
        Obj::Int(r as i64)
    } else {
        Obj::Real(r)
    }
}

/// A rectangle value `[x0 y0 x1 y1]` (§7.9.5).
pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Obj {
    Obj::Array(vec![number(x0), number(y0), number(x1), number(y1)])
}

/// The trailer entries an update repeats besides `/Size` and `/Prev` (§7.5.5): `/Root`,
/// `/Info`, and `/ID` copied byte for byte (its strings are binary and, in encrypted files,
/// never encrypted).
#[derive(Debug, Clone)]
pub struct Trailer<'a> {
    /// `/Root`, the catalog.
    pub root: Ref,
    /// `/Info`, the document information dictionary.
    pub info: Option<Ref>,
    /// `/ID`, the original text of the array.
    pub id: Option<&'a [u8]>,
    /// `/Encrypt` of an encrypted file, the original text of its value (a reference): the
    /// update keeps the file's encryption.
    pub encrypt: Option<&'a [u8]>,
}

impl Trailer<'_> {
    /// The entries as text: `/Root N G R /Info N G R /ID [...]`.
    pub fn entries(&self) -> Vec<u8> {
        let mut t = format!("/Root {}", self.root).into_bytes();
        if let Some(i) = self.info {
            t.extend_from_slice(format!(" /Info {i}").as_bytes());
        }
        if let Some(id) = self.id.filter(|id| id.starts_with(b"[")) {
            t.extend_from_slice(b" /ID ");
            t.extend_from_slice(id);
        }
        if let Some(e) = self.encrypt {
            t.extend_from_slice(b" /Encrypt ");
            t.extend_from_slice(e);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::security::Identity;
    use crate::syntax::Parser;

    const ID: Ref = Ref::new(7, 0);

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

    #[test]
    fn patch_sets_first_and_keeps_the_rest_byte_for_byte() {
        let text = b"<</Title (A \\(b\\)) /PithNumber (old) /Author<FEFF0041>>>";
        let d = Parser::new(text, 0, true).dict().unwrap();
        let mut p = DictPatch::of(&d, text);
        p.set("PithNumber", Value::Text("pith:2024:X".into()))
            .set("PithURL", Value::Text("https://pith.science/pith/X".into()));
        assert_eq!(
            String::from_utf8(p.write(ID, None)).unwrap(),
            "<< /PithNumber (pith:2024:X) /PithURL (https://pith.science/pith/X)/Title (A \\(b\\))  /Author<FEFF0041>>>"
        );
    }

    #[test]
    fn removed_keys_are_cut_and_not_written() {
        let text = b"<< /Title (T) /PithNumber (x) /PithURL (y) >>";
        let d = Parser::new(text, 0, true).dict().unwrap();
        let mut p = DictPatch::of(&d, text);
        p.set("PithURL", Value::Int(1))
            .remove("PithNumber")
            .remove("PithURL");
        assert_eq!(p.write(ID, None), b"<< /Title (T)   >>");
    }

    #[test]
    fn patch_of_nothing_is_a_new_dictionary() {
        let mut p = DictPatch::new();
        p.set("Metadata", Value::Ref(Ref::new(12, 0)))
            .set("N", Value::Int(-3))
            .set("Type", Value::Name("A B".into()));
        let out = p.write(ID, None);
        assert_eq!(out, b"<< /Metadata 12 0 R /N -3 /Type /A#20B >>");
        let d = Parser::new(&out, 0, true).dict().unwrap();
        assert_eq!(d.get(b"Type").and_then(|o| o.as_name()), Some(&b"A B"[..]));
    }

    #[test]
    fn repeated_keys_are_all_replaced() {
        let text = b"<< /Metadata 3 0 R /Pages 2 0 R /Metadata 4 0 R >>";
        let d = Parser::new(text, 0, true).dict().unwrap();
        let mut p = DictPatch::of(&d, text);
        p.set("Metadata", Value::Ref(Ref::new(9, 0)));
        let out = p.write(ID, None);
        assert_eq!(out, b"<< /Metadata 9 0 R  /Pages 2 0 R  >>");
    }

    #[test]
    fn strings_go_through_the_handler_per_object() {
        struct Xor;
        impl SecurityHandler for Xor {
            fn decrypt_string(&self, id: Ref, d: &[u8]) -> Vec<u8> {
                d.iter().map(|b| b ^ id.num as u8).collect()
            }
            fn decrypt_stream(&self, id: Ref, _: &Dict, d: &[u8]) -> Vec<u8> {
                self.decrypt_string(id, d)
            }
            fn encrypt_string(&self, id: Ref, d: &[u8]) -> Vec<u8> {
                self.decrypt_string(id, d)
            }
            fn encrypt_stream(&self, id: Ref, _: StreamKind, d: &[u8]) -> Vec<u8> {
                self.decrypt_string(id, d)
            }
        }
        let mut p = DictPatch::new();
        p.set("K", Value::Text("AB".into()));
        assert_eq!(p.write(ID, Some(&Xor)), b"<< /K <4645> >>");
        assert_eq!(p.write(ID, Some(&Identity)), b"<< /K <4142> >>");
        let s = metadata_stream(ID, b"xy", Some(&Xor));
        assert!(s.ends_with(b"/Length 2 >>\nstream\n\x7f\x7e\nendstream"));
    }

    #[test]
    fn trailer_entries() {
        let t = Trailer {
            root: Ref::new(1, 0),
            info: Some(Ref::new(5, 2)),
            id: Some(b"[<01><02>]"),
            encrypt: Some(b"7 0 R"),
        };
        assert_eq!(
            t.entries(),
            b"/Root 1 0 R /Info 5 2 R /ID [<01><02>] /Encrypt 7 0 R"
        );
    }
}
