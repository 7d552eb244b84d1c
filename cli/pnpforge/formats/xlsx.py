"""One guarded XLSX reader: every worksheet as rows of text, within declared limits.

Why not openpyxl for reading: its read-only mode trusts the sheet's declared
dimension (a 1.9 KB file declaring A1:XFD1048576 makes it pad a million rows
of 16,384 cells), loads every shared string before the first row whatever
their number or size, and lets XML errors out as parser exceptions.  Those
are its mechanisms, not settings, so reading streams the workbook here with
the standard library's expat parser instead (openpyxl still writes exports):

- the zip directory is checked before anything is opened: entry count, each
  part's and the total uncompressed size (a part that inflates past what it
  declared fails its check in zipfile);
- a DTD is refused outright (so no entity expansion, internal or external:
  billion laughs and XXE stop at the first declaration), and any XML error,
  invalid UTF-8 included, is one line naming the file, part and line;
- the declared dimension sizes nothing: rows and cells are counted as they
  stream, a value beyond column MAX_COLUMNS or row 1,048,576 is refused, and
  so are more than MAX_CELLS cells of any kind;
- shared strings are bounded in count and in characters, each one and all;
- a numeric cell that is NaN or infinite is refused naming its cell.
"""

from __future__ import annotations

import datetime
import re
import xml.parsers.expat
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pnpforge.errors import PnpError

MAX_FILE_BYTES = 64 * 1024 * 1024  # the workbook file itself
MAX_UNZIPPED_BYTES = 256 * 1024 * 1024  # every part together, as the zip directory declares them
MAX_PARTS = 10_000
MAX_COLUMNS = 1_000  # a card sheet with more columns than this is not a card sheet
MAX_ROW_NUMBER = 1_048_576  # Excel's own last row
MAX_CELLS = 5_000_000  # cell elements per workbook, blank ones included
MAX_SHARED_STRINGS = 1_000_000
MAX_SHARED_CHARS = 64 * 1024 * 1024
MAX_CELL_CHARS = 100_000  # as a CSV cell
_CHUNK = 1 << 16

Table = tuple[str, list[str], Iterator[tuple[int, list[str]]]]


def read_tables(path: Path) -> Iterator[Table]:
    """Each non-empty worksheet as (title, header, rows of (row number, cells as text)).

    The header is the first row holding any text (trailing blanks dropped); the rows after
    it are padded or cut to the header's width, and blank rows are skipped."""
    book = _Book.open(Path(path))
    for title, part in book.sheets:
        rows = book.rows(title, part)
        found = _header(rows)
        if found is not None:
            number, header = found
            yield title, header, _body(rows, len(header))


def _header(rows: Iterator[tuple[int, list[str]]]) -> tuple[int, list[str]] | None:
    for number, cells in rows:
        header = [c.strip() for c in cells]
        if any(header):
            while not header[-1]:
                header.pop()
            return number, header
    return None


def _body(rows: Iterator[tuple[int, list[str]]], width: int) -> Iterator[tuple[int, list[str]]]:
    for number, cells in rows:
        cells = cells[:width] + [""] * (width - len(cells))
        if any(c.strip() for c in cells):
            yield number, cells


class _Counter:
    """Cells seen in the whole workbook, against MAX_CELLS."""

    def __init__(self) -> None:
        self.cells = 0


