"""The network functions against an HTTP server on 127.0.0.1 started by each test (never the
internet): numbers from arXiv ids equal the published vectors, the next version's number equals
the one Python computes from the SPEC, errors carry the library's kinds, the cache answers
offline, PDFs verify against the resolver's records, and the GIL is released while waiting.

The spacing between requests is lowered through ``PITH_ARXIV_SPACING_MS`` (its one option,
honoured for local servers only); the 3-second default is tested by the Rust suite
(tests/net.rs).
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

import pith_number
from pith_number import NetworkError

from conftest import FIXTURES, VECTORS

GETRECORD = VECTORS / "net" / "getrecord"

Route = Callable[[str], Tuple[int, bytes, float]]


class Server:
    """A threaded HTTP server on 127.0.0.1 answering ``route(path) -> (status, body, delay)``
    and recording each request's path and headers."""

    def __init__(self, route: Route) -> None:
        self.requests: List[Tuple[str, Dict[str, str]]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                outer.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                status, body, delay = route(self.path)
                time.sleep(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def arxiv_route(delay: float = 0.0) -> Route:
    def route(path: str) -> Tuple[int, bytes, float]:
        ident = path.split("identifier=oai:arXiv.org:")[1].split("&")[0]
        f = GETRECORD / (ident.replace("/", "_") + ".xml")
        if f.exists():
            return 200, f.read_bytes(), delay
        return 200, (GETRECORD / "error-idDoesNotExist.xml").read_bytes(), delay

    return route


def vectors() -> List[dict]:
    return [v for v in json.loads((VECTORS / "records.json").read_text()) if "variant_of" not in v]


def published(arxiv_id: str) -> dict:
    return next(v for v in vectors() if v["canonical_record"]["source"]["id"] == arxiv_id)


def spec_number(record: dict) -> str:
    """The number as the SPEC defines it, computed here in Python (not by pith)."""
    b = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    code = base64.b32encode(hashlib.sha256(b).digest()).decode()[:26]
    return "pith:%s:%s" % (record["metadata"]["submitted_at"][:4], code)


@pytest.fixture
def net(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A cache directory and fast spacing; no proxy variables."""
    for k in ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"]:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("PITH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITH_ARXIV_SPACING_MS", "20")
    monkeypatch.setenv("PITH_RESOLVER_SPACING_MS", "0")
    servers: List[Server] = []

    def start(route: Route) -> Server:
        s = Server(route)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()


def test_numbers_of_arxiv_ids_are_the_published_ones(net) -> None:
    s = net(arxiv_route())
    ids = [v["canonical_record"]["source"]["id"] for v in vectors()]
    ids = [i for i in ids if (GETRECORD / f"{i}.xml").exists()]
    assert len(ids) >= 8
    for i in ids:
        got = pith_number.number_from_arxiv(f"arXiv:{i}", arxiv_url=s.url)
        assert got["pith_number"] == published(i)["pith_number"], i
        assert got["record"] == published(i)["canonical_record"]
        assert got["cached"] is False
    path, headers = s.requests[0]
    assert path.startswith("/oai2?verb=GetRecord&identifier=oai:arXiv.org:")
    assert path.endswith("&metadataPrefix=arXivRaw")
    assert headers["user-agent"] == f"pith-number/{pith_number.__version__} (+https://pith.science)"
    # The cache answers, also offline and with the server gone.
    s.close()
    again = pith_number.number_from_arxiv("2402.03791v3", offline=True)
    assert again["pith_number"] == published("2402.03791")["pith_number"]
    assert again["cached"] is True and again["latest_version"] == 3


def test_next_and_older_versions(net) -> None:
    s = net(arxiv_route())
    rec = published("2402.03791")["canonical_record"]
    nxt = pith_number.number_from_arxiv("2402.03791", next=True, arxiv_url=s.url)
    want = json.loads(json.dumps(rec))
    want["source"]["version"] = 4
    assert nxt["pith_number"] == spec_number(want)
    assert nxt["arxiv_id"] == "2402.03791v4"
    with pytest.raises(NetworkError) as e:
        pith_number.number_from_arxiv("2402.03791v2", arxiv_url=s.url)
    assert e.value.kind == "older_version"
    assert "v2" in str(e.value) and "v3" in str(e.value)
    older = pith_number.number_from_arxiv(
        "2402.03791v2", title="T", abstract_text="A", arxiv_url=s.url
    )
    assert older["record"]["source"]["version"] == 2
    assert older["record"]["metadata"]["title_canon_sha256"] == hashlib.sha256(b"t").hexdigest()


def test_errors_carry_kinds(net) -> None:
    s = net(arxiv_route())
    cases = [
        ("2401.99999", "id_does_not_exist"),
        ("0704.0002x", "bad_id"),
        ("https://example.org/abs/2402.03791", "bad_id"),
    ]
    for arxiv_id, kind in cases:
        with pytest.raises(NetworkError) as e:
            pith_number.number_from_arxiv(arxiv_id, arxiv_url=s.url)
        assert e.value.kind == kind, (arxiv_id, str(e.value))
    with pytest.raises(NetworkError) as e:
        pith_number.number_from_arxiv("2412.14374", offline=True)
    assert e.value.kind == "not_cached"
    slow = net(arxiv_route(delay=2.0))
    with pytest.raises(NetworkError) as e:
        pith_number.number_from_arxiv("2412.14374", arxiv_url=slow.url, timeout=0.3)
    assert e.value.kind == "timeout"


def test_the_gil_is_released_while_waiting(net) -> None:
    s = net(arxiv_route(delay=0.8))
    ticks = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    try:
        pith_number.number_from_arxiv("2402.03791", arxiv_url=s.url)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 20, len(ticks)


def test_verify_pdf_against_the_resolver(net, tmp_path: Path) -> None:
    seed = published("2402.03791")
    code = seed["pith_number"].rsplit(":", 1)[1]
    wrapped = json.dumps(
        {k: seed[k] for k in ["pith_number", "canonical_sha256", "canonical_record"]}
    ).encode()

    def route(path: str) -> Tuple[int, bytes, float]:
        if path == f"/pith/{code}.json":
            return 200, wrapped, 0.0
        return 404, b"not found", 0.0

    s = net(route)
    pdf = tmp_path / "paper.pdf"
    pith_number.inject(FIXTURES / "minimal.pdf", seed["pith_number"], pdf)
    r = pith_number.verify_pdf(pdf, resolver_url=s.url)
    assert r["pith_number"] == seed["pith_number"]
    assert r["found_in"] == "XMP"
    assert (r["arxiv_id"], r["arxiv_version"]) == ("2402.03791", 3)
    assert r["holds"] is True and r["verdict"] == "unverified"  # no bundle at the resolver
    assert [p for p, _ in s.requests] == [f"/pith/{code}.json", f"/pith/{code}/bundle.json"]
    # Offline, from the cache; and from a record given.
    assert pith_number.verify_pdf(pdf, offline=True)["holds"] is True
    r = pith_number.verify_pdf(pdf, record=seed["canonical_record"])
    assert r["verdict"] == "verified"
    other = published("2412.14374")["canonical_record"]
    assert pith_number.verify_pdf(pdf, record=other)["verdict"] == "mismatch"
    # A number the resolver does not know is unknown: not a pass, and not a mismatch.
    unknown = tmp_path / "unknown.pdf"
    pith_number.inject(FIXTURES / "minimal.pdf", "pith:2024:" + "A" * 26, unknown)
    r = pith_number.verify_pdf(unknown, resolver_url=s.url)
    assert r["verdict"] == "unknown" and r["headline"].startswith("UNKNOWN: ")
    # A PDF without a number is a report too (the CLI exits 1 for it).
    none = pith_number.verify_pdf(FIXTURES / "minimal.pdf", resolver_url=s.url)
    assert none["verdict"] == "no_number" and none["holds"] is False
    assert none["pith_number"] is None
