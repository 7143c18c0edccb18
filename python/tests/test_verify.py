"""Verification of records, texts, signatures and bundles. Signatures in the bundle tests are
made with the `cryptography` package (not ours); the registry vectors are published ones."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

import pith_number as pn
from conftest import VECTORS, need_module


def vectors() -> list:
    return json.loads((VECTORS / "records.json").read_text(encoding="utf-8"))


def test_record_against_number_ok_and_mismatch():
    v = vectors()[0]
    rec, n = v["canonical_record"], v["pith_number"]
    r = pn.verify_record(rec, n, title=v["title"], abstract_text=v["abstract"])
    assert r["holds"] and r["verdict"] == "verified"
    assert [c["subject"] for c in r["checks"]] == ["canonical_record", "pith_number", "title", "abstract"]
    assert [c["status"] for c in r["checks"]] == ["ok"] * 4
    assert v["canonical_sha256"] in r["checks"][0]["detail"]
    short = "pith:" + n.split(":")[2][:12]
    assert pn.verify_record(rec, short)["holds"]
    # A record alone is valid, but compared with nothing: not "verified".
    alone = pn.verify_record(rec)
    assert alone["holds"] and alone["verdict"] == "unverified"
    wrong_year = n.replace(":2024:", ":2023:")
    r = pn.verify_record(rec, wrong_year)
    assert not r["holds"] and r["verdict"] == "mismatch"
    assert r["checks"][1]["status"] == "mismatch"
    r = pn.verify_record(rec, n, title=v["title"] + " (extended)")
    assert r["verdict"] == "mismatch" and r["checks"][2]["status"] == "mismatch"
    with pytest.raises(pn.NumberError):
        pn.verify_record(rec, "pith:2024:XYZ")


def test_record_with_a_signature_made_by_cryptography():
    need_module("cryptography.hazmat.primitives.asymmetric.ed25519")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    v = vectors()[0]
    key = Ed25519PrivateKey.generate()
    pub_hex = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    sig = base64.b64encode(key.sign(bytes.fromhex(v["canonical_sha256"]))).decode()
    r = pn.verify_record(v["canonical_record"], v["pith_number"], signature=sig, keys=[pub_hex])
    assert r["verdict"] == "verified" and r["checks"][-1]["status"] == "ok"
    r = pn.verify_record(v["canonical_record"], signature=sig)  # registry key only
    assert r["verdict"] == "mismatch"
    c = pn.verify_signature(v["canonical_sha256"], sig, key=pub_hex)
    assert c["status"] == "ok"
    with pytest.raises(pn.VerifyError) as e:
        pn.verify_record(v["canonical_record"], signature="@@")
    assert e.value.kind == "bad_signature"


def test_texts_follow_the_vectors_ok_flags():
    seen = 0
    for v in vectors():
        for field, key in (("title", "title"), ("abstract", "abstract")):
            if key not in v or f"{key}_ok" not in v:
                continue
            c = pn.verify_text(v["canonical_record"], v[key], field)
            assert (c["status"] == "ok") == v[f"{key}_ok"], (v["pith_number"], field)
            want = v["canonical_record"]["metadata"][f"{key}_canon_sha256"]
            spec = hashlib.sha256(" ".join(v[key].split()).lower().encode()).hexdigest()
            assert (spec == want) == v[f"{key}_ok"]
            seen += 1
    assert seen > 10
    with pytest.raises(ValueError):
        pn.verify_text(vectors()[0]["canonical_record"], "x", "body")  # type: ignore[arg-type]


def test_registry_signature_vectors():
    sigs = json.loads((VECTORS / "signatures.json").read_text(encoding="utf-8"))
    for s in sigs:
        c = pn.verify_signature(s["canonical_sha256"], s["signature_b64"])
        assert c["status"] == "ok", c
        assert pn.verify_signature(s["canonical_sha256"].upper(), s["signature_b64"],
                                   key=pn.REGISTRY_KEY_B64)["status"] == "ok"
        raw = bytearray(base64.b64decode(s["signature_b64"]))
        raw[5] ^= 1
        flipped = base64.b64encode(bytes(raw)).decode()
        assert pn.verify_signature(s["canonical_sha256"], flipped)["status"] == "mismatch"
        other = hashlib.sha256(b"other").hexdigest()
        assert pn.verify_signature(other, s["signature_b64"])["status"] == "mismatch"
    with pytest.raises(pn.VerifyError) as e:
        pn.verify_signature("abc", sigs[0]["signature_b64"])
    assert e.value.kind == "bad_hash"
    with pytest.raises(pn.VerifyError) as e:
        pn.verify_signature(sigs[0]["canonical_sha256"], sigs[0]["signature_b64"], key="AAAA")
    assert e.value.kind == "bad_key"
    with pytest.raises(pn.VerifyError) as e:
        pn.verify_signature(sigs[0]["canonical_sha256"], "not base64!")
    assert e.value.kind == "bad_signature"


def bundle_for(v: dict) -> dict:
    rec = v["canonical_record"]
    code = v["pith_number"].split(":")[2]
    return {
        "bundle_type": "pith_open_graph_bundle",
        "bundle_version": "1.0",
        "pith_number": v["pith_number"],
        "short_pith_number": "pith:" + code[:8],
        "canonical_record": rec,
        "canonical_sha256": v["canonical_sha256"],
        "events": [{"payload": {"canonical_record": rec}}],
    }


def test_bundle_signed_with_a_key_we_did_not_make():
    ed = need_module("cryptography.hazmat.primitives.asymmetric.ed25519")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    assert ed is not None
    v = vectors()[0]
    key = Ed25519PrivateKey.generate()
    pub = base64.b64encode(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()
    sig = base64.b64encode(key.sign(bytes.fromhex(v["canonical_sha256"]))).decode()
    b = bundle_for(v)
    b["receipts"] = [{"kind": "pith_receipt", "key_id": "test-key", "signature": sig}]
    # A receipt naming a key we do not know: reported unverified, never a pass.
    r = pn.verify_bundle(b)
    assert r["holds"] and r["verdict"] == "unverified"
    # With the key: verified.
    r = pn.verify_bundle(json.dumps(b), keys=[pub])
    assert r["verdict"] == "verified", r
    assert any(c["status"] == "ok" and "receipt" in c["subject"] for c in r["checks"])
    # A signature over another hash fails.
    b["receipts"][0]["signature"] = base64.b64encode(key.sign(b"\0" * 32)).decode()
    r = pn.verify_bundle(b, keys=[pub])
    assert r["verdict"] != "verified"


def test_bundle_claims_and_errors():
    v = vectors()[0]
    r = pn.verify_bundle(bundle_for(v))
    assert r["verdict"] == "unverified"  # no receipt
    assert all(c["status"] != "mismatch" for c in r["checks"])
    bad = bundle_for(v)
    bad["pith_number"] = vectors()[1]["pith_number"]
    r = pn.verify_bundle(bad)
    assert r["verdict"] == "mismatch" and not r["holds"]
    with pytest.raises(pn.VerifyError) as e:
        pn.verify_bundle("[1, 2]")
    assert e.value.kind == "bad_bundle"
    with pytest.raises(pn.VerifyError) as e:
        pn.verify_bundle({"no": "record"})
    assert e.value.kind == "bad_bundle"
    with pytest.raises(pn.VerifyError) as e:
        pn.verify_bundle(bundle_for(v), keys=["not a key"])
    assert e.value.kind == "bad_key"
