"""XLSX spreadsheets in and out: the same records as CSV, one sheet per card type.

Export writes one worksheet per card type (named by the type's slug), with
the CSV columns of that type: the card attributes, then the type's fields.
Every cell is written as text except copies and integer fields, which are
numbers so a spreadsheet sorts and sums them; text is stored as text even
when it starts with `=`, so opening an export never runs a formula.  A sheet
that a spreadsheet saved from pnp's CSV export keeps that CSV's formula guard
(a leading apostrophe, `'-1|-3`), which import removes as the CSV import does.
Import reads every worksheet: a `type` column names each row's card type,
else the worksheet's name does.  Rows then go through the
very validation a CSV import does (`pnpforge.edit`), all or nothing.
Reading goes through the guarded reader `pnpforge.formats.xlsx`; openpyxl
only writes.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.formats import xlsx
from pnpforge.formats.records import ATTR_COLUMNS, MAX_ROWS, Record, cell, csv_unescape
from pnpforge.model import PROVENANCES, Card, CardType

_NUMERIC_ATTRIBUTES = ("copies",)


def cell_text(value: Any) -> str:
    """A cell's value as the text a CSV cell would hold (3.0 → '3', True → 'true')."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return str(value)


def read_tables(path: Path) -> Iterator[tuple[str, list[str], Iterator[tuple[int, list[str]]]]]:
    """Each non-empty worksheet as (name, header, rows of (row number, cells as text)),
    read by the one guarded XLSX reader (formats.xlsx: sizes, cells and XML checked)."""
    return xlsx.read_tables(Path(path))


def read_records(path: Path) -> Iterator[Record]:
    """Import records from every worksheet (the sheet name gives the type when there is no column)."""
    path = Path(path)
    count = 0
    for title, header, rows in read_tables(path):
        where = f"{path}, sheet '{title}'"
        if "id" not in header:
            raise PnpError(f"{where}, row 1: no 'id' column (columns: {', '.join(header)[:300]})")
        dupes = sorted({h for h in header if h and header.count(h) > 1})
        if dupes:
            raise PnpError(f"{where}, row 1: column(s) {', '.join(dupes)} appear twice")
        fields = {h for h in header if h and h not in ATTR_COLUMNS}
        for number, cells in rows:
            count += 1
            if count > MAX_ROWS:
                raise PnpError(f"{path} has more than {MAX_ROWS} rows; split it into several files")
            # a sheet a spreadsheet made from pnp's CSV keeps the CSV's formula guard ('-1|-3): undone
            values = {h: csv_unescape(c) for h, c in zip(header, cells, strict=False) if h}
            if "type" not in header:
                values["type"] = title
            yield Record(values, f"{where}, row {number}", fields)


def _export_value(card: Card, key: str, numeric: bool) -> Any:
    value = getattr(card, key) if key in ATTR_COLUMNS else card.fields.get(key)
    if numeric and isinstance(value, int) and not isinstance(value, bool):
        return value
    text = cell(value)
    # a value that reads as a guarded CSV cell (''x, '-x) gets one more apostrophe, which
    # import removes: the text round-trips although import undoes the CSV guard
    return "'" + text if csv_unescape(text) != text else text


def write_workbook(cards: list[Card], types: list[CardType]) -> bytes:
    """The cards as an XLSX workbook, one worksheet per card type, in the game's type order."""
    import openpyxl  # openpyxl loads only for XLSX
    from openpyxl.cell.cell import TYPE_STRING

    book = openpyxl.Workbook()
    book.remove(book.worksheets[0])  # the empty default sheet
    for ctype in types:
        sheet = book.create_sheet(ctype.slug[:31])
        columns = ATTR_COLUMNS + [f.name for f in ctype.fields]
        numeric = set(_NUMERIC_ATTRIBUTES) | {f.name for f in ctype.fields if f.type == "integer"}
        sheet.append(columns)
        for card in (c for c in cards if c.type == ctype.slug):
            sheet.append([_export_value(card, k, k in numeric) for k in columns])
        for row in sheet.iter_rows(min_row=2):
            for written in row:
                if isinstance(written.value, str):
                    written.data_type = TYPE_STRING  # '=…' stays text, never a formula
        sheet.freeze_panes = "B2"
        _add_dropdowns(sheet, columns, ctype)
    if not types:
        book.create_sheet("cards").append(ATTR_COLUMNS)
    book.properties.created = book.properties.modified = datetime.datetime(2000, 1, 1)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _add_dropdowns(sheet: Any, columns: list[str], ctype: CardType) -> None:
    """A drop-down of the allowed values on every enum column (and on `provenance`).

    Excel keeps an in-cell list to 255 characters and splits it on commas, so a longer list,
    or one with a comma or quote in a value, gets no drop-down; the import validates anyway.
    """
    from openpyxl.utils import get_column_letter  # openpyxl loads only for XLSX
    from openpyxl.worksheet.datavalidation import DataValidation

    choices: dict[str, list[str]] = {"provenance": list(PROVENANCES)}
    choices.update({f.name: [str(v) for v in f.allowed or []] for f in ctype.fields if f.type == "enum"})
    for name, allowed in choices.items():
        formula = ",".join(allowed)
        if not allowed or len(formula) > 255 or any("," in v or '"' in v for v in allowed):
            continue
        letter = get_column_letter(columns.index(name) + 1)
        rule = DataValidation(
            type="list",
            formula1=f'"{formula}"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle=name,
            error=f"{name}: one of {formula}",
        )
        rule.add(f"{letter}2:{letter}1048576")
        sheet.add_data_validation(rule)
