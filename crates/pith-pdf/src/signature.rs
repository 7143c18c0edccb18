//! Signatures and certification (ISO 32000-2 §12.8): counting signed fields and reading the
//! DocMDP permission (`/P`) of a certification signature, which decides whether an update
//! is allowed. Reads through the [`Pdf`] reader only; bounded walks, so hostile field trees
//! cannot loop.

use std::collections::HashSet;

use crate::budget::Resource;
use crate::reader::{Pdf, ReadAt};
use crate::syntax::{Dict, Obj};
use crate::Error;

/// The `/P` of the DocMDP certification signature named by the catalog's `/Perms`, or `None`
/// when the file is not certified. A DocMDP signature without `/P` counts as 2 (§12.8.2.2).
pub(crate) fn docmdp<R: ReadAt>(pdf: &Pdf<R>, cat: &Dict) -> Result<Option<i64>, Error> {
    let Some(perms) = cat.get(b"Perms") else {
        return Ok(None);
    };
    let Obj::Dict(perms) = pdf.resolve(perms)? else {
        return Ok(None);
    };
    let Some(sig) = perms.get(b"DocMDP") else {
        return Ok(None);
    };
    let Obj::Dict(sig) = pdf.resolve(sig)? else {
        return Ok(None);
    };
    let mut p = Some(2);
    if let Some(r) = sig.get(b"Reference") {
        if let Obj::Array(refs) = pdf.resolve(r)? {
            for r in refs.iter().take(16) {
                if let Obj::Dict(rd) = pdf.resolve(r)? {
                    if rd.get(b"TransformMethod").and_then(Obj::as_name) == Some(b"DocMDP") {
                        if let Some(tp) = rd.get(b"TransformParams") {
                            if let Obj::Dict(tp) = pdf.resolve(tp)? {
                                if let Some(v) = tp.get(b"P").and_then(Obj::as_int) {
                                    p = Some(v);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(p)
}

/// The number of signature fields (`/FT /Sig`, inherited) with a value in the AcroForm tree.
pub(crate) fn count_signatures<R: ReadAt>(pdf: &Pdf<R>, cat: &Dict) -> Result<usize, Error> {
    let Some(af) = cat.get(b"AcroForm") else {
        return Ok(0);
    };
    let Obj::Dict(af) = pdf.resolve(af)? else {
        return Ok(0);
    };
    let Some(fields) = af.get(b"Fields") else {
        return Ok(0);
    };
    let Obj::Array(fields) = pdf.resolve(fields)? else {
        return Ok(0);
    };
    // A DAG walk: each field object and each indirect /Kids array is expanded once (a
    // /Kids that points back at /Fields, or a field listed by many parents, is not walked
    // again), and every node pushed counts against the budget.
    let mut seen = HashSet::new();
    if let Some(Obj::Ref(r)) = af.get(b"Fields") {
        seen.insert(r.num);
    }
    pdf.budget()
        .spend(Resource::WalkNodes, fields.len() as u64)?;
    let mut stack: Vec<(Obj, bool, usize)> = fields.into_iter().map(|f| (f, false, 0)).collect();
    let mut count = 0;
    while let Some((f, parent_sig, depth)) = stack.pop() {
        if depth > 32 {
            continue;
        }
        if let Obj::Ref(r) = f {
            if !seen.insert(r.num) {
                continue;
            }
        }
        let Obj::Dict(d) = pdf.resolve(&f)? else {
            continue;
        };
        let is_sig = match d.get(b"FT") {
            Some(Obj::Name(n)) => n == b"Sig",
            _ => parent_sig,
        };
        if is_sig && d.get(b"V").is_some_and(|v| !matches!(v, Obj::Null)) {
            count += 1;
        }
        if let Some(k) = d.get(b"Kids") {
            if let Obj::Ref(r) = k {
                if !seen.insert(r.num) {
                    continue;
                }
            }
            if let Obj::Array(kids) = pdf.resolve(k)? {
                pdf.budget().spend(Resource::WalkNodes, kids.len() as u64)?;
                stack.extend(kids.into_iter().map(|k| (k, is_sig, depth + 1)));
            }
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Obj;

    use crate::testkit::fixture;

    fn catalog(pdf: &Pdf<&[u8]>) -> Dict {
        let root = pdf.trailer().get(b"Root").and_then(Obj::as_ref).unwrap();
        pdf.get(root.num)
            .unwrap()
            .unwrap()
            .obj
            .as_dict()
            .unwrap()
            .clone()
    }

    #[test]
    fn certified_and_signed_fixtures() {
        let b = fixture("pyhanko-certified-p1.pdf");
        let pdf = Pdf::open(&b[..]).unwrap();
        assert_eq!(docmdp(&pdf, &catalog(&pdf)).unwrap(), Some(1));
        let b = fixture("pyhanko-signed-twice.pdf");
        let pdf = Pdf::open(&b[..]).unwrap();
        assert_eq!(count_signatures(&pdf, &catalog(&pdf)).unwrap(), 2);
        let b = fixture("minimal.pdf");
        let pdf = Pdf::open(&b[..]).unwrap();
        assert_eq!(docmdp(&pdf, &catalog(&pdf)).unwrap(), None);
        assert_eq!(count_signatures(&pdf, &catalog(&pdf)).unwrap(), 0);
    }
}
