//! The one table of error codes ([`ErrorCode`]): a stable snake_case name for every way a
//! request can fail or be refused, the name reports carry (`"refusal": "damaged"`),
//! `pith … --json` prints (`"kind"`) and Python's exceptions hold in `kind`, with the Python
//! exception class each is raised as. The Python classes themselves are made from
//! [`CLASSES`]; docs/reports.md lists the codes. It is a leaf of the job layer: each module's
//! errors map here, and [`super::code_of`] finds the code of any library error's chain.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Declares [`ErrorCode`], its names, classes and descriptions from one list.
macro_rules! kinds {
    ($( $v:ident = $name:literal, $class:literal, $doc:literal; )*) => {
        /// The code of an error or refusal: a stable snake_case name ([`ErrorCode::name`])
        /// that reports, `--json` and Python's exceptions carry as their `kind`. Each
        /// module's `ErrorKind` is its own structured error; this is the one flat table
        /// across them all, which callers match on.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $( #[doc = $doc] $v, )*
        }

        impl ErrorCode {
            /// Every kind, in the table's order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$v),*];

            /// The stable name (`"same_file"`).
            pub fn name(self) -> &'static str {
                match self { $(ErrorCode::$v => $name,)* }
            }

            /// The Python exception class it is raised as (one of [`CLASSES`]).
            pub fn class(self) -> &'static str {
                match self { $(ErrorCode::$v => $class,)* }
            }

            /// What it means, one sentence.
            pub fn doc(self) -> &'static str {
                match self { $(ErrorCode::$v => $doc,)* }
            }
        }
    };
}