@dataclass
class _Book:
    path: Path
    sheets: list[tuple[str, str]]  # (title, part name)
    strings: list[str]
    date_styles: frozenset[int]
    counter: _Counter = field(default_factory=_Counter)

    @classmethod
    def open(cls, path: Path) -> _Book:
        _check_file(path)
        try:
            with zipfile.ZipFile(path) as zf:
                names = _check_directory(path, zf)
                workbook = _office_document(path, zf, names)
                sheets = _sheet_parts(path, zf, names, workbook)
                strings = _shared_strings(path, zf, names, workbook)
                dates = _date_styles(path, zf, names, workbook)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as exc:
            raise PnpError(f"{path} is not a readable XLSX workbook ({exc})") from None
        except OSError as exc:
            raise PnpError(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls(path, sheets, strings, dates)

    def rows(self, title: str, part: str) -> Iterator[tuple[int, list[str]]]:
        """The sheet's rows with a value, as (row number, cells as text), streamed."""
        reader = _SheetReader(self, title)
        try:
            with zipfile.ZipFile(self.path) as zf:
                yield from _stream(self.path, zf, part, reader.parser_for, reader.take)
        except (zipfile.BadZipFile, EOFError) as exc:
            raise PnpError(f"{self.path}: sheet '{title}' cannot be read ({exc})") from None
        except OSError as exc:
            raise PnpError(f"cannot read {self.path}: {exc.strerror or exc}") from None


def _check_file(path: Path) -> None:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise PnpError(f"no such file: {path}") from None
    except OSError as exc:
        raise PnpError(f"cannot read {path}: {exc.strerror}") from None
    if not path.is_file():
        raise PnpError(f"{path} is not a regular file (a folder, pipe or device)")
    if st.st_size > MAX_FILE_BYTES:
        raise PnpError(
            f"{path} is {st.st_size // 2**20} MB, more than the {MAX_FILE_BYTES // 2**20} MB "
            f"an XLSX import takes; split it or save it as CSV"
        )


def _check_directory(path: Path, zf: zipfile.ZipFile) -> set[str]:
    """The part names, after checking their count and declared uncompressed sizes."""
    infos = zf.infolist()
    if len(infos) > MAX_PARTS:
        raise PnpError(f"{path} holds {len(infos)} parts, more than an XLSX workbook of cards has")
    total = sum(info.file_size for info in infos)
    if total > MAX_UNZIPPED_BYTES:
        raise PnpError(
            f"{path} unpacks to {total // 2**20} MB, more than the {MAX_UNZIPPED_BYTES // 2**20} MB "
            f"an XLSX import takes; split it or save it as CSV"
        )
    return {info.filename for info in infos}


class _Refused(Exception):
    """Raised inside a parser callback; worded by _stream with the part's name."""


def _stream(
    path: Path,
    zf: zipfile.ZipFile,
    part: str,
    make: Callable[[Any], None],
    take: Callable[[], list[Any]],
) -> Iterator[Any]:
    """Parse `part` in chunks with a DTD-refusing expat parser that `make` wires up; after
    each chunk, yield what `take` hands over (so a sheet is never held whole)."""
    parser = xml.parsers.expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse_dtd(*_args: Any) -> None:
        raise _Refused("declares a DTD (entity declarations are refused: no expansion, no external files)")

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.ExternalEntityRefHandler = refuse_dtd  # type: ignore[assignment]
    make(parser)
    where = f"{path}: part {part}"
    try:
        with zf.open(part) as fh:
            while chunk := fh.read(_CHUNK):
                parser.Parse(chunk, False)
                yield from take()
            parser.Parse(b"", True)
            yield from take()
    except _Refused as exc:
        raise PnpError(f"{where}: {exc}") from None
    except xml.parsers.expat.ExpatError as exc:
        reason = xml.parsers.expat.errors.messages.get(exc.code, str(exc)) if exc.code else str(exc)
        raise PnpError(f"{where}, line {exc.lineno}: not well-formed XML ({reason})") from None
    except (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, EOFError) as exc:
        # a damaged deflate stream, a wrong CRC, an encrypted or oddly compressed part
        raise PnpError(f"{where}: cannot be unpacked ({exc})") from None


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _attrs(attrs: dict[str, str]) -> dict[str, str]:
    return {_local(k): v for k, v in attrs.items()}


def _collect(
    path: Path, zf: zipfile.ZipFile, part: str, on_start: Callable[[str, dict[str, str]], None]
) -> None:
    """Run `on_start(local name, attributes)` over every element of a small part."""

    def make(parser: Any) -> None:
        parser.StartElementHandler = lambda name, attrs: on_start(_local(name), _attrs(attrs))

    for _ in _stream(path, zf, part, make, list):
        pass


def _relationships(
    path: Path, zf: zipfile.ZipFile, names: set[str], owner: str
) -> dict[str, tuple[str, str]]:
    """Id → (type, part name) of the relationships of part `owner` ('' for the package)."""
    folder = str(PurePosixPath(owner).parent) if owner else ""
    rels = f"{folder + '/' if folder and folder != '.' else ''}_rels/{PurePosixPath(owner).name}.rels"
    found: dict[str, tuple[str, str]] = {}
    if rels not in names:
        return found

    def start(name: str, attrs: dict[str, str]) -> None:
        if name == "Relationship" and "Id" in attrs and "Target" in attrs:
            target = attrs["Target"]
            if target.startswith("/"):
                resolved = target.lstrip("/")
            else:
                resolved = str(PurePosixPath(folder if folder != "." else "") / target)
            parts: list[str] = []
            for piece in resolved.split("/"):
                if piece == "..":
                    if parts:
                        parts.pop()
                elif piece and piece != ".":
                    parts.append(piece)
            found[attrs["Id"]] = (attrs.get("Type", ""), "/".join(parts))

    _collect(path, zf, rels, start)
    return found


def _office_document(path: Path, zf: zipfile.ZipFile, names: set[str]) -> str:
    for kind, target in _relationships(path, zf, names, "").values():
        if kind.endswith("/officeDocument") and target in names:
            return target
    if "xl/workbook.xml" in names:
        return "xl/workbook.xml"
    raise PnpError(f"{path} is not an XLSX workbook (it has no workbook part)")


def _sheet_parts(path: Path, zf: zipfile.ZipFile, names: set[str], workbook: str) -> list[tuple[str, str]]:
    rels = _relationships(path, zf, names, workbook)
    sheets: list[tuple[str, str]] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        if name == "sheet":
            kind, target = rels.get(attrs.get("id", ""), ("", ""))
            if kind.endswith("/worksheet") and target in names:
                sheets.append((attrs.get("name", target), target))

    _collect(path, zf, workbook, start)
    return sheets


def _part_of(rels: dict[str, tuple[str, str]], names: set[str], suffix: str) -> str | None:
    for kind, target in rels.values():
        if kind.endswith(suffix) and target in names:
            return target
    return None


def _shared_strings(path: Path, zf: zipfile.ZipFile, names: set[str], workbook: str) -> list[str]:
    """The shared string table, bounded in count and characters as it streams."""
    part = _part_of(_relationships(path, zf, names, workbook), names, "/sharedStrings")
    if part is None:
        return []
    strings: list[str] = []
    state = {"depth_t": 0, "in_phonetic": 0, "chars": 0}
    current: list[str] = []
    size = [0]

    def start(name: str, attrs: dict[str, str]) -> None:
        name = _local(name)
        if name == "sst":
            declared = attrs.get("uniqueCount") or "0"
            if declared.isdigit() and int(declared) > MAX_SHARED_STRINGS:
                raise _Refused(f"declares {declared} shared strings, more than {MAX_SHARED_STRINGS:,}")
        elif name == "si":
            current.clear()
            size[0] = 0
        elif name == "rPh":
            state["in_phonetic"] += 1
        elif name == "t" and not state["in_phonetic"]:
            state["depth_t"] += 1

    def end(name: str) -> None:
        name = _local(name)
        if name == "si":
            if len(strings) >= MAX_SHARED_STRINGS:
                raise _Refused(f"holds more than {MAX_SHARED_STRINGS:,} shared strings")
            strings.append("".join(current))
        elif name == "rPh":
            state["in_phonetic"] -= 1
        elif name == "t" and not state["in_phonetic"]:
            state["depth_t"] -= 1

    def text(data: str) -> None:
        if state["depth_t"] > 0:
            size[0] += len(data)
            state["chars"] += len(data)
            if size[0] > MAX_CELL_CHARS:
                raise _Refused(
                    f"shared string {len(strings) + 1} is longer than {MAX_CELL_CHARS:,} characters"
                )
            if state["chars"] > MAX_SHARED_CHARS:
                raise _Refused(f"shared strings hold more than {MAX_SHARED_CHARS:,} characters")
            current.append(data)

    def make(parser: Any) -> None:
        parser.StartElementHandler = lambda n, a: start(n, _attrs(a))
        parser.EndElementHandler = end
        parser.CharacterDataHandler = text

    for _ in _stream(path, zf, part, make, list):
        pass
    return strings


_DATE_FORMATS = frozenset({14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47})
_QUOTED = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.')


def _date_styles(path: Path, zf: zipfile.ZipFile, names: set[str], workbook: str) -> frozenset[int]:
    """Indexes of the cell styles that show a number as a date or time (as Excel would)."""
    part = _part_of(_relationships(path, zf, names, workbook), names, "/styles")
    if part is None:
        return frozenset()
    custom: dict[int, str] = {}
    styles: list[int] = []
    inside = {"cellXfs": False}

    def start(name: str, attrs: dict[str, str]) -> None:
        if name == "numFmt" and attrs.get("numFmtId", "").isdigit():
            custom[int(attrs["numFmtId"])] = attrs.get("formatCode", "")
        elif name == "cellXfs":
            inside["cellXfs"] = True
        elif name == "xf" and inside["cellXfs"]:
            fmt = attrs.get("numFmtId", "0")
            styles.append(int(fmt) if fmt.isdigit() else 0)
        elif name in ("cellStyles", "dxfs"):
            inside["cellXfs"] = False

    _collect(path, zf, part, start)

    def is_date(fmt: int) -> bool:
        if fmt in _DATE_FORMATS:
            return True
        code = _QUOTED.sub("", custom.get(fmt, "")).lower()
        return any(ch in code for ch in "dmyhs") and "general" not in code

    return frozenset(i for i, fmt in enumerate(styles) if is_date(fmt))


_CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")


def _column_index(letters: str) -> int:
    index = 0
    for ch in letters:
        index = index * 26 + ord(ch) - 64
    return index


class _SheetReader:
    """Turns one worksheet's element stream into rows of text, counting as it goes."""

    def __init__(self, book: _Book, title: str) -> None:
        self.book, self.title = book, title
        self.done: list[tuple[int, list[str]]] = []
        self.row_number = 0
        self.cells: dict[int, str] = {}
        self.column = 0
        self.cell: dict[str, str] | None = None
        self.text: list[str] = []
        self.size = 0
        self.collecting = False
        self.phonetic = 0

    def where(self, column: int | None = None) -> str:
        if column is None:
            return f"sheet '{self.title}', row {self.row_number}"
        return f"sheet '{self.title}', cell {_letters(column)}{self.row_number}"

    def parser_for(self, parser: Any) -> None:
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.chars

    def take(self) -> list[tuple[int, list[str]]]:
        out, self.done = self.done, []
        return out

    def start(self, name: str, raw_attrs: dict[str, str]) -> None:
        name, attrs = _local(name), _attrs(raw_attrs)
        if name == "row":
            number = attrs.get("r", "")
            self.row_number = int(number) if number.isdigit() else self.row_number + 1
            if self.row_number > MAX_ROW_NUMBER:
                raise _Refused(f"{self.where()}: beyond the last row a sheet can have ({MAX_ROW_NUMBER:,})")
            self.cells, self.column = {}, 0
        elif name == "c":
            self.book.counter.cells += 1
            if self.book.counter.cells > MAX_CELLS:
                raise _Refused(f"holds more than {MAX_CELLS:,} cells")
            self.cell = attrs
            ref = _CELL_REF.fullmatch(self.cell.get("r", ""))
            self.column = _column_index(ref.group(1)) if ref else self.column + 1
            self.text, self.size, self.collecting = [], 0, False
        elif name == "dimension":
            self._check_dimension(attrs.get("ref", ""))
        elif name == "rPh":
            self.phonetic += 1
        elif name in ("v", "t") and self.cell is not None and not self.phonetic:
            self.collecting = True

    def _check_dimension(self, ref: str) -> None:
        """The declared extent is only checked for sense: nothing is sized by it."""
        for corner in ref.split(":"):
            match = _CELL_REF.fullmatch(corner)
            if match and (_column_index(match.group(1)) > 16_384 or int(match.group(2)) > MAX_ROW_NUMBER):
                raise _Refused(f"sheet '{self.title}' declares an extent ({ref[:40]}) no sheet can have")

    def chars(self, data: str) -> None:
        if self.collecting:
            self.size += len(data)
            if self.size > MAX_CELL_CHARS:
                raise _Refused(f"{self.where(self.column)}: longer than {MAX_CELL_CHARS:,} characters")
            self.text.append(data)

    def end(self, name: str) -> None:
        name = _local(name)
        if name in ("v", "t"):
            self.collecting = False
        elif name == "rPh":
            self.phonetic -= 1
        elif name == "c" and self.cell is not None:
            value = self._value(self.cell, "".join(self.text))
            if value:
                if self.column > MAX_COLUMNS:
                    raise _Refused(
                        f"{self.where(self.column)}: a value beyond column {_letters(MAX_COLUMNS)} "
                        f"(a card sheet has at most {MAX_COLUMNS:,} columns)"
                    )
                self.cells[self.column] = value
            self.cell = None
        elif name == "row":
            if self.cells:
                width = max(self.cells)
                self.done.append((self.row_number, [self.cells.get(i, "") for i in range(1, width + 1)]))
            self.cells = {}

    def _value(self, cell: dict[str, str], raw: str) -> str:
        kind = cell.get("t", "n")
        if kind == "s":
            index = int(raw) if raw.strip().isdigit() else -1
            if not 0 <= index < len(self.book.strings):
                raise _Refused(f"{self.where(self.column)}: shared string {raw[:20]!r} does not exist")
            return self.book.strings[index]
        if kind == "b":
            return "true" if raw.strip() in ("1", "true") else "false" if raw.strip() else ""
        if kind in ("str", "inlineStr", "e"):
            return raw
        if not raw.strip():
            return ""
        style = cell.get("s", "0")
        as_date = style.isdigit() and int(style) in self.book.date_styles
        return _number(raw.strip(), as_date, self.where(self.column))


def _letters(column: int) -> str:
    out = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        out = chr(65 + rest) + out
    return out


_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_EPOCH = datetime.datetime(1899, 12, 30)


def _number(raw: str, as_date: bool, where: str) -> str:
    """A numeric cell as a CSV cell would hold it (3.0 → '3'); NaN and infinities refused."""
    if _INTEGER.fullmatch(raw) and not as_date:
        return str(int(raw))
    try:
        value = float(raw) if len(raw) <= 40 else float("nan")
    except ValueError:
        raise _Refused(f"{where}: {raw[:40]!r} is not a number though the cell says it is") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise _Refused(f"{where}: {raw[:40]!r} is not a finite number")
    if as_date and 0 <= value < 2_958_466:  # up to 9999-12-31
        moment = _EPOCH + datetime.timedelta(milliseconds=round(value * 86_400_000))
        return moment.time().isoformat() if value < 1 else moment.isoformat()
    if value.is_integer() and abs(value) < 1e18:
        return str(int(value))
    return str(value)
