//! Unit tests of the packet rooms: decoding, reading, merging and stripping, on small packets.

use std::borrow::Cow;

use super::merge::property_li;
use super::text::{text_of, MAX_ELEMENTS};
use super::*;
use crate::vocab::URL_BASE;

#[test]
fn a_utf8_packet_is_read_in_place_and_others_decoded() {
    let body = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>";
    let padded = format!("\u{feff}{body}\n\0\0  ");
    let t = text_of(padded.as_bytes()).unwrap();
    assert!(matches!(t, Cow::Borrowed(_)), "a UTF-8 packet was copied");
    assert_eq!(t, body);
    let utf16: Vec<u8> = padded.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let t = text_of(&utf16).unwrap();
    assert!(matches!(t, Cow::Owned(_)));
    assert_eq!(t, body);
    assert_eq!(text_of(b"\n\0").unwrap(), "");
}

fn props(code: &str) -> Props {
    Props {
        number: format!("pith:2024:{code}"),
        short: format!("pith:{}", &code[..8]),
        url: format!("{URL_BASE}{code}"),
        paper: PaperFacts::default(),
    }
}
const A: &str = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
const B: &str = "AAAAAAAAPUTUY3JKWBANNPOFR5";

#[test]
fn strip_takes_out_pith_values_and_keeps_the_rest() {
    let p = props(A);
    let doi = "doi:10.1000/1";
    let other = "https://example.org/a";
    let packet = format!(
        r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:dc="{DC_NS}" xmlns:xmp="{XMP_NS}" xmlns:pith="{PITH_NS}" pith:url="{}"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Kept</rdf:li></rdf:Alt></dc:title><xmp:Identifier><rdf:Bag><rdf:li>{doi}</rdf:li><rdf:li>{}</rdf:li></rdf:Bag></xmp:Identifier><dc:relation><rdf:Bag><rdf:li>{}</rdf:li></rdf:Bag></dc:relation><dc:source>{other}</dc:source><pith:number>{}</pith:number></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#,
        p.url, p.number, p.url, p.number
    );
    let out = strip(packet.as_bytes())
        .unwrap()
        .expect("pith values found");
    let text = String::from_utf8(out.clone()).unwrap();
    assert_eq!(
        read(&out).unwrap(),
        Values {
            title: Some("Kept".into()),
            ..Values::default()
        }
    );
    for kept in ["Kept", doi, other, "xmp:Identifier"] {
        assert!(text.contains(kept), "{kept} lost: {text}");
    }
    assert!(!text.contains("dc:relation") && !text.contains(A), "{text}");
    assert_eq!(strip(&out).unwrap(), None, "nothing left to strip");
    let merged = merge(None, &p, "2024-01-01T00:00:00Z").unwrap();
    let stripped = strip(&merged).unwrap().unwrap();
    assert_eq!(read(&stripped).unwrap().number, None);
}

#[test]
fn a_packet_of_too_many_elements_is_refused_before_it_is_parsed() {
    let packet = |n: usize| {
        format!(
            r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:a="urn:a">{}</rdf:Description></rdf:RDF></x:xmpmeta>"#,
            "<a:b/>".repeat(n)
        )
    };
    // Three elements frame the empty ones.
    assert!(read(packet(MAX_ELEMENTS - 3).as_bytes()).is_ok());
    let e = read(packet(MAX_ELEMENTS).as_bytes()).unwrap_err();
    assert!(e.to_string().contains("more than 200000 elements"), "{e}");
}

#[test]
fn new_packet_is_wrapped_and_padded() {
    let out = merge(None, &props(A), "2024-01-01T00:00:00Z").unwrap();
    let s = String::from_utf8(out).unwrap();
    assert!(s.starts_with("<?xpacket begin=\"\u{feff}\""));
    assert!(s.ends_with("<?xpacket end=\"w\"?>"));
    let pad = s.len() - s.trim_end_matches("<?xpacket end=\"w\"?>").trim_end().len();
    assert!((2048..4096).contains(&pad), "padding {pad}");
    assert!(s.contains("<pith:number>pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5</pith:number>"));
    assert!(!s.contains("pdfaExtension"));
}

#[test]
fn merge_keeps_properties_and_replaces_old_number() {
    let old = r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:MetadataDate="2000-01-01" xmp:CreatorTool="TeX">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">T &amp; U</rdf:li></rdf:Alt></dc:title>
<xmp:Identifier><rdf:Bag><rdf:li>doi:10.1/x</rdf:li></rdf:Bag></xmp:Identifier>
<!-- a comment -->
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"#;
    let one = merge(Some(old.as_bytes()), &props(B), "2024-01-01T00:00:00Z").unwrap();
    let two = merge(Some(&one), &props(A), "2024-01-02T00:00:00Z").unwrap();
    let s = String::from_utf8(two.clone()).unwrap();
    assert!(
        s.contains("T &amp; U") && s.contains("doi:10.1/x") && s.contains("<!-- a comment -->")
    );
    assert!(s.contains("xmp:CreatorTool=\"TeX\""));
    assert!(!s.contains("2000-01-01") && !s.contains(B));
    let v = read(&two).unwrap();
    assert!(v.carries(&props(A)));
    assert_eq!(s.matches("MetadataDate>").count(), 2);
}