kinds! {
    // The request and its output.
    SameFile = "same_file", "OutputError", "The output is the input itself (it is updated only in place).";
    Exists = "exists", "ExistsError", "The output exists and may not be replaced.";
    LeavesOutDir = "leaves_out_dir", "OutputError", "The output would be written outside its output folder.";
    NotInPlace = "not_in_place", "OutputError", "Bytes in memory cannot be updated in place.";
    Stamp = "stamp", "OptionError", "The stamp's settings are not allowed (form, position, size).";
    Request = "request", "OptionError", "The request is incomplete or contradicts itself (say, a record and a bundle).";
    // The PDF.
    Io = "io", "PdfIOError", "A file cannot be opened, read or written.";
    NotFile = "not_file", "PdfIOError", "Not a regular file.";
    NotPdf = "not_pdf", "NotPdfError", "No %PDF- header in the first 1024 bytes.";
    Damaged = "damaged", "DamagedPdfError", "A damaged cross-reference table (a repair rebuilds it).";
    Encrypted = "encrypted", "EncryptedPdfError", "Encrypted: a rewrite would drop the encryption.";
    Password = "password", "EncryptedPdfError", "Encrypted and not opened: a password is needed, or wrong, or the encryption unsupported.";
    Certified = "certified", "CertifiedPdfError", "A certification signature forbids changes (force updates anyway).";
    Signed = "signed", "PdfError", "Signed: a stamp would change signed page content (force stamps anyway).";
    Xmp = "xmp", "XmpError", "An unparsable XMP packet (force replaces it).";
    NoStampRoom = "no_stamp_room", "PdfError", "No margin of page 1 has room for a legible stamp.";
    Printed = "printed", "PdfError", "Page 1 prints another number than the one written (replace redraws what pith drew).";
    TooLarge = "too_large", "PdfError", "A stream would decode past its documented bound.";
    OverLimit = "over_limit", "PdfError", "Reading the file would cost more than a limit per file allows (the setting named raises it).";
    OverTime = "over_time", "PdfError", "The time allowed for one file ran out (the per-file time bound raises it).";
    PagesLost = "pages_lost", "PdfError", "A full rewrite would lose pages.";
    Unsupported = "unsupported", "UnsupportedPdfError", "The file needs a feature pith does not write.";
    // A number.
    WrongLength = "wrong_length", "NumberError", "A code of the wrong length.";
    BadCharacter = "bad_character", "NumberError", "A character outside the base32 alphabet.";
    BadYear = "bad_year", "NumberError", "A year that is not four digits.";
    BadForm = "bad_form", "NumberError", "Text shaped like no form of a number (a short alias where a whole number is needed included).";
    NoYear = "no_year", "NumberError", "A bare code whose record (and so its year) could not be had.";
    // A record and its inputs.
    Json = "json", "RecordError", "Not JSON, or a record of the wrong shape (missing or unknown fields, wrong types).";
    Field = "field", "RecordError", "A record value the SPEC or arXiv's taxonomy does not allow.";
    Atom = "atom", "RecordError", "Atom XML that is no arXiv feed, or an entry lacking an element.";
    Xml = "xml", "RecordError", "XML that is not well-formed (or holds a DTD).";
    Utf8 = "utf8", "RecordError", "A text file that is not UTF-8.";
    NotARecord = "not_a_record", "RecordError", "A number where a record is needed: a number determines no record.";
    Entries = "entries", "RecordError", "An Atom feed with several entries where one is needed.";
    NoEntry = "no_entry", "RecordError", "No Atom entry has the id asked for.";
    Arxiv = "arxiv", "RecordError", "A line of arXiv's bulk metadata that is no paper.";
    // Batch runs.
    Manifest = "manifest", "BatchError", "A manifest line or file that cannot be read.";
    Conflict = "conflict", "BatchError", "The sidecars of one PDF give different numbers.";
    Shard = "shard", "BatchError", "A shard that is not K/N with 0 <= K < N.";
    // Verification input.
    BadKey = "bad_key", "VerifyError", "Not a 32-byte Ed25519 public key in base64 or hex.";
    BadSignature = "bad_signature", "VerifyError", "Not a 64-byte signature in base64.";
    BadHash = "bad_hash", "VerifyError", "Not 64 hex digits.";
    BadBundle = "bad_bundle", "VerifyError", "Not a bundle: no JSON object with a readable canonical_record.";
    NotVerified = "not_verified", "VerifyError", "A bundle that does not support the status a badge claims.";
    // Badges and pith.sty.
    ControlCharacter = "control_character", "BadgeError", "A control character in a badge text.";
    EmptyLabel = "empty_label", "BadgeError", "An empty badge label.";
    LabelTooLong = "label_too_long", "BadgeError", "A badge label that is too long.";
    QrModuleSize = "qr_module_size", "BadgeError", "A QR module size out of range.";
    Qr = "qr", "BadgeError", "A QR code that cannot be made.";
    UnknownStyle = "unknown_style", "BadgeError", "A badge style that does not exist.";
    UnknownStatus = "unknown_status", "BadgeError", "A badge status that does not exist.";
    UncheckedStatus = "unchecked_status", "BadgeError", "A badge status stated that only a check gives (verified comes from a bundle's receipt; anchored from nothing pith checks).";
    UnknownFormat = "unknown_format", "BadgeError", "A snippet or image format that does not exist, or that the output's name contradicts.";
    UnsupportedCharacter = "unsupported_character", "BadgeError", "A character the badge font cannot draw.";
    EmptySource = "empty_source", "BadgeError", "An empty image source for a snippet.";
    LatexImage = "latex_image", "BadgeError", "An image a LaTeX snippet cannot include (an SVG, or a URL).";
    InvalidDate = "invalid_date", "StyError", "A date pith.sty cannot carry.";
    InvalidVersion = "invalid_version", "StyError", "A version pith.sty cannot carry.";
    Template = "template", "PithError", "A built-in template failed to render (a bug: please report it).";
    // Tars.
    Header = "header", "TarError", "Not a tar, or a damaged header.";
    Truncated = "truncated", "TarError", "A tar that ends early.";
    Mismatch = "mismatch", "TarError", "A tar whose md5 or size differ from its manifest entry.";
    Unlisted = "unlisted", "TarError", "A tar not in the manifest.";
    NoManifest = "no_manifest", "TarError", "Tars to match with arXiv's metadata but no manifest.";
    Metadata = "metadata", "TarError", "arXiv's metadata for the tars cannot be read.";
    Interrupted = "interrupted", "TarError", "The run was interrupted.";
    // arXiv and the resolver.
    Setting = "setting", "NetworkError", "A network setting (an environment variable or argument) that cannot be used.";
    NoCacheDir = "no_cache_dir", "NetworkError", "No cache folder could be found.";
    Cache = "cache", "NetworkError", "The cache cannot be read or written.";
    NotCached = "not_cached", "NetworkError", "Offline, and the answer is not in the cache.";
    BadId = "bad_id", "NetworkError", "Not an arXiv id.";
    IdDoesNotExist = "id_does_not_exist", "NetworkError", "arXiv has no paper with that id.";
    Deleted = "deleted", "NetworkError", "arXiv deleted the paper.";
    NoSuchVersion = "no_such_version", "NetworkError", "The paper has no such version.";
    OlderVersion = "older_version", "NetworkError", "An older version needs its title and abstract (arXiv serves the latest's).";
    NotLatest = "not_latest", "NetworkError", "The version asked for is not the latest.";
    NotFound = "not_found", "NetworkError", "The resolver has no such record.";
    Status = "status", "NetworkError", "An HTTP error after the retries.";
    Timeout = "timeout", "NetworkError", "No answer in time.";
    Connect = "connect", "NetworkError", "The host cannot be reached.";
    Read = "read", "NetworkError", "The answer broke off.";
    BadAnswer = "bad_answer", "NetworkError", "Malformed XML or JSON from the server.";
    NoNumber = "no_number", "NetworkError", "The PDF carries no number.";
    // Anything else.
    Invalid = "invalid", "PithError", "Any other error.";
}

