"""Numbers, canonical bytes and records, checked against an independent recomputation with
hashlib + json + base64 following SPEC.md, and against the published vectors."""

from __future__ import annotations

import base64
import hashlib
import json
import random

import pytest

import pith_number as pn
from conftest import EXAMPLES, SEED, VECTORS


def spec_bytes(record: dict) -> bytes:
    """SPEC: canonical bytes are json.dumps with sorted keys, no whitespace, no ASCII escaping."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def spec_number(record: dict) -> str:
    """SPEC: first 26 base32 characters of the SHA-256 of the canonical bytes, year of
    submitted_at."""
    digest = hashlib.sha256(spec_bytes(record)).digest()
    code = base64.b32encode(digest).decode()[:26]
    return f"pith:{record['metadata']['submitted_at'][:4]}:{code}"


def spec_canon_sha256(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).lower().encode()).hexdigest()


def vectors() -> list:
    return json.loads((VECTORS / "records.json").read_text(encoding="utf-8"))


def test_vectors_number_and_bytes_match_spec_recomputation():
    vs = vectors()
    assert len(vs) > 10
    for v in vs:
        rec = v["canonical_record"]
        assert pn.canonical_bytes(rec) == spec_bytes(rec)
        assert pn.number(rec) == spec_number(rec) == v["pith_number"]
        d = pn.number_details(rec)
        assert d["canonical_sha256"] == hashlib.sha256(spec_bytes(rec)).hexdigest()
        assert d["canonical_sha256"] == v["canonical_sha256"]
        assert d["short_pith_number"] == "pith:" + v["pith_number"].split(":")[2][:8]
        assert d["url"] == "https://pith.science/pith/" + v["pith_number"].split(":")[2]


def test_json_text_and_bytes_inputs_equal_dict_input():
    rec = vectors()[0]["canonical_record"]
    text = json.dumps(rec, indent=2)
    assert pn.number(text) == pn.number(text.encode()) == pn.number(rec)
    assert pn.canonical_record(text) == rec


def test_non_ascii_and_control_characters_match_json_dumps():
    rec = vectors()[0]["canonical_record"]
    rng = random.Random(16)
    alphabet = "aZ09 \"\\/\n\t\x00\x1f\x7fé中𝄞\u2028\u00a0"
    for _ in range(200):
        r = json.loads(json.dumps(rec))
        lic = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        r["metadata"]["license"] = lic
        assert pn.canonical_bytes(r) == spec_bytes(r)
        assert pn.number(r) == spec_number(r)


def test_canon_text_matches_python_split_lower():
    samples = [
        "  ZeroPP:\n Unleashing\tExceptional  ",
        "Caf\u00e9 \u00c9T\u00c9 \u2003 em-space\u00a0nbsp",
        "Stra\u00dfe \u0130stanbul \u03a3\u03a3",
        "x\u2028y\u2029z\x1c\x1d\x1e\x1fw\x85v",
        "$1.11\\times$ {\\Phi} ---",
    ]
    for s in samples:
        assert pn.canon_text(s) == " ".join(s.split()).lower(), repr(s)
        assert pn.canon_sha256(s) == spec_canon_sha256(s)


def test_atom_example_gives_the_seed_number():
    xml = (EXAMPLES / "2402.03791v3.atom.xml").read_text(encoding="utf-8")
    recs = pn.records_from_atom(xml)
    assert len(recs) == 1
    assert pn.number(recs[0]) == spec_number(recs[0]) == SEED
    want = json.loads((EXAMPLES / "2402.03791v3.record.json").read_text(encoding="utf-8"))
    assert recs[0] == want


def test_atom_feed_with_several_entries():
    xml = (EXAMPLES / "feed.atom.xml").read_text(encoding="utf-8")
    recs = pn.records_from_atom(xml)
    assert len(recs) >= 2
    for r in recs:
        assert pn.number(r) == spec_number(r)


def test_atom_refuses_dtd_and_garbage():
    with pytest.raises(pn.RecordError) as e:
        pn.records_from_atom('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><feed/>')
    assert e.value.kind == "xml"
    with pytest.raises(pn.RecordError) as e:
        pn.records_from_atom("not xml")
    assert e.value.kind == "xml"
    with pytest.raises(pn.RecordError) as e:
        pn.records_from_atom("<html><body/></html>")
    assert e.value.kind == "atom" and "\n" not in str(e.value)


def test_record_from_fields_matches_vector():
    v = vectors()[0]
    rec = v["canonical_record"]
    m = rec["metadata"]
    built = pn.record_from_fields(
        id=rec["source"]["id"],
        version=rec["source"]["version"],
        title=v["title"],
        abstract_text=v["abstract"],
        submitted=m["submitted_at"],
        primary=m["primary_cat"],
        cross=m["cross_cats_sorted"],
        license=m["license"],
    )
    assert built == rec
    assert m["title_canon_sha256"] == spec_canon_sha256(v["title"])
    built2 = pn.record_from_fields(
        id=f"{rec['source']['id']}v{rec['source']['version']}",
        title=v["title"],
        abstract_text=v["abstract"],
        submitted=m["submitted_at"],
        primary=m["primary_cat"],
        license=m["license"],
    )
    assert pn.number(built2) == v["pith_number"]


def test_record_errors_carry_kind_and_field():
    rec = vectors()[0]["canonical_record"]
    bad = json.loads(json.dumps(rec))
    bad["metadata"]["submitted_at"] = "yesterday"
    with pytest.raises(pn.RecordError) as e:
        pn.number(bad)
    assert e.value.kind == "field" and e.value.field == "metadata.submitted_at"
    assert isinstance(e.value, ValueError) and isinstance(e.value, pn.PithError)
    missing = json.loads(json.dumps(rec))
    del missing["metadata"]["license"]
    with pytest.raises(pn.RecordError) as e:
        pn.number(missing)
    assert e.value.kind == "json"
    with pytest.raises(pn.RecordError) as e:
        pn.number("{not json")
    assert e.value.kind == "json"
    with pytest.raises(pn.RecordError):
        pn.number({"metadata": {"x": float("nan")}})
    with pytest.raises(pn.RecordError) as e:
        pn.record_from_fields(
            id="not-an-id", version=1, title="t", abstract_text="a",
            submitted="2024-01-01T00:00:00Z", primary="cs.DC",
        )
    assert e.value.kind == "field" and e.value.field == "source.id"
    with pytest.raises(TypeError):
        pn.number(42)  # type: ignore[arg-type]


def test_deep_nesting_is_refused_not_crashed():
    deep: dict = {}
    cur = deep
    for _ in range(10000):
        cur["a"] = {}
        cur = cur["a"]
    with pytest.raises(pn.RecordError):
        pn.number(deep)


def test_parse_number_forms_and_errors():
    p = pn.parse_number(SEED.lower())
    assert p == {
        "form": "full",
        "code": "7BMK4ZKTPUTUY3JKWBANNPOFR5",
        "year": 2024,
        "full": SEED,
        "short": "pith:7BMK4ZKT",
        "url": "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5",
    }
    a = pn.parse_number("pith:7bmk4zktputu")
    assert a["form"] == "alias" and a["code"] == "7BMK4ZKTPUTU" and a["url"] is None
    cases = {
        "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR": "wrong_length",
        "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR1": "bad_character",
        "pith:24:7BMK4ZKTPUTUY3JKWBANNPOFR5": "bad_year",
    }
    for text, kind in cases.items():
        with pytest.raises(pn.NumberError) as e:
            pn.parse_number(text)
        assert e.value.kind == kind, (text, e.value.kind, str(e.value))
        assert "expected" in str(e.value) or kind != "wrong_length"


def test_fields_are_checked_against_the_arxiv_taxonomy():
    v = vectors()[0]
    m = v["canonical_record"]["metadata"]
    with pytest.raises(pn.RecordError) as e:
        pn.record_from_fields(
            id="2402.03791v3", title=v["title"], abstract_text=v["abstract"],
            submitted=m["submitted_at"], primary="cs.dc", license=m["license"],
        )
    assert e.value.kind == "field" and "cs.DC" in str(e.value)


def test_arxiv_snapshot_line_gives_the_seed_record():
    want = json.loads((EXAMPLES / "2402.03791v3.record.json").read_text(encoding="utf-8"))
    v = vectors()[0]
    line = json.dumps({
        "id": "2402.03791", "submitter": "x", "authors": "A. B.", "title": v["title"],
        "comments": None, "journal-ref": None, "doi": None, "report-no": None,
        "categories": "cs.DC", "license": want["metadata"]["license"],
        "abstract": "  " + v["abstract"] + "\n",
        "versions": [{"version": "v3", "created": "Mon, 27 May 2024 10:00:00 GMT"},
                     {"version": "v1", "created": "Tue, 6 Feb 2024 08:14:56 GMT"},
                     {"version": "v2", "created": "Wed, 7 Feb 2024 09:00:00 GMT"}],
        "update_date": "2024-05-28", "authors_parsed": [],
    })
    rec = pn.record_from_arxiv_line(line)
    assert rec == want and pn.number(rec) == spec_number(rec) == SEED
    assert pn.record_from_arxiv_line(line.encode()) == want
    for bad in ("{}", "[1]", "not json", json.dumps({**json.loads(line), "versions": []})):
        with pytest.raises(pn.RecordError) as e:
            pn.record_from_arxiv_line(bad)
        assert e.value.kind == "arxiv", (bad, str(e.value))
