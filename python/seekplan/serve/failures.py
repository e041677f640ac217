"""What went wrong with a file, as the service records it: a backend call's
failure (its retry rule's kind and its text) and the failed files the status
page lists. Error texts from a backend are stored readable: a NUL byte
(PostgreSQL's text refuses it, and the file stayed SUBMITTED) and lone
surrogates are escaped, and a text is cut at :data:`ERROR_TEXT_MAX`
characters."""

from __future__ import annotations

from dataclasses import dataclass

from seekplan.serve.backend import BackendError

#: Longest error text stored for a file: a request's status document lists
#: every file's error, and a backend that put a whole log (megabytes) in its
#: exception made a 10,000-file request's document gigabytes long; 2,000
#: characters hold an OS error with its path or a traceback's last lines.
ERROR_TEXT_MAX = 2_000


@dataclass(frozen=True)
class Failure:
    """Why a backend call failed: the retry rule's kind and the error text."""

    kind: str
    error: str


def storable_text(text: str) -> str:
    """``text`` as every database stores it: NUL bytes and lone surrogates
    escaped (backslashed), cut at :data:`ERROR_TEXT_MAX` characters."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")
    if len(text) <= ERROR_TEXT_MAX:
        return text
    return f"{text[:ERROR_TEXT_MAX]}... ({len(text) - ERROR_TEXT_MAX:,} characters cut)"


def failure_of(e: Exception) -> Failure:
    """The failure an exception of a backend call stands for: its own kind
    for a BackendError, ``other`` (with the exception's type) for anything
    else; its text as the database can store it."""
    if isinstance(e, BackendError):
        return Failure(e.kind, storable_text(str(e) or type(e).__name__))
    return Failure("other", storable_text(f"{type(e).__name__}: {e}"))


@dataclass(frozen=True)
class FailedFile:
    """A file that ended FAILED, for the status page."""

    path: str
    tape: str
    error: str
    at: float
