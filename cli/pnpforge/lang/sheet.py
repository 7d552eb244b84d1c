"""The translator's round trip: a sheet with original and translation side by side.

Export writes one row per unit (CSV or XLSX) with its state (ok, missing,
stale) and the fingerprint of the original shown.  Import reads the same
columns back (a CSV separated by commas or semicolons, as LibreOffice and a
European Excel save it), checks every row first, and writes only the rows
whose translation or provenance changed, in one transaction: a bad row
refuses the whole file, naming its line and column.
"""

from __future__ import annotations

import csv
import io
import tomllib
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from pnpforge.cardio import csv_escape, csv_unescape, decode
from pnpforge.errors import PnpError
from pnpforge.lang.status import game_status
from pnpforge.lang.units import Unit
from pnpforge.store import translations
from pnpforge.store.translations import PROVENANCES, Translation

COLUMNS = ["kind", "key", "field", "label", "status", "original", "translation", "provenance", "fingerprint"]
REQUIRED = ("kind", "key", "field", "translation", "fingerprint")
FORMATS = ("csv", "xlsx")


def _format(path: Path) -> str:
    fmt = path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise PnpError(f"{path}: name the file .csv or .xlsx")
    return fmt


def export_rows(db: sqlite_utils.Database, game: str, lang: str) -> list[list[str]]:
    """The sheet's rows (header first): every unit, its state and translation."""
    rows = [list(COLUMNS)]
    for s in game_status(db, game, lang):
        t = s.translation
        u = s.unit
        rows.append(
            [
                u.kind,
                u.key,
                u.field,
                u.label,
                s.status,
                u.original,
                t.text if t else "",
                t.provenance if t else "",
                u.fingerprint,
            ]
        )
    return rows


def export_file(db: sqlite_utils.Database, game: str, lang: str, output: Path) -> int:
    """Write the sheet to `output` (.csv or .xlsx); the number of units."""
    from pnpforge.outfile import write_bytes

    rows = export_rows(db, game, lang)
    if _format(output) == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        for r in rows:
            writer.writerow([csv_escape(c) for c in r])
        write_bytes(output, buf.getvalue().encode("utf-8"))
    else:
        write_bytes(output, _workbook(rows, f"{game} {lang}"))
    return len(rows) - 1


def _workbook(rows: list[list[str]], title: str) -> bytes:
    import datetime

    import openpyxl
    from openpyxl.cell.cell import TYPE_STRING
    from openpyxl.styles import Alignment

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "translations"
    for r in rows:
        sheet.append(r)
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            if isinstance(cell.value, str):
                cell.data_type = TYPE_STRING  # '=…' stays text, never a formula
                cell.alignment = Alignment(wrap_text=True, vertical="top")
    for col, width in zip("ABCDEFGHI", (10, 22, 12, 20, 9, 50, 50, 12, 18), strict=True):
        sheet.column_dimensions[col].width = width
    sheet.freeze_panes = "F2"
    book.properties.title = title
    book.properties.created = book.properties.modified = datetime.datetime(2000, 1, 1)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


# ---- import ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportResult:
    written: list[Translation]
    unchanged: int
    blank: int


def read_rows(path: Path) -> list[tuple[str, dict[str, str]]]:
    """(where, row) of every non-blank row of a .csv or .xlsx translation sheet."""
    if _format(path) == "xlsx":
        from pnpforge.design.sheets import read_tables

        for _name, header, body in read_tables(path):
            return [
                (f"{path}, row {n}", dict(zip(header, cells, strict=False)))
                for n, cells in body
                if any(c.strip() for c in cells)
            ]
        raise PnpError(f"{path} has no worksheet with a header row")
    try:
        text = decode(path.read_bytes(), path, None)
    except OSError as exc:
        raise PnpError(f"cannot read {path}: {exc.strerror}") from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = [h.strip() for h in next(reader)]
        out = []
        for row in reader:
            if not any(c.strip() for c in row):
                continue
            if len(row) != len(header):
                raise PnpError(
                    f"{path}, line {reader.line_num}: {len(row)} cells, the header has {len(header)}"
                )
            out.append(
                (f"{path}, line {reader.line_num}", dict(zip(header, map(csv_unescape, row), strict=True)))
            )
    except StopIteration:
        raise PnpError(f"{path} is empty") from None
    except csv.Error as exc:
        raise PnpError(f"{path}, line {reader.line_num}: broken CSV: {exc}") from None
    return out


def plan_import(db: sqlite_utils.Database, game: str, lang: str, path: Path) -> ImportResult:
    """Check every row of the sheet; the translations it changes.  Nothing is written."""
    rows = read_rows(path)
    if rows:
        missing = [c for c in REQUIRED if c not in rows[0][1]]
        if missing:
            raise PnpError(f"{path}: no column(s) {', '.join(missing)} (columns: {', '.join(COLUMNS)})")
    units = {s.unit.ident: s for s in game_status(db, game, lang)}
    stored = translations.of_language(db, game, lang)
    problems: list[str] = []
    written: list[Translation] = []
    seen: set[tuple[str, str, str]] = set()
    unchanged = blank = 0
    for where, row in rows:
        ident = (row["kind"].strip(), row["key"].strip(), row["field"].strip())
        text = row["translation"]
        if ident in seen:
            problems.append(f"{where}: {' '.join(ident)} appears twice")
            continue
        seen.add(ident)
        status = units.get(ident)
        if status is None:
            problems.append(f"{where}: {game} prints no original '{' '.join(ident)}'")
            continue
        if not text.strip():
            blank += 1
            continue
        provenance = (row.get("provenance") or "").strip() or "translation"
        if provenance not in PROVENANCES:
            problems.append(
                f"{where}: column 'provenance': '{provenance}' (allowed: {', '.join(PROVENANCES)})"
            )
            continue
        if row["fingerprint"].strip() != status.unit.fingerprint:
            problems.append(
                f"{where}: the original of {' '.join(ident)} changed since this sheet was exported "
                f"(translate it from the new original: export again)"
            )
            continue
        bad = _template_problem(status.unit, text)
        if bad:
            problems.append(f"{where}: column 'translation': {bad}")
            continue
        t = Translation(*ident, text, status.unit.fingerprint, provenance)
        old = stored.get(ident)
        if old is not None and (old.text, old.provenance, old.source_hash) == (
            t.text,
            t.provenance,
            t.source_hash,
        ):
            unchanged += 1
            continue
        written.append(t)
    if problems:
        shown = "\n  ".join(problems[:20]) + (
            f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
        )
        raise PnpError(f"import of {path} refused; nothing was written:\n  {shown}")
    return ImportResult(written, unchanged, blank)


def _template_problem(unit: Unit, text: str) -> str:
    """A translated template must still parse: TOML layouts as TOML, templates as Jinja."""
    if unit.kind != "template":
        return ""
    if unit.key.endswith(".toml"):
        try:
            tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            return f"{unit.key} is not valid TOML: {exc}"
    elif unit.key.endswith(".j2"):
        from jinja2 import Environment, TemplateSyntaxError

        try:
            Environment().parse(text)
        except TemplateSyntaxError as exc:
            return f"{unit.key}, line {exc.lineno}: {exc.message}"
    return ""


def import_file(
    db: sqlite_utils.Database, game: str, lang: str, path: Path, dry_run: bool = False
) -> ImportResult:
    """Check the whole sheet, then write the changed translations in one transaction."""
    from pnpforge.store.db import transaction

    result = plan_import(db, game, lang, path)
    if result.written and not dry_run:
        with transaction(db) as conn:
            translations.upsert(conn, game, lang, result.written)
    return result
