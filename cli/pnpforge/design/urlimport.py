"""Cards from an http(s) CSV link, such as a published Google Sheet (`…/pub?output=csv`).

The link is downloaded whole (with a size limit and a timeout), decoded like
a CSV file (UTF-8 with or without BOM, or `--encoding`) and read by the same
CSV reader, so a link goes through exactly the validation, `--dry-run` diff
and all-or-nothing write of a file.  Network trouble is one clear line: the
host, what happened, and what to try.
"""

from __future__ import annotations

import io
import os
import re
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from pnpforge import cardio
from pnpforge.errors import PnpError

MAX_URL_BYTES = cardio.MAX_JSON_BYTES  # held in memory whole, like a JSON import
_URL_RE = re.compile(r"(https?):/+(.*)", re.IGNORECASE)


def timeout_seconds() -> float:
    """Seconds to wait for the server ($PNP_URL_TIMEOUT, default 30)."""
    try:
        return max(0.1, float(os.environ.get("PNP_URL_TIMEOUT", "30")))
    except ValueError:
        return 30.0


def as_url(path: Any) -> str | None:
    """The http(s) URL `path` names, or None for a file.

    A URL that went through `pathlib.Path` lost one slash of `//`; it is put back.
    """
    match = _URL_RE.fullmatch(str(path))
    if match is None:
        return None
    return f"{match.group(1).lower()}://{match.group(2)}"


def fetch(url: str, timeout: float | None = None) -> bytes:
    """The body of `url`; PnpError with the reason on an HTTP error, a timeout or no network."""
    wait = timeout if timeout is not None else timeout_seconds()
    request = urllib.request.Request(url, headers={"User-Agent": "pnpforge", "Accept": "text/csv, */*"})
    try:
        with urllib.request.urlopen(request, timeout=wait) as response:  # noqa: S310 (http(s) only)
            body = response.read(MAX_URL_BYTES + 1)
    except urllib.error.HTTPError as exc:
        hint = " (is the sheet published to the web as CSV?)" if exc.code in (401, 403, 404) else ""
        raise PnpError(
            f"{url}: the server answered {exc.code} {exc.reason}{hint}; nothing was imported"
        ) from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, socket.timeout | TimeoutError):
            raise PnpError(
                f"{url}: no answer within {wait:g} s (timed out); check the link and the "
                f"network, or raise PNP_URL_TIMEOUT; nothing was imported"
            ) from None
        raise PnpError(
            f"{url}: cannot connect ({reason}); check the link and the network; nothing was imported"
        ) from None
    except TimeoutError:
        raise PnpError(
            f"{url}: the download stopped for {wait:g} s (timed out); nothing was imported"
        ) from None
    except (OSError, ValueError) as exc:
        raise PnpError(f"{url}: download failed ({exc}); nothing was imported") from None
    if len(body) > MAX_URL_BYTES:
        raise PnpError(f"{url}: more than {MAX_URL_BYTES // 2**20} MB; download it and import the file")
    return body


def _looks_like_html(text: str) -> bool:
    head = text.lstrip()[:200].lower()
    return head.startswith("<!doctype html") or head.startswith("<html")


def read_records(url: str, fmt: str | None = None, encoding: str | None = None) -> Iterator[cardio.Record]:
    """The records of the CSV at `url` (a link is CSV: JSON and XLSX are imported from files)."""
    if fmt not in (None, "csv"):
        raise PnpError(f"{url}: a link is read as CSV; download a {fmt} file and import that")
    # The reader names its source in messages only: the URL itself, not a Path (which drops a '/').
    label = cast(Path, url)
    text = cardio.decode(fetch(url), label, encoding)
    if _looks_like_html(text):
        raise PnpError(
            f"{url} returned a web page, not CSV; publish the sheet as CSV "
            f"(Google Sheets: File → Share → Publish to web → CSV) and use that link"
        )
    return cardio._read_csv(io.StringIO(text, newline=""), label)
