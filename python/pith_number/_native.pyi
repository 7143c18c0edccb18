"""Type stubs of the Rust extension module pith_number._native (see pith_number for docs)."""

from typing import Any, BinaryIO, Callable, Dict, List, Literal, Optional, Sequence, Tuple, Union

from .types import (
    BatchItemReport,
    BatchReport,
    Check,
    InjectReport,
    Inspection,
    StripReport,
    NumberDetails,
    ParsedNumber,
    PathLike,
    RecordLike,
    VerifyReport,
)

__all__ = [
    "__version__",
    "SCHEMA_VERSION",
    "REGISTRY_KEY_ID",
    "REGISTRY_KEY_B64",
    "URL_BASE",
    "canonical_bytes",
    "canonical_record",
    "number",
    "number_details",
    "records_from_atom",
    "record_from_fields",
    "record_from_arxiv_line",
    "parse_number",
    "canon_text",
    "canon_sha256",
    "verify_record",
    "verify_text",
    "verify_bundle",
    "verify_signature",
    "badge_svg",
    "badge_snippet",
    "sty",
    "sty_ltxml",
    "inspect",
    "inject",
    "process_tar",
    "write_tar_manifest",
    "tar_shard_key",
    "number_from_arxiv",
    "verify_pdf",
    "error_table",
    "inject_bytes",
    "strip",
    "batch_item",
    "batch",
]

__version__: str
SCHEMA_VERSION: str
REGISTRY_KEY_ID: str
REGISTRY_KEY_B64: str
URL_BASE: str

def canonical_bytes(record: RecordLike) -> bytes:
    """The canonical JSON bytes of a record (what is hashed)."""

def canonical_record(record: RecordLike) -> dict:
    """The validated canonical record as a new dict."""

def number(record: RecordLike) -> str:
    """The full Pith Number of a canonical record."""

def number_details(record: RecordLike) -> NumberDetails:
    """The number of a record with its other forms."""

def records_from_atom(xml: str) -> List[dict]:
    """The canonical records of every entry of an arXiv Atom document."""

def record_from_fields(
    *,
    id: str,
    title: str,
    abstract_text: str,
    submitted: str,
    primary: str,
    version: Optional[int] = None,
    cross: Sequence[str] = ...,
    license: Optional[str] = None,
) -> dict:
    """The canonical record built from a paper's fields."""

def record_from_arxiv_line(line: Union[str, bytes]) -> dict:
    """The canonical record of one line of arXiv's bulk metadata snapshot."""

def parse_number(text: str) -> ParsedNumber:
    """Parses a Pith Number in any published form."""

def canon_text(text: str) -> str:
    """A title or abstract canonicalised as the record hashes it."""

def canon_sha256(text: str) -> str:
    """The hex SHA-256 of canon_text(text)."""

def verify_record(
    record: RecordLike,
    number: Optional[str] = None,
    *,
    title: Optional[str] = None,
    abstract_text: Optional[str] = None,
    signature: Optional[str] = None,
    keys: Optional[Sequence[str]] = None,
) -> VerifyReport:
    """Verifies a record against a number, texts and a signature."""

def verify_text(
    record: RecordLike, text: str, field: Optional[Literal["title", "abstract"]] = None
) -> Check:
    """Checks one text against the record's canonical-text hash."""

def verify_bundle(bundle: RecordLike, keys: Optional[Sequence[str]] = None) -> VerifyReport:
    """Verifies a pith_open_graph_bundle and its receipt signatures."""

def verify_signature(sha256: str, signature: str, key: Optional[str] = None) -> Check:
    """Checks one receipt signature over a canonical hash."""

def badge_svg(
    number: str,
    *,
    full: bool = False,
    status: Optional[Literal["computed"]] = None,
    style: Optional[Literal["flat", "flat-square"]] = None,
    label: Optional[str] = None,
    qr: Optional[int] = None,
) -> str:
    """The SVG badge of a number."""

