"""Shapes of the dicts pith_number returns (``TypedDict``\\ s, for type checkers and readers).

The functions return plain dicts; these classes only describe their keys.
"""

from __future__ import annotations

import os
from typing import Any, List, Literal, Mapping, Optional, TypedDict, Union

__all__ = [
    "RecordLike",
    "PathLike",
    "NumberDetails",
    "ParsedNumber",
    "Check",
    "NewerVersion",
    "VerifyReport",
    "XmpValues",
    "InfoValues",
    "Inspection",
    "Written",
    "InjectReport",
    "StripReport",
    "BatchItemReport",
    "BatchSummary",
    "BatchReport",
]

RecordLike = Union[Mapping[str, Any], str, bytes]
"""A canonical record: a dict, or its JSON text."""

PathLike = Union[str, "os.PathLike[str]"]
"""A file system path."""


class NumberDetails(TypedDict):
    """What :func:`pith_number.number_details` returns."""

    arxiv_id: str
    canonical_sha256: str
    pith_number: str
    short_pith_number: str
    url: str


class ParsedNumber(TypedDict):
    """What :func:`pith_number.parse_number` returns."""

    form: Literal["full", "alias"]
    code: str
    year: Optional[int]
    full: Optional[str]
    short: str
    url: Optional[str]


class Check(TypedDict):
    """One verification step."""

    subject: str
    status: Literal["ok", "mismatch", "unverified"]
    detail: str


class NewerVersion(TypedDict):
    """A newer version of the paper than the record checked, as the resolver names it."""

    version: int
    pith_number: str
    url: str


class Mirror(TypedDict):
    """The mirror that answered, as the mirror manifest names it."""

    name: str
    base_url: str


class VerifyReport(TypedDict):
    """What the verify functions return (``pith verify --json``)."""

    file: Optional[str]
    pith_number: Optional[str]
    found_in: Optional[str]
    arxiv_id: Optional[str]
    arxiv_version: Optional[int]
    holds: bool
    verdict: Literal["verified", "mismatch", "unverified", "no_number", "unknown"]
    headline: str
    checks: List[Check]
    newer_version: Optional[NewerVersion]
    mirror: Optional[Mirror]


# Keys with a colon or a capital cannot be class attributes: these use the functional form.
XmpValues = TypedDict(
    "XmpValues",
    {
        "pith:number": Optional[str],
        "pith:shortNumber": Optional[str],
        "pith:url": Optional[str],
        "xmp:Identifier": List[str],
        "dc:relation": List[str],
        "pith_schema_declared": bool,
    },
)
"""Pith values read from a PDF's XMP packet."""

InfoValues = TypedDict("InfoValues", {"PithNumber": Optional[str], "PithURL": Optional[str]})
"""The Info entries pith writes, as read."""


class Place(TypedDict):
    """One place a number lives in a file (``Inspection["places"]``)."""

    place: Literal["info", "xmp", "link", "badge", "stamp", "text"]
    holds: str
    object: Optional[str]
    rewritable: bool
    agrees: bool


class Inspection(TypedDict):
    """What :func:`pith_number.inspect` returns (the keys of ``pith inspect --json``)."""

    file: str
    version: str
    xref: Literal["table", "stream"]
    sections: int
    encrypted: bool
    encryption: Optional[str]
    not_read: Optional[str]
    number: Optional[str]
    has_number: bool
    info: InfoValues
    xmp: Optional[XmpValues]
    xmp_error: Optional[str]
    pdfa: Optional[str]
    signatures: int
    docmdp: Optional[int]
    places: List[Place]
    consistent: Optional[bool]
    matches_expected: Optional[bool]
    uncommitted_bytes: Optional[int]


class Written(TypedDict):
    """One part of a file an update wrote."""

    item: Literal["rebuilt", "catalog", "xmp", "info", "stamp", "badge", "link", "update"]
    object: Optional[str]
    text: str




class InjectReport(TypedDict):
    """What :func:`pith_number.inject` returns (the keys of ``pith inject --json``)."""

    input: str
    output: str
    status: Literal[
        "injected", "rewritten", "unchanged", "planned", "stripped", "refused", "failed",
        "skipped", "unmatched", "matches", "differs", "missing",
    ]
    """What the job did (docs/reports.md)."""
    number: str
    url: str
    replaced: Optional[str]
    bytes_before: Optional[int]
    bytes_after: Optional[int]
    written: List[Written]
    replaced_xmp: Optional[str]
    notes: List[str]


class StripReport(TypedDict):
    """What :func:`pith_number.strip` returns (the keys of ``pith strip --json``)."""

    input: str
    output: str
    status: Literal[
        "injected", "rewritten", "unchanged", "planned", "stripped", "refused", "failed",
        "skipped", "unmatched", "matches", "differs", "missing",
    ]
    """What the job did (docs/reports.md)."""
    removed: Optional[str]
    bytes_before: Optional[int]
    bytes_after: Optional[int]
    written: List[Written]
    notes: List[str]


class BatchItemReport(TypedDict, total=False):
    """What :func:`pith_number.batch_item` returns: a ``pith batch`` report line."""

    pdf: str
    out: str
    status: Literal[
        "injected", "rewritten", "unchanged", "planned", "stripped", "refused", "failed",
        "skipped", "unmatched", "matches", "differs", "missing",
    ]
    """What the job did (docs/reports.md)."""
    reason: str
    refusal: str
    number: str
    replaced: str
    sha1: str
    """The input's SHA-1 in base32, as the Internet Archive writes digests (docs/captures.md)."""
    found: str
    copied: bool
    bytes_before: int
    bytes_after: int
    ms: int
    notes: List[str]


class BatchSummary(TypedDict, total=False):
    """The last line of a ``pith batch`` report: the counts of its lines' statuses."""

    summary: str
    total: int
    injected: int
    unchanged: int
    refused: int
    failed: int
    skipped: int
    unmatched: int
    planned: int
    replaced: int
    matches: int
    differs: int
    missing: int
    interrupted: bool
    """Stopped before every file was started (the others are ``skipped``)."""
    ms: int


class BatchReport(TypedDict):
    """What :func:`pith_number.batch` returns: the report ``pith batch --json`` prints."""

    lines: List[BatchItemReport]
    summary: BatchSummary
