"""Exceptions raised by :mod:`pith_number`.

Every exception derives from :class:`PithError`. The class is chosen from the Rust library's
error kind, never from message text, and every instance carries:

* ``kind`` -- a stable snake_case name of that error kind (e.g. ``"wrong_length"``,
  ``"damaged"``, ``"bad_key"``);
* ``path`` -- the file concerned, for PDF errors (else None);
* ``offset`` -- the byte offset in the file where the problem was found, when known;
* ``field`` -- the record field or option concerned, when known.

Hierarchy::

    PithError
     +-- NumberError (also ValueError)      a Pith Number that does not parse
     +-- RecordError (also ValueError)      a record, paper fields or Atom feed that is invalid
     +-- VerifyError (also ValueError)      a key, hash or bundle that cannot be decoded
     +-- BadgeError (also ValueError)       badge or snippet options refused
     +-- StyError (also ValueError)         pith.sty options refused
     +-- PdfError                           a PDF that cannot be read or updated
          +-- PdfIOError (also OSError)     the file cannot be opened, read or written
          +-- NotPdfError                   no %PDF- header
          +-- DamagedPdfError               broken xref chain (would need reconstruction)
          +-- EncryptedPdfError             encrypted file, not updated
          +-- CertifiedPdfError             certification signature forbids changes
          +-- XmpError                      existing XMP packet unusable
          +-- UnsupportedPdfError           needs a feature pith does not write
     +-- NetworkError                       arXiv or the resolver could not give an answer

A verification mismatch is not an exception: the verify functions return a report.
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "PithError",
    "NumberError",
    "RecordError",
    "VerifyError",
    "BadgeError",
    "StyError",
    "PdfError",
    "PdfIOError",
    "NotPdfError",
    "DamagedPdfError",
    "EncryptedPdfError",
    "CertifiedPdfError",
    "XmpError",
    "UnsupportedPdfError",
    "TarError",
    "NetworkError",
]


class PithError(Exception):
    """Base class of every error raised by pith_number."""

    kind: str
    """Stable snake_case name of the library's error kind."""
    path: Optional[str]
    """The file concerned (PDF errors), else None."""
    offset: Optional[int]
    """Byte offset in the file where the problem was found, when known."""
    field: Optional[str]
    """The record field or option concerned, when known."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.kind = "invalid"
        self.path = None
        self.offset = None
        self.field = None


class NumberError(PithError, ValueError):
    """A Pith Number (or short alias) that does not parse; the message says what was expected.

    Kinds: ``wrong_length``, ``bad_character``, ``bad_year``, ``bad_form``.
    """


class RecordError(PithError, ValueError):
    """An invalid canonical record, paper fields or arXiv Atom document.

    Kinds: ``json`` (not JSON, or the wrong shape: missing/unknown fields, wrong types),
    ``field`` (a value the SPEC does not allow; ``field`` names it), ``atom`` (malformed
    Atom XML or an entry lacking a required element).
    """


class VerifyError(PithError, ValueError):
    """Verification input that cannot even be decoded (not a mismatch).

    Kinds: ``bad_key`` (not a 32-byte Ed25519 public key in base64/hex), ``bad_bundle`` (not a
    JSON object with a readable ``canonical_record``), ``bad_hash`` (not 64 hex digits).
    """


class BadgeError(PithError, ValueError):
    """Badge or snippet options the library refuses (label, style, status, format, QR size,
    image source)."""


class StyError(PithError, ValueError):
    """Options ``pith.sty`` cannot be rendered with (kinds ``invalid_date``,
    ``invalid_version``)."""


class PdfError(PithError):
    """A PDF that cannot be read or updated; ``path`` names it. The input is never modified
    when this is raised. Raised as this class itself with kinds ``signed`` (a stamp would
    change signed content; ``force=True``), ``no_stamp_room`` (no margin of page 1 has room
    for the stamp: inject without ``stamp``), ``too_large`` (a stream would decode past its
    documented bound), ``pages_lost`` (a rewrite would lose pages) and ``other``; as the
    subclasses below for the other kinds."""


class PdfIOError(PdfError, OSError):
    """The file cannot be opened, read or written (kind ``io``), or is not a regular file
    (kind ``not_file``)."""


class NotPdfError(PdfError):
    """The file has no ``%PDF-`` header in its first 1024 bytes (kind ``not_pdf``)."""


class DamagedPdfError(PdfError):
    """The xref chain or a needed object is broken, so a reader would have to reconstruct
    the cross-reference table; appending to it would lose objects (kind ``damaged``)."""


class EncryptedPdfError(PdfError):
    """The file is encrypted; pith does not update encrypted files (kind ``encrypted``)."""


class CertifiedPdfError(PdfError):
    """A certification signature (DocMDP ``/P 1``) forbids any change; ``force=True``
    updates anyway, invalidating the certification (kind ``certified``)."""


class XmpError(PdfError):
    """The existing XMP packet cannot be parsed; ``force=True`` replaces it (kind ``xmp``)."""


class UnsupportedPdfError(PdfError):
    """The file needs a feature pith does not write (kind ``unsupported``)."""


class TarError(PithError):
    """A tar that cannot be streamed, or does not match its manifest entry; ``path`` names it.
    Kinds ``header`` (not a tar, or a damaged header), ``truncated``, ``io``, ``metadata``
    (the arXiv metadata cannot be read), ``mismatch`` (md5 or size differ from the manifest:
    no output file is written), ``unlisted`` (not in the manifest), ``same_file``,
    ``manifest`` (the manifest itself cannot be read)."""


class NetworkError(PithError):
    """arXiv or the resolver could not give the answer asked for, or it was refused.

    Kinds: ``bad_id`` (not an arXiv id), ``id_does_not_exist``, ``deleted``,
    ``older_version`` (an older version needs its title and abstract), ``no_such_version``,
    ``not_latest``, ``not_cached`` (offline, and the answer is not in the cache),
    ``connect``, ``timeout``, ``read``, ``status`` (an HTTP error after the retries),
    ``bad_answer`` (malformed XML or JSON), ``not_found``, ``no_number`` (the PDF carries
    none), ``pdf``, ``record``, ``cache``, ``no_cache_dir``, ``setting``.
    """
