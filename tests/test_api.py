"""The library API: its reference is current, and commands and library agree on the same project."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest

from apidoc import reference
from pnpforge import api
from pnpforge.api import Project
from pnpforge.errors import PnpError

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "docs" / "api.md"


def test_api_reference_is_current() -> None:
    text = reference()
    if os.environ.get("PNP_UPDATE_DOCS") == "1":
        REFERENCE.write_text(text, encoding="utf-8")
    assert REFERENCE.is_file(), "docs/api.md is missing (PNP_UPDATE_DOCS=1 pytest tests/test_api.py)"
    assert REFERENCE.read_text(encoding="utf-8") == text, (
        "docs/api.md is out of date: PNP_UPDATE_DOCS=1 pytest tests/test_api.py regenerates it"
    )


def test_every_public_method_says_why_in_a_docstring() -> None:
    missing = [
        name
        for name, member in inspect.getmembers(Project)
        if not name.startswith("_") and callable(member) and not inspect.getdoc(member)
    ]
    assert missing == []
    assert all(inspect.getdoc(getattr(api, name)) for name in api.__all__)


def test_a_project_round_trips_its_cards_through_export_and_import(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db)
    assert project.folder == mini_db.parent
    exported = tmp_path / "mini.csv"
    exported.write_text(project.export_cards("mini", "csv"), encoding="utf-8")
    result = project.import_cards("mini", exported)
    assert result.counts == {"add": 0, "update": 0, "same": len(project.cards("mini"))}


def test_history_names_each_change_and_its_correction(mini_db: Path) -> None:
    project = Project.open(mini_db)
    project.set_card("mini", "H-01", {"copies": "3"}, correction="count misread")
    last = project.history("mini", "H-01")[-1]
    assert last.op == "update" and last.changes["copies"][1] == 3
    assert last.correction == "count misread"
    assert last.to_dict()["game"] == "mini"


def test_a_read_only_project_refuses_writes_and_a_missing_game_is_named(mini_db: Path) -> None:
    project = Project.open(mini_db, readonly=True)
    with pytest.raises(PnpError, match="read-only"):
        project.set_card("mini", "H-01", {"copies": "7"})
    with pytest.raises(PnpError, match="nosuch"):
        project.cards("nosuch")


def test_constraints_are_added_checked_and_removed(mini_db: Path) -> None:
    project = Project.open(mini_db)
    constraint = api.Constraint("mini", "names", "unique", "names differ", {"fields": ["name"]}, False, "")
    breaches = project.add_constraint(constraint)  # copies count: a hero printed twice repeats its name
    assert any("火龍騎士" in b.message for b in breaches)
    assert [(c.id, found) for c, found in project.constraints("mini")] == [("names", breaches)]
    project.remove_constraint("mini", "names")
    assert project.constraints("mini") == []


def test_a_bulk_import_names_the_row_the_schema_refuses_and_writes_nothing(
    mini_db: Path, tmp_path: Path
) -> None:
    project = Project.open(mini_db)
    project.db.execute(
        "CREATE TRIGGER refuse_x BEFORE INSERT ON cards WHEN new.name = 'X-refused' "
        "BEGIN SELECT RAISE(ABORT, 'no X here'); END"
    )
    rows = ["id,type,name,copies"] + [f"N-{i:03},spell,新卡{i:03},1" for i in range(450)]
    rows[301] = "N-300,spell,X-refused,1"  # in the second batch of new cards
    source = tmp_path / "many.csv"
    source.write_text("\n".join(rows) + "\n", encoding="utf-8")
    before = len(project.cards("mini"))
    with pytest.raises(PnpError, match=r"line 302: .*N-300.*no X here"):
        project.import_cards("mini", source)
    assert len(project.cards("mini")) == before
    rows[301] = "N-300,spell,新卡300,1"
    source.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert project.import_cards("mini", source).counts["add"] == 450
    assert [c.id for c in project.search("新卡449")] == ["N-449"]


def test_the_output_options_are_importable_from_the_api(shipped_db: Path, tmp_path: Path) -> None:
    from pnpforge.api import BuildOptions, PrintOptions, Project
    from pnpforge.errors import PnpError

    assert PrintOptions().paper == "a4"
    with pytest.raises(PnpError, match="unknown game 'nope'"):
        Project.open(shipped_db, readonly=True).build(["nope"], tmp_path / "o", BuildOptions())
    assert not (tmp_path / "o").exists()
