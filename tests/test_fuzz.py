"""Property tests: the importer (CSV and JSON), the editor and the query language under any input.

Each property: the only exception is the project's own PnpError, and a
refused write leaves the database exactly as it was.  The default run is
bounded (a few dozen examples each); `pytest -m slow` runs the long version.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnpforge.edit import add_card, import_cards, remove_card, set_card
from pnpforge.errors import PnpError
from pnpforge.formats.records import ATTR_COLUMNS
from pnpforge.query import search
from pnpforge.store.db import open_db
from pnpforge.store.dump import dump
from pnpforge.validate import ERROR, validate_game

FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))

# Every card column the CSV reader knows, the mini game's fields, and a key no card has.
KEYS = [*ATTR_COLUMNS, "power", "element", "traits", "weakness", "flying", "cost", "bogus"]
NASTY = [
    "",
    " ",
    "-1",
    "=1+2",
    "@SUM(A1)",
    "+",
    "'",
    "''=x",
    "\x00",
    "\u200b",
    "a\u200bb",
    "火",
    "H-01",
    "S-01",
    "../../x",
    "9" * 30,
    "-9223372036854775809",
    "9223372036854775807",
    "1000",
    "true",
    "no",
    "火|水",
    "大戶,矚目",
    "rulebook",
    "provisional",
    "hero",
    "spell",
    "\n",
    "\r\n",
    "\t",
    '"',
    "NaN",
    "1e9",
    "0x10",
    "🂡",
    "e\u0301",
    "é",
]
text_value = st.one_of(st.sampled_from(NASTY), st.text(max_size=30))
json_value = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=True),
        text_value,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def template_db(tmp_path_factory) -> Path:
    from pnpforge.edit import import_game

    path = tmp_path_factory.mktemp("fuzz") / "template.db"
    import_game(open_db(path, create=True), Path(__file__).parent / "fixtures" / "mini.json")
    return path


@pytest.fixture
def db_path(template_db, tmp_path) -> Path:
    path = tmp_path / "fuzz.db"
    shutil.copy(template_db, path)
    return path


def _snapshot(path: Path) -> list[str]:
    return list(dump(open_db(path, readonly=True)))


def _refused_leaves_db_alone(path: Path, action) -> None:
    """A refusal changes nothing; an accepted write leaves every card valid."""
    before = _snapshot(path)
    try:
        action()
    except PnpError:
        assert _snapshot(path) == before
        return
    problems = validate_game(open_db(path, readonly=True), "mini")
    assert [str(p) for p in problems if p.severity == ERROR and p.scope == "card"] == []


def _csv_text(rows: list[dict[str, str]]) -> str:
    keys = sorted({k for r in rows for k in r}) or ["id"]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(keys)
    for r in rows:
        w.writerow([r.get(k, "") for k in keys])
    return buf.getvalue()


csv_rows = st.lists(st.dictionaries(st.sampled_from(KEYS), text_value, max_size=8), max_size=6)


def _import_csv(db_path: Path, tmp_path: Path, rows, dry_run: bool) -> None:
    source = tmp_path / "in.csv"
    source.write_text(_csv_text(rows), encoding="utf-8")
    db = open_db(db_path, scratch=dry_run)
    _refused_leaves_db_alone(db_path, lambda: import_cards(db, "mini", source, dry_run=dry_run))


def _import_json(db_path: Path, tmp_path: Path, data) -> None:
    source = tmp_path / "in.json"
    source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    _refused_leaves_db_alone(db_path, lambda: import_cards(open_db(db_path), "mini", source))


def _edit(db_path: Path, op: str, card_id: str, values: dict) -> None:
    db = open_db(db_path)
    actions = {
        "set": lambda: set_card(db, "mini", card_id, values),
        "add": lambda: add_card(db, "mini", "hero", card_id, values),
        "rm": lambda: remove_card(db, "mini", card_id),
    }
    _refused_leaves_db_alone(db_path, actions[op])


def _query(db_path: Path, text: str) -> None:
    db = open_db(db_path, readonly=True)
    try:
        search(db, "mini", text)
        search(db, None, text)
    except PnpError:
        pass


json_cards = st.one_of(
    json_value,
    st.lists(st.dictionaries(st.sampled_from(KEYS + ["fields"]), json_value, max_size=6), max_size=4),
)
edits = st.tuples(
    st.sampled_from(["set", "add", "rm"]),
    st.sampled_from(["H-01", "H-02", "S-01", "N-1", "../x", "", "a" * 30]),
    st.dictionaries(st.sampled_from(KEYS), json_value, max_size=4),
)
query_text = st.one_of(
    st.text(max_size=40),
    st.lists(
        st.sampled_from(
            [
                "power>=3",
                "-traits:大戶",
                "or",
                "(",
                ")",
                'name:"火',
                "copies>99999999999999999999",
                "type:hero",
                "is:provisional",
                "has:weakness",
                "-",
                "--",
                ":",
                "power<",
                "'",
                "\\",
                "%",
                "_",
                "\x00",
                "火",
            ]
        ),
        max_size=8,
    ).map(" ".join),
)


@FAST
@given(rows=csv_rows, dry_run=st.booleans())
def test_csv_import_fuzz(db_path, tmp_path, rows, dry_run):
    _import_csv(db_path, tmp_path, rows, dry_run)


@FAST
@given(data=json_cards)
def test_json_import_fuzz(db_path, tmp_path, data):
    _import_json(db_path, tmp_path, data)


@FAST
@given(edit=edits)
def test_editor_fuzz(db_path, edit):
    _edit(db_path, *edit)


@FAST
@given(text=query_text)
def test_query_fuzz(db_path, text):
    _query(db_path, text)


@pytest.mark.slow
@LONG
@given(rows=csv_rows, dry_run=st.booleans())
def test_csv_import_fuzz_long(db_path, tmp_path, rows, dry_run):
    _import_csv(db_path, tmp_path, rows, dry_run)


@pytest.mark.slow
@LONG
@given(data=json_cards)
def test_json_import_fuzz_long(db_path, tmp_path, data):
    _import_json(db_path, tmp_path, data)


@pytest.mark.slow
@LONG
@given(edit=edits)
def test_editor_fuzz_long(db_path, edit):
    _edit(db_path, *edit)


@pytest.mark.slow
@LONG
@given(text=query_text)
def test_query_fuzz_long(db_path, text):
    _query(db_path, text)
