//! The full rewrite: the whole file loaded with lopdf and saved compactly with the number,
//! repaired first where it is damaged.

use super::{paper_info, read_all, Options};
use crate::document::{count_pages, load, Document};
use crate::filters::MAX_WHOLE;
use crate::reader::ReadAt;
use crate::Identifier;
use crate::{info, repair, xmp, Error, ErrorKind};

/// A full rewrite that carries `number`: the whole file is loaded with lopdf and saved
/// compactly. A damaged file is first repaired by rebuilding its xref from a scan
/// ([`repair::repair`]). Loads the whole file into memory; signatures do not survive.
///
/// # Errors
/// [`ErrorKind::Encrypted`], [`ErrorKind::NotPdf`], [`ErrorKind::Damaged`] when even the
/// rebuilt file cannot be loaded, [`ErrorKind::PagesLost`] when the result would have no
/// readable page tree or fewer pages than the file, [`ErrorKind::Unsupported`] for a file
/// over [`MAX_READ_WHOLE`](super::MAX_READ_WHOLE), [`ErrorKind::Xmp`] (unless `force`),
/// [`ErrorKind::Io`].
pub fn rewrite<R: ReadAt>(
    src: R,
    number: &dyn Identifier,
    opts: &Options,
) -> Result<Vec<u8>, Error> {
    let budget = opts.budget();
    let data = read_all(&src)?;
    // The pages a tolerant reader finds: the page tree of a file that opens, else
    // every object that is a page (the scan that rebuilds a damaged file's xref counts them).
    // Also the Info dictionary, so that the paper's /Title and /Author follow the same rule
    // as in an incremental update (written only where the file has none of its own).
    let (data, found, old_info) = match load(&data[..], None, opts.budget()) {
        Ok(d) if d.encrypted => return Err(Error::new(ErrorKind::Encrypted)),
        Ok(d) => {
            let found = match pages_of(&d) {
                Some(n) => n,
                None => repair::scan_within(&data, &budget).map_or(0, |r| r.pages),
            };
            let old_info = d.info.map(|(i, _)| i);
            (data, found, old_info)
        }
        Err(e) if matches!(e.kind(), ErrorKind::Damaged(_)) => {
            let found = repair::scan_within(&data, &budget)?.pages;
            let data = repair::repair_within(&data, &budget)?;
            let old_info = load(&data[..], None, opts.budget())
                .ok()
                .and_then(|d| d.info.map(|(i, _)| i));
            (data, found, old_info)
        }
        Err(e) => return Err(e),
    };
    // lopdf decodes object streams, xref streams and the XMP packet whole: each is first
    // decoded here as a stream, and the file refused past the bound.
    if let Ok(r) = repair::scan_within(&data, &budget) {
        repair::check_decoded(&data[r.header..], &r, MAX_WHOLE)?;
    }
    // The full load and save below are lopdf's: the budget is checked before them.
    budget.verdict()?;
    let props = xmp::Props {
        number: number.full(),
        short: number.short(),
        url: number.url(),
        paper: opts.paper.clone(),
    };
    let out = repair::rewrite_document(&data, |old| {
        let text = old.as_deref().map(xmp::Text::of);
        // The old packet parsed; a packet that is not XMP is replaced under `force`.
        let parsed = match text.as_ref().map(xmp::Text::parse) {
            Some(Err(e)) if !opts.force => return Err(e),
            Some(Err(_)) | None => None,
            Some(Ok(p)) => Some(p),
        };
        let pdfa4 = parsed
            .as_ref()
            .is_some_and(|p| p.values().pdfa_part.as_deref() == Some("4"));
        let paper_entries = paper_info(parsed.as_ref(), old_info.as_ref(), &opts.paper);
        let info_added: Vec<&str> = paper_entries.iter().map(info::added_name).collect();
        let packet = match &parsed {
            Some(p) => p.merge(&props, &opts.now, &info_added)?,
            None => xmp::merge_new(&props, &opts.now, &info_added)?,
        }
        .bytes;
        let entries = if pdfa4 {
            vec![]
        } else {
            info::entries(&props.number, &props.url)
                .into_iter()
                .chain(paper_entries)
                .map(|e| (e.key.to_string(), e.value))
                .collect()
        };
        Ok((packet, entries))
    })?;
    // The result's page tree, read as any reader would: a rewrite that loses pages is refused,
    // never written.
    let kept = load(&out[..], None, opts.budget())
        .ok()
        .and_then(|d| pages_of(&d))
        .unwrap_or(0);
    if kept == 0 || kept < found {
        return Err(Error::new(ErrorKind::PagesLost { found, kept }));
    }
    Ok(out)
}

/// The number of pages in a document's page tree, `None` when the tree is broken.
fn pages_of<R: ReadAt>(doc: &Document<R>) -> Option<usize> {
    count_pages(&doc.pdf, doc.catalog().get(b"Pages"))
        .ok()
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}
