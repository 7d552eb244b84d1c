"""Cards to and from CSV and JSON files, the formats of `pnp import` / `pnp export`.

Export then import then export is byte-identical: columns and key order are
fixed, lists are joined with '|' in CSV, and no timestamps are written.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import json
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.model import Card, CardType

ATTR_COLUMNS = [
    "id",
    "type",
    "name",
    "name_en",
    "copies",
    "provenance",
    "source",
    "provisional_fields",
    "text",
    "flavor",
    "art",
    "notes",
]
FORMATS = ("csv", "json", "xlsx")  # xlsx: pnpforge.design.sheets
ENCODINGS_HINT = "big5, cp950, gbk, gb18030"


@dataclass
class Record:
    """One row of an import file, with where it came from for error messages."""

    values: dict[str, Any]
    where: str  # "line 7" (CSV) or "record 3" (JSON)
    field_columns: set[str] = field(default_factory=set)
    replace_fields: bool = False

    def is_field_column(self, key: str) -> bool:
        return key in self.field_columns

    def column_name(self, key: str) -> str:
        return f"column '{key}'"

    def where_field(self, name: str | None) -> str:
        return f"{self.where}, column '{name}'" if name else self.where


def detect_format(path: Path, fmt: str | None) -> str:
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        raise PnpError(
            f"{path}: unknown format '{fmt}' (allowed: {', '.join(FORMATS)}); "
            f"name the file .csv, .json or .xlsx or pass --format"
        )
    return fmt


def decode(data: bytes, path: Path, encoding: str | None) -> str:
    """UTF-8 (with or without BOM), or the encoding the user names; never mojibake."""
    if encoding:
        try:
            return data.decode(encoding)
        except LookupError:
            raise PnpError(f"unknown encoding '{encoding}' (try: utf-8, {ENCODINGS_HINT})") from None
        except UnicodeDecodeError as exc:
            raise PnpError(f"{path} is not valid {encoding} at byte {exc.start}") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PnpError(
            f"{path} is not UTF-8 (byte {exc.start}); if Excel saved it in Taiwan or "
            f"China, pass --encoding ({ENCODINGS_HINT})"
        ) from None


MAX_IMPORT_BYTES = 256 * 1024 * 1024  # a CSV of 256 MB is about a million cards
MAX_JSON_BYTES = 64 * 1024 * 1024  # JSON is parsed whole: its limit is tighter
MAX_ROWS = 500_000
MAX_CELL_CHARS = 100_000
# Cells a spreadsheet reads as a formula: exported with a leading apostrophe
# (which import removes again), so opening an export never runs one.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def csv_escape(cell: str) -> str:
    """`cell` made safe to open in a spreadsheet; `csv_unescape` gives it back exactly.

    A cell starting with = + - @ tab or CR (other than a plain number such as -3)
    gets a leading apostrophe; so does a cell that already starts with an
    apostrophe followed by one of those or another apostrophe, which keeps the
    mapping one-to-one.
    """
    if not cell:
        return cell
    head = cell[0]
    if head in FORMULA_STARTS and not _PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    if head == "'" and len(cell) > 1 and (cell[1] in FORMULA_STARTS or cell[1] == "'"):
        return "'" + cell
    return cell


def csv_unescape(cell: str) -> str:
    """The value `csv_escape` turned into `cell`."""
    if len(cell) > 1 and cell[0] == "'" and (cell[1] in FORMULA_STARTS or cell[1] == "'"):
        return cell[1:]
    return cell


def read_records(
    path: Path, fmt: str | None = None, encoding: str | None = None, allow_private: bool = False
) -> Iterator[Record]:
    """The records of an import file, one at a time (a CSV is never held whole in memory);
    `allow_private` lets a link reach loopback and private addresses (formats.download)."""
    from pnpforge.design import sheets, urlimport

    url = urlimport.as_url(path)
    if url:
        return urlimport.read_records(url, fmt, encoding, allow_private)
    path = Path(path)
    fmt = detect_format(path, fmt)
    if fmt == "xlsx":
        return sheets.read_records(path)
    size = _regular_file_size(path)
    limit = MAX_IMPORT_BYTES if fmt == "csv" else MAX_JSON_BYTES
    if size > limit:
        raise PnpError(
            f"{path} is {size // 2**20} MB, more than the {limit // 2**20} MB an import takes; "
            f"split it into several files"
        )
    if fmt == "json":
        return iter(_read_json(decode(_read_bytes(path), path, encoding), path))
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise PnpError(f"unknown encoding '{encoding}' (try: utf-8, {ENCODINGS_HINT})") from None
    return _read_csv_file(path, encoding)


def _regular_file_size(path: Path) -> int:
    """The size of `path`, refusing folders, FIFOs and devices (reading one would hang or fail)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise PnpError(f"no such file: {path}") from None
    except OSError as exc:
        raise PnpError(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise PnpError(f"{path} is not a regular file (a folder, pipe or device)")
    return st.st_size


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise PnpError(f"cannot read {path}: {exc.strerror}") from None


def _read_csv_file(path: Path, encoding: str | None) -> Iterator[Record]:
    """Stream a CSV file: decode errors are reported with the line they are on."""
    try:
        handle = open(path, encoding=encoding or "utf-8-sig", newline="")
    except OSError as exc:
        raise PnpError(f"cannot read {path}: {exc.strerror}") from None
    with handle:
        try:
            yield from _read_csv(handle, path)
        except UnicodeDecodeError as exc:
            if encoding:
                raise PnpError(f"{path} is not valid {encoding} near byte {exc.start}") from None
            raise PnpError(
                f"{path} is not UTF-8 (near byte {exc.start}); if Excel saved it in Taiwan or "
                f"China, pass --encoding ({ENCODINGS_HINT})"
            ) from None
        except OSError as exc:
            raise PnpError(f"cannot read {path}: {exc.strerror}") from None


DELIMITERS = (",", ";", "\t")


def sniff_delimiter(first_line: str, wanted: str) -> str:
    """The delimiter of a CSV from its header line: the one that yields a `wanted` column.

    Excel and LibreOffice save ';'-separated CSV in many locales (where ',' is the decimal
    mark), and some tools save tab-separated text as .csv.  Failing a `wanted` column, the
    delimiter that splits the header into the most cells wins (',' on a tie).
    """
    cells: dict[str, list[str]] = {}
    for d in DELIMITERS:
        row = next(csv.reader([first_line.rstrip("\r\n")], delimiter=d), [])
        cells[d] = [c.strip().lstrip("\ufeff") for c in row]
        if wanted in cells[d]:
            return d
    return max(DELIMITERS, key=lambda d: (len(cells[d]), d == ","))


def _read_csv(lines: Iterable[str], path: Path) -> Iterator[Record]:
    csv.field_size_limit(MAX_CELL_CHARS)
    it = iter(lines)
    first = next(it, None)
    if first is None:
        raise PnpError(f"{path} is empty")
    reader = csv.reader(itertools.chain([first], it), delimiter=sniff_delimiter(first, "id"), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise PnpError(f"{path} is empty") from None
    except csv.Error as exc:
        raise PnpError(f"{path}, line 1: broken CSV: {exc}") from None
    header = [h.strip() for h in header]
    if "id" not in header:
        raise PnpError(f"{path}, line 1: no 'id' column (columns: {', '.join(header)[:300]})")
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise PnpError(f"{path}, line 1: column(s) {', '.join(dupes)} appear twice")
    fields = {h for h in header if h not in ATTR_COLUMNS}
    rows = 0
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise PnpError(f"{path}, line {line}: {len(row)} cells, the header has {len(header)}")
            rows += 1
            if rows > MAX_ROWS:
                raise PnpError(f"{path} has more than {MAX_ROWS} rows; split it into several files")
            yield Record(
                dict(zip(header, map(csv_unescape, row), strict=False)), f"{path}, line {line}", fields
            )
    except csv.Error as exc:
        raise PnpError(f"{path}, line {reader.line_num}: broken CSV: {exc}") from None


def _read_json(text: str, path: Path) -> list[Record]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PnpError(f"{path}, line {exc.lineno}, column {exc.colno}: broken JSON: {exc.msg}") from None
    except RecursionError:
        raise PnpError(f"{path}: JSON nested too deeply (cards are at most three levels deep)") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise PnpError(f"{path}: JSON value out of range: {str(exc)[:120]}") from None
    if not isinstance(data, list):
        raise PnpError(f"{path}: expected a JSON array of cards")
    if len(data) > MAX_ROWS:
        raise PnpError(f"{path} has more than {MAX_ROWS} cards; split it into several files")
    out = []
    for i, item in enumerate(data, 1):
        if not isinstance(item, dict):
            raise PnpError(f"{path}, record {i}: expected an object")
        values = {k: v for k, v in item.items() if k != "fields"}
        unknown = sorted(set(values) - set(ATTR_COLUMNS))
        if unknown:
            raise PnpError(
                f"{path}, record {i}: unknown key(s) {', '.join(map(str, unknown))[:300]} "
                f"(allowed: {', '.join(ATTR_COLUMNS + ['fields'])})"
            )
        fields = item.get("fields", {})
        if not isinstance(fields, dict):
            raise PnpError(f"{path}, record {i}: 'fields' must be an object")
        values.update(fields)
        out.append(Record(values, f"{path}, record {i}", set(fields), replace_fields="fields" in item))
    return out


def field_columns(types: list[CardType]) -> list[str]:
    seen: list[str] = []
    for t in types:
        for f in t.fields:
            if f.name not in seen:
                seen.append(f.name)
    return seen


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "|".join(str(v) for v in value)
    return str(value)


def card_record(card: Card) -> dict[str, Any]:
    """A card as exported to JSON: attributes in a fixed order, then its fields."""
    d = {k: getattr(card, k) for k in ATTR_COLUMNS}
    d["fields"] = {k: card.fields[k] for k in sorted(card.fields)}
    return d


def write_records(cards: list[Card], types: list[CardType], fmt: str) -> str:
    if fmt not in FORMATS:
        raise PnpError(f"unknown format '{fmt}' (allowed: {', '.join(FORMATS)})")
    if fmt == "xlsx":
        raise PnpError("XLSX is a binary format: export it to a file with -o FILE.xlsx")
    if fmt == "json":
        return json.dumps([card_record(c) for c in cards], ensure_ascii=False, indent=1) + "\n"
    cols = ATTR_COLUMNS + field_columns(types)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for c in cards:
        row = [_cell(getattr(c, k)) for k in ATTR_COLUMNS] + [
            _cell(c.fields.get(k)) for k in cols[len(ATTR_COLUMNS) :]
        ]
        w.writerow([csv_escape(cell) for cell in row])
    return buf.getvalue()
