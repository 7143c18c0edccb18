"""One verdict, one sentence, every door: a PDF of each verdict (verified, unverified, mismatch,
no_number, unknown) goes through ``pith verify`` (text and ``--json``), Python's
``verify_pdf`` and a mirror's ``/verify`` (HTML and JSON), all against the same ``pith serve``
on 127.0.0.1, and each door gives the same verdict and the same headline sentence."""

from __future__ import annotations

import base64
import html
import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import pith_number as pn
from conftest import FIXTURES, VECTORS, need_module, pith_cli

MINIMAL = FIXTURES / "minimal.pdf"
UNKNOWN = "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA"


def vectors() -> List[Dict[str, Any]]:
    v = json.loads((VECTORS / "records.json").read_text())
    return [x for x in v if "variant_of" not in x]


def signed_bundle(rec: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    """A bundle of ``rec`` with a receipt signed by a throwaway key, and the key (base64)."""
    ed = need_module("cryptography.hazmat.primitives.asymmetric.ed25519")
    from cryptography.hazmat.primitives import serialization

    sk = ed.Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32)
    digest = bytes.fromhex(rec["canonical_sha256"])
    sig = base64.b64encode(sk.sign(digest)).decode()
    pub = sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    bundle = {
        "bundle_type": "pith_open_graph_bundle",
        "bundle_version": "1.0",
        "pith_number": rec["pith_number"],
        "canonical_record": rec["canonical_record"],
        "canonical_sha256": rec["canonical_sha256"],
        "receipt": {"kind": "pith_receipt", "key_id": "test", "signature_b64": sig},
    }
    return bundle, base64.b64encode(pub).decode()