/// The Python exception classes: name, bases (Python names; `PithError` is the root) and
/// what they are raised for. Every [`ErrorCode::class`] is one of them.
pub const CLASSES: &[(&str, &[&str], &str)] = &[
    (
        "PithError",
        &["Exception"],
        "Base class of every error raised by pith_number.",
    ),
    (
        "NumberError",
        &["PithError", "ValueError"],
        "A Pith Number that does not parse, or a bare code whose year cannot be had.",
    ),
    (
        "RecordError",
        &["PithError", "ValueError"],
        "A record, paper fields or Atom feed that is invalid or cannot be read.",
    ),
    (
        "VerifyError",
        &["PithError", "ValueError"],
        "A key, hash, signature or bundle that cannot be decoded (not a mismatch).",
    ),
    (
        "BadgeError",
        &["PithError", "ValueError"],
        "Badge or snippet options refused.",
    ),
    (
        "StyError",
        &["PithError", "ValueError"],
        "pith.sty options refused.",
    ),
    (
        "OptionError",
        &["PithError", "ValueError"],
        "Settings or arguments that are not allowed or contradict each other.",
    ),
    (
        "OutputError",
        &["PithError", "ValueError"],
        "An output that would be the input itself or leave its folder.",
    ),
    (
        "ExistsError",
        &["PithError", "FileExistsError"],
        "An output that exists and may not be replaced.",
    ),
    (
        "BatchError",
        &["PithError", "ValueError"],
        "A manifest, sidecars or shard of a batch that cannot be used.",
    ),
    (
        "PdfError",
        &["PithError"],
        "A PDF that cannot be read or updated; the input is never modified.",
    ),
    (
        "PdfIOError",
        &["PdfError", "OSError"],
        "A file that cannot be opened, read or written, or is not a regular file.",
    ),
    (
        "NotPdfError",
        &["PdfError"],
        "No %PDF- header in the first 1024 bytes.",
    ),
    (
        "DamagedPdfError",
        &["PdfError"],
        "A broken cross-reference table; repair=True rebuilds it.",
    ),
    (
        "EncryptedPdfError",
        &["PdfError"],
        "An encrypted file that cannot be opened or would lose its encryption.",
    ),
    (
        "CertifiedPdfError",
        &["PdfError"],
        "A certification signature forbids changes; force=True updates anyway.",
    ),
    (
        "XmpError",
        &["PdfError"],
        "An unparsable XMP packet; force=True replaces it.",
    ),
    (
        "UnsupportedPdfError",
        &["PdfError"],
        "A file that needs a feature pith does not write.",
    ),
    (
        "TarError",
        &["PithError"],
        "A tar that cannot be streamed or does not match its manifest entry.",
    ),
    (
        "NetworkError",
        &["PithError"],
        "arXiv or the resolver could not give the answer asked for.",
    ),
];

