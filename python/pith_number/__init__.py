"""Pith Numbers for scientific papers, from Python.

A Pith Number (``pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5``) is the first 26 base32 characters of
the SHA-256 of a paper's canonical metadata record, resolvable at
``https://pith.science/pith/<26 characters>``. This package binds the Rust library of the
``pith`` tool (crate ``pith-number``): numbers from records, arXiv Atom, arXiv bulk metadata lines or paper fields;
canonical bytes; verification of records, texts, bundles and signatures; injection into and
inspection of PDFs (the GIL is released while a PDF is read or written); badges and their
embedding snippets; the LaTeX package ``pith.sty``.

>>> import pith_number
>>> pith_number.parse_number("pith:2024:7bmk4zktputuy3jkwbannpofr5")["short"]
'pith:7BMK4ZKT'

Errors are raised as the hierarchy of :mod:`pith_number.errors` (base :class:`PithError`).
"""

from __future__ import annotations

from . import errors
from ._native import (
    RECORD_URL_BASE,
    REGISTRY_KEY_B64,
    REGISTRY_KEY_ID,
    SCHEMA_VERSION,
    __version__,
    badge_snippet,
    badge_svg,
    canon_sha256,
    canon_text,
    canonical_bytes,
    canonical_record,
    inject,
    inspect,
    number,
    number_details,
    number_from_arxiv,
    parse_number,
    process_tar,
    record_from_arxiv_line,
    record_from_fields,
    records_from_atom,
    sty,
    sty_ltxml,
    tar_shard_key,
    verify_bundle,
    verify_pdf,
    verify_record,
    verify_signature,
    verify_text,
    write_tar_manifest,
)
from .errors import (
    BadgeError,
    CertifiedPdfError,
    DamagedPdfError,
    EncryptedPdfError,
    NetworkError,
    NotPdfError,
    NumberError,
    PdfError,
    PdfIOError,
    PithError,
    RecordError,
    StyError,
    TarError,
    UnsupportedPdfError,
    VerifyError,
    XmpError,
)

__all__ = [
    "__version__",
    "RECORD_URL_BASE",
    "REGISTRY_KEY_B64",
    "REGISTRY_KEY_ID",
    "SCHEMA_VERSION",
    "badge_snippet",
    "badge_svg",
    "canon_sha256",
    "canon_text",
    "canonical_bytes",
    "canonical_record",
    "errors",
    "inject",
    "inspect",
    "number",
    "number_details",
    "number_from_arxiv",
    "parse_number",
    "process_tar",
    "record_from_arxiv_line",
    "record_from_fields",
    "records_from_atom",
    "sty",
    "sty_ltxml",
    "tar_shard_key",
    "verify_bundle",
    "verify_pdf",
    "verify_record",
    "verify_signature",
    "verify_text",
    "write_tar_manifest",
    "BadgeError",
    "CertifiedPdfError",
    "DamagedPdfError",
    "EncryptedPdfError",
    "NetworkError",
    "NotPdfError",
    "NumberError",
    "PdfError",
    "PdfIOError",
    "PithError",
    "RecordError",
    "StyError",
    "TarError",
    "UnsupportedPdfError",
    "VerifyError",
    "XmpError",
]