def badge_snippet(
    number: str,
    format: Literal["md", "html", "rst", "adoc", "tex"],
    *,
    src: Optional[str] = None,
    dark_src: Optional[str] = None,
    full: bool = False,
    status: Optional[Literal["computed"]] = None,
    style: Optional[Literal["flat", "flat-square"]] = None,
    label: Optional[str] = None,
    qr: Optional[int] = None,
) -> str:
    """The snippet that embeds a badge in md/html/rst/adoc/tex."""

def sty(version: Optional[str] = None, date: Optional[str] = None) -> str:
    """The text of pith.sty."""

def sty_ltxml(version: Optional[str] = None, date: Optional[str] = None) -> str:
    """The text of pith.sty.ltxml."""

def inspect(
    source: Union[PathLike, bytes],
    *,
    deep: bool = False,
    password: Union[str, bytes, None] = None,
    number: Optional[str] = None,
) -> Inspection:
    """Reads what a PDF says about its Pith Number."""

def inject(
    path: PathLike,
    number: Optional[str] = None,
    output: Optional[PathLike] = None,
    *,
    record: Union[Dict[str, Any], str, bytes, None] = None,
    arxiv_atom: Optional[PathLike] = None,
    arxiv_id: Optional[str] = None,
    in_place: bool = False,
    force: bool = False,
    now: Optional[str] = None,
    stamp: bool = False,
    stamp_form: Optional[Literal["short", "full"]] = None,
    stamp_position: Optional[Literal["left", "right", "top", "bottom"]] = None,
    stamp_size: Optional[float] = None,
    replace: bool = False,
    password: Union[str, bytes, None] = None,
    repair: bool = False,
    rewrite: bool = False,
    dry_run: bool = False,
    file_timeout: Optional[float] = None,
) -> InjectReport:
    """Writes a number into a PDF as an incremental update."""

def inject_bytes(
    data: bytes,
    number: str,
    *,
    force: bool = False,
    now: Optional[str] = None,
    stamp: bool = False,
    stamp_form: Optional[Literal["short", "full"]] = None,
    stamp_position: Optional[Literal["left", "right", "top", "bottom"]] = None,
    stamp_size: Optional[float] = None,
    replace: bool = False,
    password: Union[str, bytes, None] = None,
    repair: bool = False,
    file_timeout: Optional[float] = None,
) -> Tuple[bytes, InjectReport]:
    """Writes a number into a PDF held in memory; returns the updated PDF and the report."""

def strip(
    source: Union[PathLike, bytes],
    output: Optional[PathLike] = None,
    *,
    in_place: bool = False,
    force: bool = False,
    password: Union[str, bytes, None] = None,
    repair: bool = False,
    file_timeout: Optional[float] = None,
) -> Union[StripReport, Tuple[bytes, StripReport]]:
    """Takes the number, its link and the stamp out of a PDF (bytes in: (bytes, report) out)."""

def batch_item(
    pdf: PathLike,
    number: str,
    *,
    out: Optional[PathLike] = None,
    out_dir: Optional[PathLike] = None,
    relative: Optional[PathLike] = None,
    check: bool = False,
    dry_run: bool = False,
    mirror: bool = False,
    force: bool = False,
    repair: bool = False,
    now: Optional[str] = None,
    stamp: bool = False,
    stamp_form: Optional[Literal["short", "full"]] = None,
    stamp_position: Optional[Literal["left", "right", "top", "bottom"]] = None,
    stamp_size: Optional[float] = None,
    replace: bool = False,
    file_timeout: Optional[float] = None,
) -> BatchItemReport:
    """One item of a batch, as pith batch runs (or checks) it; returns its report line."""

