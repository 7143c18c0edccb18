//! Known answers: files that qpdf encrypted for each revision (tests/fixtures/encrypted,
//! made by `make.py` there from a source whose plaintexts are known), decrypted here and
//! compared with those plaintexts (the same bytes `qpdf --decrypt` gives back).

use super::*;
use crate::security::{decrypt_obj, SecurityHandler};
use crate::syntax::Parser;

const CONTENT: &[u8] = b"BT /F1 12 Tf 72 720 Td (Encrypted fixture: page text) Tj ET\n";
const TITLE: &[u8] = b"Encrypted fixture title";

fn fixture(name: &str) -> Vec<u8> {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/encrypted/"
    );
    std::fs::read(format!("{p}{name}")).unwrap()
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{} not found", String::from_utf8_lossy(needle)))
}

/// Object `num` (generation 0) of a file without object streams: its parsed object and, for
/// a stream, its raw data.
fn object(file: &[u8], num: u32) -> (Obj, Option<Vec<u8>>) {
    let at = find(file, format!("\n{num} 0 obj").as_bytes()) + 1;
    let mut p = Parser::new(file, at, true);
    p.obj_header().unwrap();
    let obj = p.object().unwrap();
    let data = p.stream_start().unwrap().map(|ds| {
        let len = obj
            .as_dict()
            .unwrap()
            .get(b"Length")
            .unwrap()
            .as_int()
            .unwrap() as usize;
        file[ds..ds + len].to_vec()
    });
    (obj, data)
}

fn trailer(file: &[u8]) -> Dict {
    let at = find(file, b"trailer") + 7;
    Parser::new(file, at, true).dict().unwrap()
}

fn open(file: &[u8], password: Option<&[u8]>) -> Result<Handler, Error> {
    let t = trailer(file);
    let Some(Obj::Ref(Ref { num: n, .. })) = t.get(b"Encrypt") else {
        panic!("no /Encrypt")
    };
    let (enc, _) = object(file, *n);
    let id0 = match t.get(b"ID") {
        Some(Obj::Array(a)) => match &a[0] {
            Obj::Str(s) => s.clone(),
            _ => vec![],
        },
        _ => vec![],
    };
    Handler::open(enc.as_dict().unwrap(), &id0, password)
}

const EMPTY_USER: [(&str, u8, Method, bool); 8] = [
    ("r2-rc4-40.pdf", 2, Method::Rc4, true),
    ("r3-rc4-128.pdf", 3, Method::Rc4, true),
    ("r4-rc4-128.pdf", 4, Method::Rc4, true),
    ("r4-aes128.pdf", 4, Method::Aes128, true),
    ("r4-aes128-clear-metadata.pdf", 4, Method::Aes128, false),
    ("r5-aes256.pdf", 5, Method::Aes256, true),
    ("r6-aes256.pdf", 6, Method::Aes256, true),
    ("r6-aes256-clear-metadata.pdf", 6, Method::Aes256, false),
];