#[test]
fn pdfa_gets_an_extension_schema_once() {
    let old = r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
</rdf:RDF></x:xmpmeta>"#;
    let one = merge(Some(old.as_bytes()), &props(A), "2024-01-01T00:00:00Z").unwrap();
    let v = read(&one).unwrap();
    assert!(v.pith_schema_declared && v.carries(&props(A)));
    let two = merge(Some(&one), &props(B), "2024-01-01T00:00:00Z").unwrap();
    assert_eq!(
        String::from_utf8(two)
            .unwrap()
            .matches("<pdfaSchema:namespaceURI>")
            .count(),
        1
    );
}

fn paper() -> PaperFacts {
    PaperFacts {
        doi: Some("10.48550/arXiv.2402.03791".into()),
        arxiv: Some("2402.03791v3".into()),
        title: Some("A & B".into()),
        creators: vec!["A. One".into(), "B. Two".into()],
    }
}

#[test]
fn a_whole_number_item_as_pith_sty_writes_it_is_the_same_number() {
    let p = props(A);
    let packet = format!(
        r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:dc="{DC_NS}" xmlns:xmp="{XMP_NS}" xmlns:pith="{PITH_NS}"><pith:number>{n}</pith:number><pith:shortNumber>{short}</pith:shortNumber><pith:url>{url}</pith:url><dc:relation><rdf:Bag><rdf:li>{url}</rdf:li></rdf:Bag></dc:relation><xmp:Identifier><rdf:Bag><rdf:li rdf:parseType="Resource" xmlns:xmpidq="{XMPIDQ_NS}"><rdf:value>{n}</rdf:value><xmpidq:Scheme>pith</xmpidq:Scheme></rdf:li></rdf:Bag></xmp:Identifier></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#,
        n = p.number,
        short = p.short,
        url = p.url
    );
    let v = read(packet.as_bytes()).unwrap();
    assert_eq!(v.identifiers, std::slice::from_ref(&p.number));
    assert!(v.carries(&p), "a file pith.sty numbered is done");
    let stripped = String::from_utf8(strip(packet.as_bytes()).unwrap().unwrap()).unwrap();
    assert!(!stripped.contains(A), "{stripped}");
    // The scheme's value form reads back as the same number.
    let ours = merge(None, &p, "2024-01-01T00:00:00Z").unwrap();
    let v = read(&ours).unwrap();
    assert_eq!(v.identifiers, std::slice::from_ref(&p.number));
    assert!(v.carries(&p));
    let text = String::from_utf8(ours).unwrap();
    assert!(
        text.contains(&format!(">{}<", scheme_value(&p.number))),
        "{text}"
    );
}