def batch(
    dir: Optional[PathLike] = None,
    *,
    manifest: Optional[PathLike] = None,
    root: Optional[PathLike] = None,
    out_dir: Optional[PathLike] = None,
    in_place: bool = False,
    dry_run: bool = False,
    check: bool = False,
    mirror: bool = False,
    shard: Optional[str] = None,
    jobs: Optional[int] = None,
    metadata: Union[PathLike, Sequence[PathLike], None] = None,
    any_version: bool = False,
    unmatched: Optional[PathLike] = None,
    force: bool = False,
    repair: bool = False,
    now: Optional[str] = None,
    stamp: bool = False,
    stamp_form: Optional[Literal["short", "full"]] = None,
    stamp_position: Optional[Literal["left", "right", "top", "bottom"]] = None,
    stamp_size: Optional[float] = None,
    replace: bool = False,
    file_timeout: Optional[float] = None,
    progress: Optional[Callable[[BatchItemReport], Optional[bool]]] = None,
    refs: Optional[PathLike] = None,
) -> BatchReport:
    """A directory or manifest of PDFs, as pith batch --dir/--manifest runs it; returns its report
    (lines and summary). progress gets each line; returning False stops the run. refs gets
    every PDF's references, as pith refs writes them."""

def process_tar(
    src: Union[PathLike, BinaryIO],
    dst: Union[PathLike, BinaryIO],
    *,
    metadata: Union[PathLike, Sequence[PathLike]],
    any_version: bool = False,
    manifest: Optional[PathLike] = None,
    any_tar: bool = False,
    name: Optional[str] = None,
    stamp: bool = False,
    stamp_form: Optional[Literal["short", "full"]] = None,
    stamp_position: Optional[Literal["left", "right", "top", "bottom"]] = None,
    stamp_size: Optional[float] = None,
    replace: bool = False,
    repair: bool = False,
    force: bool = False,
    jobs: Optional[int] = None,
    now: Optional[str] = None,
    report: Optional[PathLike] = None,
    spool_dir: Optional[PathLike] = None,
    file_timeout: Optional[float] = None,
    progress: Optional[Callable[[Dict[str, Any]], Optional[bool]]] = None,
    refs: Optional[PathLike] = None,
) -> Dict[str, Any]:
    """Streams a tar of PDFs, updating each PDF member named by arXiv id (pith batch --tar);
    refs gets each PDF member's references, as pith refs writes them."""

def write_tar_manifest(manifest: PathLike, out_dir: PathLike) -> str:
    """Writes out_dir/arXiv_pdf_manifest.xml for the tars done in out_dir."""

def tar_shard_key(name: str) -> int:
    """The key assigning tar ``name`` to shard ``key % N`` (pith batch --tar-dir --shard K/N)."""

def number_from_arxiv(
    arxiv_id: str,
    *,
    next: bool = False,
    title: Optional[str] = None,
    abstract_text: Optional[str] = None,
    primary: Optional[str] = None,
    cross: Optional[List[str]] = None,
    license: Optional[str] = None,
    offline: bool = False,
    refresh: bool = False,
    arxiv_url: Optional[str] = None,
    cache_dir: Optional[PathLike] = None,
    timeout: Optional[float] = None,
) -> dict:
    """The number of a paper on arXiv (or of its next version), from arXiv's metadata."""

def verify_pdf(
    path: PathLike,
    *,
    record: Optional[Union[dict, str, bytes]] = None,
    bundle: Optional[Union[dict, str, bytes]] = None,
    keys: Optional[List[str]] = None,
    password: Optional[Union[str, bytes]] = None,
    offline: bool = False,
    refresh: bool = False,
    resolver_url: Optional[str] = None,
    cache_dir: Optional[PathLike] = None,
    timeout: Optional[float] = None,
    mirrors: Optional[str] = None,
    file_timeout: Optional[float] = None,
) -> dict:
    """Verifies the number a PDF carries against its record (the resolver's, or one given)."""

def error_table() -> Tuple[List[Tuple[str, List[str], str]], List[Tuple[str, str, str]]]:
    """The library's table of error classes ``(name, bases, doc)`` and kinds ``(name, class, doc)``."""
