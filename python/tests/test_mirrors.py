"""Mirrors found through a mirror manifest (``PITH_MIRRORS``), asked in turn, and believed only
by signature: three stand-ins on 127.0.0.1 (one down, one serving another paper's record and a
bundle whose receipt was tampered with, one good). ``pith verify --json`` and
:func:`pith_number.verify_pdf` give the same verdict and name the same mirror. The bundles are
signed with the ``cryptography`` package (not ours); the key is pinned (``--key``, ``keys=``),
since a key the manifest states is a name, never trust."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import subprocess
from pathlib import Path
from typing import Dict, Tuple

import pith_number
from conftest import FIXTURES, need_module, pith_cli
from test_net import net, published  # noqa: F401 (net is a fixture)


def signer():
    ed = need_module("cryptography.hazmat.primitives.asymmetric.ed25519")
    from cryptography.hazmat.primitives import serialization

    key = ed.Ed25519PrivateKey.from_private_bytes(bytes([7] * 32))
    raw = key.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return key, raw


def bundle(rec: dict, signature: bytes) -> bytes:
    receipt = {"kind": "pith_receipt", "key_id": "test",
               "signature_b64": base64.b64encode(signature).decode()}
    return json.dumps({
        "bundle_type": "pith_open_graph_bundle", "bundle_version": "1.0",
        "pith_number": rec["pith_number"], "canonical_record": rec["canonical_record"],
        "canonical_sha256": rec["canonical_sha256"],
        "events": [{"event_type": "record_created", "subject_pith_number": rec["pith_number"],
                    "target": "record", "payload": {
                        "canonical_record": rec["canonical_record"],
                        "canonical_sha256": rec["canonical_sha256"], "receipt": receipt}}],
    }).encode()


def dead_url() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}"


def test_cli_and_python_agree_on_the_mirror_that_answered(net, tmp_path: Path, monkeypatch) -> None:  # noqa: F811
    key, raw = signer()
    rec = published("2402.03791")
    other = published("2412.14374")
    code = rec["pith_number"].rsplit(":", 1)[1]
    good_bundle = bundle(rec, key.sign(bytes.fromhex(rec["canonical_sha256"])))
    bad_bundle = bundle(rec, key.sign(bytes.fromhex(other["canonical_sha256"])))
    wrapped = json.dumps(
        {k: rec[k] for k in ["pith_number", "canonical_sha256", "canonical_record"]}
    ).encode()

    def serving(files: Dict[str, bytes]):
        def route(path: str) -> Tuple[int, bytes, float]:
            return (200, files[path], 0.0) if path in files else (404, b"not found", 0.0)
        return route

    bad = net(serving({f"/pith/{code}.json": json.dumps(other["canonical_record"]).encode(),
                       f"/pith/{code}/bundle.json": bad_bundle}))
    good = net(serving({f"/pith/{code}.json": wrapped,
                        f"/pith/{code}/bundle.json": good_bundle}))
    public_key = {"key_id": "test", "algorithm": "ed25519", "format": "raw",
                  "public_key_b64": base64.b64encode(raw).decode(),
                  "fingerprint_sha256_hex": hashlib.sha256(raw).digest()[:16].hex()}
    manifest = {"manifest_type": "pith_mirror_manifest", "manifest_version": "1.0",
                "mirrors": [{"name": name, "base_url": url, "public_key": public_key}
                            for name, url in [("down", dead_url()), ("tampered", bad.url),
                                              ("good", good.url)]]}
    path = tmp_path / "mirrors.json"
    path.write_text(json.dumps(manifest))
    monkeypatch.setenv("PITH_MIRRORS", str(path))
    monkeypatch.delenv("PITH_RESOLVER_URL", raising=False)
    pdf = tmp_path / "paper.pdf"
    pith_number.inject(FIXTURES / "minimal.pdf", rec["pith_number"], pdf)

    pinned = base64.b64encode(raw).decode()
    # Not pinned: the manifest names the key, which adds no trust.
    assert pith_number.verify_pdf(pdf, refresh=True)["verdict"] == "unverified"
    py = pith_number.verify_pdf(pdf, keys=[pinned], refresh=True)
    assert py["verdict"] == "verified", py
    assert py["mirror"] == {"name": "good", "base_url": good.url}
    # The CLI, with a cache of its own so that it asks the mirrors too.
    env = dict(os.environ, PITH_CACHE_DIR=str(tmp_path / "cli-cache"))
    out = subprocess.run([pith_cli(), "verify", str(pdf), "--json", "--key", pinned],
                         capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert (cli["verdict"], cli["mirror"]) == (py["verdict"], py["mirror"])
    assert cli["checks"] == py["checks"]
    # The manifest given as an argument: the same answer.
    monkeypatch.delenv("PITH_MIRRORS")
    again = pith_number.verify_pdf(pdf, mirrors=str(path), keys=[pinned], refresh=True)
    assert (again["verdict"], again["mirror"]) == (py["verdict"], py["mirror"])