#[test]
fn a_known_paper_gets_qualified_identifiers_and_strip_takes_exactly_them_out() {
    let p = Props {
        paper: paper(),
        ..props(A)
    };
    let v = read(&merge(None, &p, "2024-01-01T00:00:00Z").unwrap()).unwrap();
    let scheme = |s: &str| {
        v.schemes
            .iter()
            .find(|(k, _)| k == s)
            .map(|(_, v)| v.as_str())
    };
    // The scheme says `pith`, the value the rest: calibre shows `pith:2024:…` once.
    assert_eq!(scheme("pith"), Some(scheme_value(&p.number)));
    assert_eq!(format!("pith:{}", scheme("pith").unwrap()), p.number);
    assert_eq!(scheme("doi"), Some("10.48550/arXiv.2402.03791"));
    assert_eq!(scheme("arxiv"), Some("2402.03791v3"));
    assert_eq!(
        v.dc_identifier.as_deref(),
        Some("doi:10.48550/arXiv.2402.03791")
    );
    assert_eq!(v.prism_doi.as_deref(), Some("10.48550/arXiv.2402.03791"));
    assert_eq!(v.title.as_deref(), Some("A & B"));
    assert_eq!(v.creators, ["A. One", "B. Two"]);
    assert_eq!(v.identifiers, std::slice::from_ref(&p.number));

    // A publisher's title, authors, DOI and identifier scheme stay; only what is missing
    // is added, and strip gives the publisher's packet back byte for byte.
    let publisher = format!(
        r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:dc="{DC_NS}" xmlns:xmp="{XMP_NS}" xmlns:xmpidq="{XMPIDQ_NS}" xmlns:prism="{PRISM_NS}"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Journal title</rdf:li></rdf:Alt></dc:title><dc:creator><rdf:Seq><rdf:li>C. Three</rdf:li></rdf:Seq></dc:creator><prism:doi>10.1000/journal</prism:doi><xmp:Identifier><rdf:Bag><rdf:li rdf:parseType="Resource"><rdf:value>10.1000/journal</rdf:value><xmpidq:Scheme>DOI</xmpidq:Scheme></rdf:li></rdf:Bag></xmp:Identifier></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#
    );
    let merged = merge(Some(publisher.as_bytes()), &p, "2024-01-01T00:00:00Z").unwrap();
    let v = read(&merged).unwrap();
    assert_eq!(v.title.as_deref(), Some("Journal title"));
    assert_eq!(v.creators, ["C. Three"]);
    assert_eq!(v.prism_doi.as_deref(), Some("10.1000/journal"));
    let dois: Vec<_> = v.schemes.iter().filter(|(k, _)| k == "doi").collect();
    assert_eq!(dois.len(), 1, "{:?}", v.schemes);
    assert!(v
        .schemes
        .iter()
        .any(|(k, v)| k == "arxiv" && v == "2402.03791v3"));
    assert_eq!(
        v.dc_identifier.as_deref(),
        Some("doi:10.48550/arXiv.2402.03791")
    );
    assert!(
        current(&merged, &p, &[]).unwrap(),
        "a second merge changes nothing"
    );
    let stripped = String::from_utf8(strip(&merged).unwrap().unwrap()).unwrap();
    let without_date = |t: &str| {
        roxmltree::Document::parse(t).unwrap();
        t.split_whitespace().collect::<String>()
    };
    let stripped = without_date(&stripped);
    assert!(stripped.contains("Journaltitle") && stripped.contains("C.Three"));
    assert!(
        !stripped.contains("arXiv") && !stripped.contains("pith:"),
        "{stripped}"
    );
    // merge replaced xmp:MetadataDate; everything else is the publisher's again.
    let date_free = stripped.replace(
        "<xmp:MetadataDate>2024-01-01T00:00:00Z</xmp:MetadataDate>",
        "",
    );
    let ours_gone = date_free.replace(
        &format!(r#"<rdf:Descriptionrdf:about=""xmlns:rdf="{RDF_NS}"xmlns:xmp="{XMP_NS}"xmlns:dc="{DC_NS}"xmlns:pith="{PITH_NS}"xmlns:prism="{PRISM_NS}"></rdf:Description>"#),
        "",
    ).replace(
        &format!(r#"<rdf:Descriptionrdf:about=""xmlns:rdf="{RDF_NS}"xmlns:xmp="{XMP_NS}"xmlns:dc="{DC_NS}"xmlns:pith="{PITH_NS}"></rdf:Description>"#),
        "",
    );
    assert_eq!(ours_gone, without_date(&publisher));
}

#[test]
fn texts_xml_cannot_hold_are_cleaned_not_refused() {
    let p = Props {
        paper: PaperFacts {
            title: Some("a\u{1}b\u{fffe}  c".into()),
            creators: vec!["\u{7}".into(), "D. E".into()],
            ..paper()
        },
        ..props(A)
    };
    let v = read(&merge(None, &p, "now").unwrap()).unwrap();
    assert_eq!(v.title.as_deref(), Some("ab c"));
    assert_eq!(v.creators, ["D. E"]);
}

#[test]
fn pdfa_declares_prism_and_the_added_list() {
    // A PDF/A-1 packet whose pith schema (as pith.sty writes it) lacks pith:added.
    let sty_schema = format!(
        r#"<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Pith Number</pdfaSchema:schema><pdfaSchema:namespaceURI>{PITH_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>pith</pdfaSchema:prefix><pdfaSchema:property><rdf:Seq>{}</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas>"#,
        vocab::XMP_PROPERTIES[..3]
            .iter()
            .map(|p| property_li("rdf:", p))
            .collect::<String>()
    );
    let old = format!(
        r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:pdfaid="{PDFAID_NS}" xmlns:pdfaExtension="{PDFAEXT_NS}" xmlns:pdfaSchema="{PDFASCHEMA_NS}" xmlns:pdfaProperty="{PDFAPROPERTY_NS}"><pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>{sty_schema}</rdf:Description></rdf:RDF></x:xmpmeta>"#
    );
    let p = Props {
        paper: paper(),
        ..props(A)
    };
    let v = read(&merge(Some(old.as_bytes()), &p, "now").unwrap()).unwrap();
    assert!(
        v.pith_declared.iter().any(|n| n == vocab::XMP_ADDED),
        "{v:?}"
    );
    assert_eq!(v.prism_declared, Some(vec!["doi".to_string()]));
    assert!(v.prism_doi.is_some());
}

#[test]
fn broken_packets_are_errors() {
    assert!(merge(Some(b"<x:xmpmeta"), &props(A), "now").is_err());
    assert!(merge(Some(b"<a/>"), &props(A), "now").is_err());
    assert!(read(&[0xFF, 0xFE, 0, 0]).is_err());
}
