//! What a PDF says about its Pith Number: [`inspect`] reads the Info entries, the XMP values,
//! the PDF/A claim, signatures and the update count, and [`Inspection`] judges whether they
//! agree. It never writes.

use super::document::load;
use super::reader::{ReadAt, XrefKind};
use super::signature::{count_signatures, docmdp};
use super::{info, xmp, Error};
use crate::PithNumber;

/// What a PDF says about its Pith Number.
#[derive(Debug, Clone, Default)]
pub struct Inspection {
    /// Header version (`1.7`).
    pub version: String,
    /// Kind of the newest xref section.
    pub xref_stream: bool,
    /// Number of xref sections (1 for a file never updated incrementally).
    pub sections: usize,
    /// Whether the file is encrypted (then values are not read).
    pub encrypted: bool,
    /// Info `/PithNumber`.
    pub info_number: Option<String>,
    /// Info `/PithURL`.
    pub info_url: Option<String>,
    /// Values from XMP, if a packet was read.
    pub xmp: Option<xmp::Values>,
    /// Why the XMP packet could not be read.
    pub xmp_error: Option<String>,
    /// Signature fields with a value.
    pub signatures: usize,
    /// `/P` of a DocMDP certification signature, when certified.
    pub docmdp: Option<i64>,
}

impl Inspection {
    /// The number found (XMP `pith:number`, else Info `/PithNumber`).
    pub fn found(&self) -> Option<String> {
        self.xmp
            .as_ref()
            .and_then(|x| x.number.clone())
            .or_else(|| self.info_number.clone())
    }

    /// Whether every place that holds a number or URL holds the same one, and the short form
    /// and URL belong to it. A file without any number agrees trivially.
    pub fn consistent(&self) -> bool {
        let Some(n) = self.found() else {
            return self.xmp.as_ref().is_none_or(|x| {
                x.identifiers.is_empty() && x.relations.is_empty() && x.url.is_none()
            });
        };
        let Ok(num) = PithNumber::parse(&n) else {
            return false;
        };
        let url = num.url();
        let ok_info = self.info_number.as_ref().is_none_or(|i| *i == n)
            && self.info_url.as_ref().is_none_or(|u| *u == url);
        let ok_xmp = self.xmp.as_ref().is_none_or(|x| {
            x.number.as_ref().is_none_or(|v| *v == n)
                && x.short.as_ref().is_none_or(|v| *v == num.short())
                && x.url.as_ref().is_none_or(|v| *v == url)
                && x.identifiers.iter().all(|v| *v == n)
                && x.relations.iter().all(|v| *v == url)
        });
        ok_info && ok_xmp
    }

    /// The PDF/A claim, e.g. `PDF/A-1B`.
    pub fn pdfa(&self) -> Option<String> {
        let x = self.xmp.as_ref()?;
        let part = x.pdfa_part.as_ref()?;
        Some(format!(
            "PDF/A-{part}{}",
            x.pdfa_conformance.as_deref().unwrap_or("").to_uppercase()
        ))
    }
}

/// Reads the Pith values, the PDF/A claim, signatures and update count from a PDF.
///
/// # Errors
/// As [`Pdf::open`](super::Pdf::open); an unreadable XMP packet is reported in
/// [`Inspection::xmp_error`], not as an error.
pub fn inspect<R: ReadAt>(src: R) -> Result<Inspection, Error> {
    let doc = load(src)?;
    let mut ins = Inspection {
        version: doc.pdf.version().to_string(),
        xref_stream: doc.pdf.xref_kind() == XrefKind::Stream,
        sections: doc.pdf.sections(),
        encrypted: doc.encrypted,
        ..Inspection::default()
    };
    if !doc.encrypted {
        if let Some((d, _)) = &doc.info {
            (ins.info_number, ins.info_url) = info::read(d);
        }
        if let Some(p) = &doc.packet {
            match xmp::read(p) {
                Ok(v) => ins.xmp = Some(v),
                Err(e) => ins.xmp_error = Some(e.to_string()),
            }
        }
    }
    let cat = doc.catalog();
    ins.signatures = count_signatures(&doc.pdf, &cat)?;
    ins.docmdp = docmdp(&doc.pdf, &cat)?;
    Ok(ins)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement() {
        let n = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let mut i = Inspection {
            info_number: Some(n.full()),
            info_url: Some(n.url()),
            ..Inspection::default()
        };
        assert!(i.consistent());
        assert_eq!(i.found(), Some(n.full()));
        i.info_url = Some("https://example.org/".into());
        assert!(!i.consistent());
        assert!(Inspection::default().consistent());
        assert_eq!(Inspection::default().pdfa(), None);
    }
}