impl ErrorCode {
    /// The kind of `name`, if it is one.
    pub fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ErrorCode::from_name(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown kind {s:?}")))
    }
}

/// The kind of a PDF engine error.
pub fn of_pdf(e: &crate::pdf::Error) -> ErrorCode {
    use crate::pdf::ErrorKind as P;
    match e.kind() {
        P::Io => ErrorCode::Io,
        P::NotFile => ErrorCode::NotFile,
        P::NotPdf => ErrorCode::NotPdf,
        P::Damaged(_) => ErrorCode::Damaged,
        P::Encrypted => ErrorCode::Encrypted,
        P::Crypt(_) => ErrorCode::Password,
        P::Certified => ErrorCode::Certified,
        P::Signed(..) => ErrorCode::Signed,
        P::Xmp(_) => ErrorCode::Xmp,
        P::NoStampRoom => ErrorCode::NoStampRoom,
        P::Printed(_) => ErrorCode::Printed,
        P::TooLarge { .. } => ErrorCode::TooLarge,
        P::OverLimit { .. } => ErrorCode::OverLimit,
        P::Stopped(crate::pdf::Halt::Deadline) => ErrorCode::OverTime,
        // Cancelled: the run it belongs to was interrupted.
        P::Stopped(_) => ErrorCode::Interrupted,
        P::PagesLost { .. } => ErrorCode::PagesLost,
        _ => ErrorCode::Unsupported,
    }
}

/// The kind of a number error.
pub fn of_number(e: &crate::number::Error) -> ErrorCode {
    use crate::number::ErrorKind as K;
    match e.kind() {
        K::WrongLength { .. } => ErrorCode::WrongLength,
        K::BadCharacter { .. } => ErrorCode::BadCharacter,
        K::BadYear { .. } => ErrorCode::BadYear,
        K::NoYear => ErrorCode::NoYear,
        K::BadForm => ErrorCode::BadForm,
    }
}

/// The kind of a record error (an error about one entry of a feed takes its cause's kind).
pub fn of_record(e: &crate::record::Error) -> ErrorCode {
    use crate::record::ErrorKind as K;
    match e.kind() {
        K::Json(_) => ErrorCode::Json,
        K::Field { .. } => ErrorCode::Field,
        K::Atom(_) => ErrorCode::Atom,
        K::Xml(_) => ErrorCode::Xml,
        K::Io(_) => ErrorCode::Io,
        K::Utf8 { .. } => ErrorCode::Utf8,
        K::Number(n) => of_number(n),
        K::NotARecord => ErrorCode::NotARecord,
        K::Entries { .. } => ErrorCode::Entries,
        K::Entry { source, .. } => of_record(source),
        K::NoEntry(_) => ErrorCode::NoEntry,
    }
}

/// The kind of a network error (a PDF or record inside one takes its own kind).
pub fn of_net(e: &crate::net::Error) -> ErrorCode {
    use crate::net::ErrorKind as K;
    match e.kind() {
        K::Setting { .. } => ErrorCode::Setting,
        K::NoCacheDir => ErrorCode::NoCacheDir,
        K::Cache { .. } => ErrorCode::Cache,
        K::NotCached => ErrorCode::NotCached,
        K::BadId => ErrorCode::BadId,
        K::IdDoesNotExist => ErrorCode::IdDoesNotExist,
        K::Deleted => ErrorCode::Deleted,
        K::NoSuchVersion { .. } => ErrorCode::NoSuchVersion,
        K::OlderVersion { .. } => ErrorCode::OlderVersion,
        K::NotLatest { .. } => ErrorCode::NotLatest,
        K::NotFound => ErrorCode::NotFound,
        K::Status { .. } => ErrorCode::Status,
        K::Timeout => ErrorCode::Timeout,
        K::Connect { .. } => ErrorCode::Connect,
        K::Read(_) => ErrorCode::Read,
        K::BadAnswer(_) | K::Ots(_) => ErrorCode::BadAnswer,
        K::Upgrade { .. } => ErrorCode::Invalid,
        K::Record(r) => of_record(r),
        K::Pdf(p) => of_pdf(p),
        K::NoNumber => ErrorCode::NoNumber,
    }
}