class Mirror:
    """``pith serve`` on an index of the vectors with one signed bundle."""

    def __init__(self, pith: str, tmp: Path) -> None:
        recs = vectors()
        (tmp / "records").mkdir()
        (tmp / "bundles").mkdir()
        (tmp / "records" / "records.json").write_text(json.dumps(recs))
        bundle, self.key = signed_bundle(recs[0])
        (tmp / "bundles" / "first.json").write_text(json.dumps(bundle))
        index = tmp / "v.pith-index"
        r = subprocess.run(
            [pith, "index", "-o", str(index), "--records", str(tmp / "records"),
             "--bundles", str(tmp / "bundles"), "--key", self.key],
            capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        self.proc = subprocess.Popen(
            [pith, "serve", str(index), "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        assert line.startswith("listening on "), line
        self.url = line[len("listening on "):]

    def post(self, name: str, data: bytes, accept: str) -> Tuple[int, str]:
        req = urllib.request.Request(
            f"{self.url}/verify?file={name}", data=data, method="POST",
            headers={"Accept": accept, "Content-Type": "application/pdf"})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def mirror(tmp_path: Path):
    m = Mirror(pith_cli(), tmp_path)
    yield m
    m.stop()


def test_each_verdict_has_one_headline_at_every_door(mirror: Mirror, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pith = pith_cli()
    recs = vectors()
    first = recs[0]["pith_number"]
    year, code = first.split(":")[1], first.split(":")[2]
    # Each file and the verdict it must get.
    files = {
        "verified.pdf": (first, "verified"),
        "unverified.pdf": (recs[1]["pith_number"], "unverified"),
        # The record's code with another year: the record is found, and it is not this number.
        "mismatch.pdf": (f"pith:{1999 if year != '1999' else 2000}:{code}", "mismatch"),
        "unknown.pdf": (UNKNOWN, "unknown"),
        "none.pdf": (None, "no_number"),
    }
    # Relative names, so that every door reports the same file name.
    monkeypatch.chdir(tmp_path)
    for name, (number, _) in files.items():
        if number is None:
            Path(name).write_bytes(MINIMAL.read_bytes())
            continue
        r = subprocess.run([pith, "inject", str(MINIMAL), "--number", number, "-o", name],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    env = dict(os.environ, PITH_RESOLVER_URL=mirror.url, PITH_CACHE_DIR=str(tmp_path / "cache"),
               PITH_RESOLVER_SPACING_MS="0", PITH_ARXIV_URL="http://127.0.0.1:9")
    seen = set()
    for name, (_, verdict) in files.items():
        # The CLI, as JSON and as text; receipts checked with the key the index trusts.
        args = [pith, "verify", name, "--key", mirror.key, "--refresh"]
        j = subprocess.run(args + ["--json"], capture_output=True, text=True, env=env, timeout=60)
        cli = json.loads(j.stdout)
        assert cli["verdict"] == verdict, (name, cli)
        headline = cli["headline"]
        assert headline.startswith(verdict.upper().replace("_", " ") + ": "), headline
        t = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)
        assert t.stdout.rstrip("\n").splitlines()[-1] == headline, t.stdout
        assert t.returncode == j.returncode == (0 if verdict in ("verified", "unverified") else 1)
        # Python.
        py = pn.verify_pdf(name, keys=[mirror.key], resolver_url=mirror.url,
                           cache_dir=str(tmp_path / "pycache"))
        assert (py["verdict"], py["headline"]) == (verdict, headline), (name, py)
        # The mirror's check page, as JSON and as HTML.
        data = Path(name).read_bytes()
        status, body = mirror.post(name, data, "application/json")
        assert status == 200, body
        web = json.loads(body)
        assert (web["verdict"], web["headline"]) == (verdict, headline), (name, web)
        status, page = mirror.post(name, data, "text/html")
        assert html.escape(headline, quote=True).replace("&#x27;", "&#39;") in page, (name, page)
        if verdict != "verified":
            assert "matches its record" not in page, page
        seen.add(headline)
    # Five verdicts, five sentences.
    assert len(seen) == 5, seen
    # The unknown number's sentence says how to check it (tests/net_versions.rs runs that command).
    unknown = [h for h in seen if h.startswith("UNKNOWN: ")][0]
    assert "pith verify unknown.pdf --arxiv ID --next" in unknown, unknown


def test_an_unpinned_key_and_an_encrypted_file_get_one_answer_at_every_door(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mirror whose index was built without ``--key``: its bundle's receipt is signed by a
    key nobody pinned. The right file is UNVERIFIED at every door (never MISMATCH at the
    mirror), the wrong one MISMATCH, the unnumbered one NO NUMBER, and an encrypted file that
    needs a password is the same error kind (``password``) from ``pith verify --json``,
    Python's exception and the mirror's ``{error, kind}``."""
    pith = pith_cli()
    recs = vectors()
    (tmp_path / "records").mkdir()
    (tmp_path / "bundles").mkdir()
    (tmp_path / "records" / "records.json").write_text(json.dumps(recs))
    bundle, _ = signed_bundle(recs[0])
    (tmp_path / "bundles" / "first.json").write_text(json.dumps(bundle))
    index = tmp_path / "u.pith-index"
    r = subprocess.run([pith, "index", "-o", str(index), "--records", str(tmp_path / "records"),
                        "--bundles", str(tmp_path / "bundles")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    proc = subprocess.Popen([pith, "serve", str(index), "--listen", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()[len("listening on "):]
        first = recs[0]["pith_number"]
        year, code = first.split(":")[1], first.split(":")[2]
        monkeypatch.chdir(tmp_path)
        for name, number in [("right.pdf", first), ("wrong.pdf", f"pith:{int(year) - 1}:{code}")]:
            r = subprocess.run([pith, "inject", str(MINIMAL), "--number", number, "-o", name],
                               capture_output=True, text=True, timeout=60)
            assert r.returncode == 0, r.stderr
        Path("none.pdf").write_bytes(MINIMAL.read_bytes())
        Path("encrypted.pdf").write_bytes(
            (FIXTURES / "encrypted" / "r4-aes128-user-password.pdf").read_bytes())
        env = dict(os.environ, PITH_RESOLVER_URL=url, PITH_CACHE_DIR=str(tmp_path / "cache"),
                   PITH_RESOLVER_SPACING_MS="0", PITH_ARXIV_URL="http://127.0.0.1:9")
        want = {"right.pdf": "unverified", "wrong.pdf": "mismatch", "none.pdf": "no_number",
                "encrypted.pdf": "error password"}
        for name, outcome in want.items():
            j = subprocess.run([pith, "verify", name, "--json"], capture_output=True, text=True,
                               env=env, timeout=60)
            cli = json.loads(j.stdout)
            cli_says = f"error {cli['kind']}" if "kind" in cli else cli["verdict"]
            try:
                py = pn.verify_pdf(name, resolver_url=url, cache_dir=str(tmp_path / "pycache"))
                py_says = py["verdict"]
            except pn.PithError as e:
                py_says = f"error {e.kind}"
            req = urllib.request.Request(
                f"{url}/verify?file={name}", data=Path(name).read_bytes(), method="POST",
                headers={"Accept": "application/json", "Content-Type": "application/pdf"})
            try:
                with urllib.request.urlopen(req, timeout=60) as resp:
                    web = json.loads(resp.read().decode())
            except urllib.error.HTTPError as e:
                web = json.loads(e.read().decode())
            web_says = f"error {web['kind']}" if "kind" in web else web["verdict"]
            assert cli_says == py_says == web_says == outcome, (name, cli, web)
    finally:
        proc.kill()
        proc.wait()
