"""Root cause 8 of issue 21 and its design question: invisible names, non-text ids, and ids or
names that collide once case and width are folded (as file names on Windows and macOS)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnpforge.validate.values import id_file_key, id_problem, name_key, visible


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",
        "\ufe0f",
        "\u200b",
        "\u3164\u3164",
        "\u115f",
        "\u0301",
        "\u2060",
        "\u00a0",
        "\u3000",
        "\ufe0f\u200d",
    ],
)
def test_a_name_that_shows_nothing_is_refused(mini_db: Path, run, name: str) -> None:
    assert not visible(name)
    before = mini_db.read_bytes()
    res = run("--db", mini_db, "cards", "set", "mini", "H-01", f"name={name}")
    assert res.exit_code == 1 and "name" in res.stderr and "Traceback" not in res.output
    assert mini_db.read_bytes() == before


@pytest.mark.parametrize("name", ["A", "火", "1", "★", "!", "e\u0301", "❤\ufe0f", "\u3164A"])
def test_a_name_with_something_visible_passes(name: str) -> None:
    assert visible(name)


def test_a_json_id_must_be_text(mini_db: Path, run, tmp_path: Path) -> None:
    for raw in (True, 5, 1.5, ["H-01"]):
        path = tmp_path / "cards.json"
        path.write_text(json.dumps([{"id": raw, "type": "spell", "name": "x"}]), encoding="utf-8")
        before = mini_db.read_bytes()
        res = run("--db", mini_db, "import", "mini", path)
        assert res.exit_code == 1 and "id must be text" in res.stderr, res.output
        assert mini_db.read_bytes() == before


@pytest.mark.parametrize(
    "card_id", ["CON", "con", "NUL", "nul.txt", "Aux.1", "COM1", "lpt9.x", "PRN", "a.", "H-01."]
)
def test_ids_windows_cannot_use_as_file_names_are_refused(card_id: str) -> None:
    assert id_problem(card_id) is not None


@pytest.mark.parametrize("card_id", ["CONS", "NULL-1", "COM10x", "a.b", "H-01", "console"])
def test_ids_near_reserved_names_pass(card_id: str) -> None:
    assert id_problem(card_id) is None


def test_ids_differing_only_in_case_are_refused(mini_db: Path, run, tmp_path: Path) -> None:
    assert id_file_key("h-01") == id_file_key("H-01")
    path = tmp_path / "add.csv"
    path.write_text("id,type,name,power\nh-01,hero,小火龍,3\n", encoding="utf-8")
    before = mini_db.read_bytes()
    res = run("--db", mini_db, "import", "mini", path)
    assert res.exit_code == 1 and "differs from H-01 only in case" in res.stderr, res.output
    assert mini_db.read_bytes() == before
    res = run("--db", mini_db, "cards", "add", "mini", "hero", "h-01", "name=小火龍", "power=3")
    assert res.exit_code == 1 and "only in case" in res.stderr, res.output


def test_names_fold_case_and_width(mini_db: Path, run) -> None:
    assert name_key("ABC") == name_key("ＡＢＣ") == name_key("abc") == name_key(" ａｂｃ ")
    assert name_key("冰凍術") != name_key("寒冰術")
    res = run("--db", mini_db, "cards", "set", "mini", "H-01", "name=Same")
    assert res.exit_code == 0, res.output
    res = run("--db", mini_db, "cards", "set", "mini", "H-02", "name=ＳＡＭＥ")
    assert res.exit_code == 1 and "already used by H-01" in res.stderr, res.output