#[test]
fn qpdf_files_decrypt_to_their_plaintexts() {
    for (name, r, method, meta) in EMPTY_USER {
        let file = fixture(name);
        let h = open(&file, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(h.auth(), Auth::User, "{name}");
        assert_eq!(h.revision(), r, "{name}");
        assert_eq!(h.string_method(), method, "{name}");
        assert_eq!(h.encrypts_metadata(), meta, "{name}");
        // Page content stream (object 6).
        let (obj, data) = object(&file, 6);
        let plain = h.decrypt_stream(Ref::new(6, 0), obj.as_dict().unwrap(), &data.unwrap());
        assert_eq!(plain, CONTENT, "{name}: content stream");
        // Info /Title (object 2), a string.
        let (mut info, _) = object(&file, 2);
        decrypt_obj(&h, Ref::new(2, 0), &mut info);
        assert_eq!(
            info.as_dict().unwrap().get(b"Title"),
            Some(&Obj::Str(TITLE.to_vec())),
            "{name}: Info /Title"
        );
        // XMP (object 3): encrypted unless /EncryptMetadata false, which qpdf leaves clear.
        let (obj, data) = object(&file, 3);
        let data = data.unwrap();
        let packet = h.decrypt_stream(Ref::new(3, 0), obj.as_dict().unwrap(), &data);
        assert!(
            packet.starts_with(b"<?xpacket begin=") && find(&packet, TITLE) > 0,
            "{name}: XMP packet"
        );
        assert_eq!(
            packet == data,
            !meta,
            "{name}: metadata in clear iff EncryptMetadata false"
        );
        // The same dictionary text, decrypted as text, parses to the same values.
        let at = find(&file, b"\n2 0 obj") + 1;
        let mut p = Parser::new(&file, at, true);
        p.obj_header().unwrap();
        let start = p.pos;
        p.object().unwrap();
        let text = decrypt_text(&h, Ref::new(2, 0), &file[start..p.pos]);
        let d = Parser::new(&text, 0, true).dict().unwrap();
        assert_eq!(d.get(b"Title"), Some(&Obj::Str(TITLE.to_vec())), "{name}");
    }
}

#[test]
fn owner_password_opens_as_owner() {
    for (name, ..) in EMPTY_USER {
        let file = fixture(name);
        let h = open(&file, Some(b"owner")).unwrap();
        assert_eq!(h.auth(), Auth::Owner, "{name}");
        let (obj, data) = object(&file, 6);
        assert_eq!(
            h.decrypt_stream(Ref::new(6, 0), obj.as_dict().unwrap(), &data.unwrap()),
            CONTENT,
            "{name}"
        );
        // A wrong password falls back to the empty user password.
        assert_eq!(open(&file, Some(b"nope")).unwrap().auth(), Auth::User);
    }
}

#[test]
fn user_password_files_need_it() {
    for name in ["r4-aes128-user-password.pdf", "r6-aes256-user-password.pdf"] {
        let file = fixture(name);
        assert_eq!(
            open(&file, None).unwrap_err(),
            Error::PasswordRequired,
            "{name}"
        );
        assert_eq!(
            open(&file, Some(b"nope")).unwrap_err(),
            Error::WrongPassword
        );
        for (pw, auth) in [(&b"user"[..], Auth::User), (b"owner", Auth::Owner)] {
            let h = open(&file, Some(pw)).unwrap();
            assert_eq!(h.auth(), auth, "{name}");
            let (obj, data) = object(&file, 6);
            assert_eq!(
                h.decrypt_stream(Ref::new(6, 0), obj.as_dict().unwrap(), &data.unwrap()),
                CONTENT
            );
        }
    }
}

#[test]
fn encryption_round_trips_per_object() {
    for (name, ..) in EMPTY_USER {
        let h = open(&fixture(name), None).unwrap();
        let meta = Parser::new(b"<< /Type /Metadata /Subtype /XML >>", 0, true)
            .dict()
            .unwrap();
        let s = h.encrypt_string(Ref::new(9, 0), b"pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5");
        assert_ne!(&s[..], b"pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5");
        assert_eq!(
            h.decrypt_string(Ref::new(9, 0), &s),
            b"pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
        );
        let st = h.encrypt_stream(Ref::new(10, 0), StreamKind::Metadata, CONTENT);
        assert_eq!(st == CONTENT, !h.encrypts_metadata(), "{name}");
        assert_eq!(h.decrypt_stream(Ref::new(10, 0), &meta, &st), CONTENT);
        // RC4 and AES-128 keys depend on the object; AES-256 uses the file key.
        if h.string_method() != Method::Aes256 {
            assert_ne!(
                h.decrypt_string(Ref::new(11, 0), &s),
                b"pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
            );
        }
        // Text: strings are re-encrypted, names, numbers and references kept.
        let text = b"<< /Title (a \\(b\\) c) /K <4142> /N /A#28 /R 3 0 R /D << /X (y) >> >>";
        let enc = encrypt_text(&h, Ref::new(12, 0), text);
        let back = decrypt_text(&h, Ref::new(12, 0), &enc);
        let d = Parser::new(&back, 0, true).dict().unwrap();
        assert_eq!(d.get(b"Title"), Some(&Obj::Str(b"a (b) c".to_vec())));
        assert_eq!(d.get(b"K"), Some(&Obj::Str(b"AB".to_vec())));
        assert_eq!(d.get(b"N"), Some(&Obj::Name(b"A(".to_vec())));
        assert_eq!(d.get(b"R"), Some(&Obj::Ref(Ref::new(3, 0))));
        let inner = d.get(b"D").and_then(Obj::as_dict).unwrap();
        assert_eq!(inner.get(b"X"), Some(&Obj::Str(b"y".to_vec())));
    }
}

fn dict(text: &[u8]) -> Dict {
    Parser::new(text, 0, true).dict().unwrap()
}

#[test]
fn identity_and_crypt_filters() {
    // The R4 AES file's dictionary with strings left clear (/StrF /Identity) and a second
    // crypt filter for streams that name it.
    let file = fixture("r4-aes128.pdf");
    let t = trailer(&file);
    let Some(Obj::Ref(Ref { num: n, .. })) = t.get(b"Encrypt") else {
        panic!()
    };
    let at = find(&file, format!("\n{n} 0 obj").as_bytes()) + 1;
    let mut p = Parser::new(&file, at, true);
    p.obj_header().unwrap();
    let start = p.pos;
    p.object().unwrap();
    let text = String::from_utf8_lossy(&file[start..p.pos])
        .replace("/StrF /StdCF", "/StrF /Identity")
        .replace("/CF <<", "/CF << /Rc << /CFM /V2 /Length 128 >>");
    let Some(Obj::Array(id)) = t.get(b"ID") else {
        panic!()
    };
    let Obj::Str(id0) = &id[0] else { panic!() };
    let h = Handler::open(&dict(text.as_bytes()), id0, None).unwrap();
    assert_eq!(h.string_method(), Method::Identity);
    assert_eq!(h.encrypt_string(Ref::new(5, 0), b"clear"), b"clear");
    let plain = dict(b"<< /Length 3 >>");
    let identity = dict(b"<< /Filter /Crypt /Length 3 >>");
    let named = dict(b"<< /Filter [/Crypt /FlateDecode] /DecodeParms [<< /Name /Rc >> null] >>");
    let xref = dict(b"<< /Type /XRef >>");
    assert_eq!(h.stream_method(&plain), Method::Aes128);
    assert_eq!(h.stream_method(&identity), Method::Identity);
    assert_eq!(h.stream_method(&named), Method::Rc4);
    assert_eq!(h.stream_method(&xref), Method::Identity);
    // The content stream still decrypts (key derivation unaffected by /StrF).
    let (obj, data) = object(&file, 6);
    assert_eq!(
        h.decrypt_stream(Ref::new(6, 0), obj.as_dict().unwrap(), &data.unwrap()),
        CONTENT
    );
}

#[test]
fn unsupported_and_malformed_dictionaries() {
    type Check = fn(&Error) -> bool;
    let cases: [(&[u8], Check); 8] = [
        (b"<< /Filter /Adobe.PubSec /V 4 /R 4 >>", |e| {
            matches!(e, Error::Unsupported(_))
        }),
        (b"<< /Filter /Standard /V 3 /R 3 /P -4 >>", |e| {
            matches!(e, Error::Unsupported(_))
        }),
        (b"<< /Filter /Standard /V 2 /R 7 /P -4 >>", |e| {
            matches!(e, Error::Unsupported(_))
        }),
        // A /Length out of range is tried as 40 and 128 bits (as qpdf does), not refused.
        (b"<< /Filter /Standard /V 2 /R 3 /Length 12 /P -4 >>", |e| {
            *e == Error::PasswordRequired
        }),
        (b"<< /Filter /Standard /V 4 /R 4 /P -4 >>", |e| {
            *e == Error::PasswordRequired
        }),
        (
            b"<< /Filter /Standard /V 5 /R 6 /P -4 /O <00> /U <00> >>",
            |e| matches!(e, Error::Malformed(_)),
        ),
        (
            b"<< /Filter /Standard /V 4 /R 4 /StmF /Nope /P -4 >>",
            |e| matches!(e, Error::Malformed(_)),
        ),
        (
            b"<< /Filter /Standard /V 2 /R 3 /P -4 /O <00> /U <00> >>",
            |e| *e == Error::PasswordRequired,
        ),
    ];
    for (text, ok) in cases {
        let e = Handler::open(&dict(text), b"", None).unwrap_err();
        assert!(ok(&e), "{}: {e:?}", String::from_utf8_lossy(text));
    }
}