/// The kind of a verification input error.
pub fn of_verify(e: &crate::verify::Error) -> ErrorCode {
    use crate::verify::ErrorKind as K;
    match e.kind() {
        K::BadKey(_) => ErrorCode::BadKey,
        K::BadSignature(_) => ErrorCode::BadSignature,
        K::BadHash(_) => ErrorCode::BadHash,
        K::BundleJson(_) | K::BadBundle(_) | K::BundleRecord(_) => ErrorCode::BadBundle,
        K::NotVerified(_) => ErrorCode::NotVerified,
    }
}

/// The kind of a batch error.
pub fn of_batch(e: &crate::batch::Error) -> ErrorCode {
    use crate::batch::ErrorKind as K;
    match e.kind() {
        K::Io(_) => ErrorCode::Io,
        K::Manifest(_) => ErrorCode::Manifest,
        K::Number(r) => of_record(r),
        K::Conflict(_) => ErrorCode::Conflict,
        K::Shard(_) => ErrorCode::Shard,
    }
}

/// The kind of a badge error.
pub fn of_badge(e: &crate::badge::Error) -> ErrorCode {
    use crate::badge::ErrorKind as K;
    match e.kind() {
        K::ControlCharacter { .. } => ErrorCode::ControlCharacter,
        K::EmptyLabel => ErrorCode::EmptyLabel,
        K::LabelTooLong { .. } => ErrorCode::LabelTooLong,
        K::QrModuleSize { .. } => ErrorCode::QrModuleSize,
        K::Qr(_) => ErrorCode::Qr,
        K::UnknownStyle(_) => ErrorCode::UnknownStyle,
        K::UnknownStatus(_) => ErrorCode::UnknownStatus,
        K::UncheckedStatus(_) => ErrorCode::UncheckedStatus,
        K::ImageFormat(_) => ErrorCode::UnknownFormat,
        K::UnknownFormat(_) => ErrorCode::UnknownFormat,
        K::UnsupportedCharacter { .. } => ErrorCode::UnsupportedCharacter,
        K::EmptySource => ErrorCode::EmptySource,
        K::LatexImage(_) => ErrorCode::LatexImage,
        K::NotForFormat { .. } | K::QrModuleWithoutQr => ErrorCode::Request,
        K::BundleAndStatus | K::KeyWithoutBundle => ErrorCode::Conflict,
        // The PDF badge's drawing is refused only for a character its font lacks.
        K::Pdf(_) => ErrorCode::UnsupportedCharacter,
        K::Template(_) => ErrorCode::Template,
    }
}

/// The kind of a pith.sty error.
pub fn of_sty(e: &crate::sty::Error) -> ErrorCode {
    use crate::sty::ErrorKind as K;
    match e.kind() {
        K::InvalidDate(_) => ErrorCode::InvalidDate,
        K::InvalidVersion(_) => ErrorCode::InvalidVersion,
        K::Template => ErrorCode::Template,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_snake_case_and_classes_exist() {
        let mut seen = std::collections::BTreeSet::new();
        for k in ErrorCode::ALL {
            let n = k.name();
            assert!(seen.insert(n), "{n} twice");
            assert!(
                n.bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit()),
                "{n}"
            );
            assert!(CLASSES.iter().any(|(c, _, _)| *c == k.class()), "{n}");
            assert_eq!(ErrorCode::from_name(n), Some(*k));
            assert_eq!(serde_json::to_value(k).unwrap(), n);
        }
        for (c, bases, _) in CLASSES {
            assert!(
                *c == "PithError" || bases.iter().any(|b| CLASSES.iter().any(|(x, ..)| x == b)),
                "{c} derives from no pith class"
            );
        }
    }

    #[test]
    fn docs_list_every_kind_with_its_class() {
        let doc = include_str!("../../docs/reports.md");
        for k in ErrorCode::ALL {
            let row = format!("| `{}` | `{}` |", k.name(), k.class());
            assert!(doc.contains(&row), "docs/reports.md lacks {row}");
        }
    }
}
