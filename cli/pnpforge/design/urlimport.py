"""Cards from an http(s) CSV link, such as a published Google Sheet (`…/pub?output=csv`).

The link is downloaded whole through the guarded download (formats.download:
a whole-download deadline, a complete body, http(s) only, public addresses
unless allowed), decoded like
a CSV file (UTF-8 with or without BOM, or `--encoding`) and read by the same
CSV reader, so a link goes through exactly the validation, `--dry-run` diff
and all-or-nothing write of a file.  Network trouble is one clear line: the
host, what happened, and what to try.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from pnpforge import cardio
from pnpforge.errors import PnpError

MAX_URL_BYTES = cardio.MAX_JSON_BYTES  # held in memory whole, like a JSON import
_URL_RE = re.compile(r"(https?):/+(.*)", re.IGNORECASE)


def as_url(path: Any) -> str | None:
    """The http(s) URL `path` names, or None for a file.

    A URL that went through `pathlib.Path` lost one slash of `//`; it is put back.
    """
    match = _URL_RE.fullmatch(str(path))
    if match is None:
        return None
    return f"{match.group(1).lower()}://{match.group(2)}"


def fetch(url: str, timeout: float | None = None, allow_private: bool = False) -> bytes:
    """The whole body of `url` through the one guarded download (formats.download)."""
    from pnpforge.formats import download

    answer = download.fetch(
        url, allow_private=allow_private, timeout=timeout, accept="text/csv, */*", limit=MAX_URL_BYTES
    )
    return answer.body


def _looks_like_html(text: str) -> bool:
    head = text.lstrip()[:200].lower()
    return head.startswith("<!doctype html") or head.startswith("<html")


def read_records(
    url: str, fmt: str | None = None, encoding: str | None = None, allow_private: bool = False
) -> Iterator[cardio.Record]:
    """The records of the CSV at `url` (a link is CSV: JSON and XLSX are imported from files)."""
    from pnpforge.formats.download import redact

    shown = redact(url)  # messages name the link without a password it may carry
    if fmt not in (None, "csv"):
        raise PnpError(f"{shown}: a link is read as CSV; download a {fmt} file and import that")
    # The reader names its source in messages only: the URL itself, not a Path (which drops a '/').
    label = cast(Path, shown)
    text = cardio.decode(fetch(url, allow_private=allow_private), label, encoding)
    if _looks_like_html(text):
        raise PnpError(
            f"{shown} returned a web page, not CSV; publish the sheet as CSV "
            f"(Google Sheets: File → Share → Publish to web → CSV) and use that link"
        )
    return cardio._read_csv(io.StringIO(text, newline=""), label)
