"""An import file of any format, or a link, read as card records: the one way in for `pnp import`.

The file's suffix (or `--format`) picks the reader: CSV and JSON (formats.records),
XLSX (formats.card_xlsx) or an http(s) CSV link (formats.link); each bounds sizes and
rows before work starts.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path

from pnpforge.errors import PnpError
from pnpforge.formats import card_xlsx, link, records


def read_cards(
    path: Path, fmt: str | None = None, encoding: str | None = None, allow_private: bool = False
) -> Iterator[records.Record]:
    """The records of an import file, one at a time (a CSV is never held whole in memory);
    `allow_private` lets a link reach loopback and private addresses (formats.download)."""
    url = link.as_url(path)
    if url:
        return link.read_records(url, fmt, encoding, allow_private)
    path = Path(path)
    fmt = records.detect_format(path, fmt)
    if fmt == "xlsx":
        return card_xlsx.read_records(path)
    size = records.regular_file_size(path)
    limit = records.MAX_IMPORT_BYTES if fmt == "csv" else records.MAX_JSON_BYTES
    if size > limit:
        raise PnpError(
            f"{path} is {size // 2**20} MB, more than the {limit // 2**20} MB an import takes; "
            f"split it into several files"
        )
    if fmt == "json":
        return iter(records.read_json(records.decode(records.read_bytes(path), path, encoding), path))
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise PnpError(f"unknown encoding '{encoding}' (try: utf-8, {records.ENCODINGS_HINT})") from None
    return records.read_csv_file(path, encoding)
