"""The print-shop outputs through the library API (Project.preflight, shop, cut, tts, tts_object),
and the commands as thin faces over them: the same answers, the same refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnpforge.api import Project
from pnpforge.errors import PnpError, ValidationFailed
from pnpforge.shop.export import ShopRefused


def test_shop_refuses_a_deck_its_preflight_fails_and_writes_nothing(
    mini_db: Path, tmp_path: Path, run
) -> None:
    project = Project.open(mini_db, readonly=True)
    out = tmp_path / "tgc"
    with pytest.raises(ShopRefused) as refused:
        project.shop("mini", "tgc", output=str(out))  # the 44×67 mm spell fits no TGC product
    report = refused.value.report
    assert isinstance(refused.value, ValidationFailed) and refused.value.exit_code == 1
    assert report.errors and refused.value.problems == report.errors
    assert any(p.subject.startswith("type spell") for p in report.errors)
    assert "nothing was written" in str(refused.value) and not out.exists()
    res = run("--db", mini_db, "shop", "mini", "--profile", "tgc", "-o", out)
    assert res.exit_code == 1 and not out.exists()
    lines = res.stderr.strip().splitlines()
    assert lines == [*(p.line() for p in report.errors), f"Error: {refused.value}"]


def test_shop_answers_with_its_preflight_and_the_files(mini_db: Path, tmp_path: Path, run) -> None:
    project = Project.open(mini_db, readonly=True)
    order = project.shop("mini", "mpc", output=str(tmp_path / "api"), card_type="hero")
    assert order.preflight.profile == "mpc" and not order.preflight.errors
    assert order.preflight.to_dict() == project.preflight("mini", "mpc", "hero").to_dict()
    assert [Path(f).name for f in order.result.files] == [
        "001-H-01-x2.png",
        "002-H-02-x1.png",
        "back-hero.png",
        "manifest.json",
    ]
    res = run("--db", mini_db, "shop", "mini", "-p", "mpc", "-t", "hero", "-o", tmp_path / "cli", "--json")
    assert res.exit_code == 0, res.stderr
    shown = json.loads(res.stdout)
    assert shown["preflight"] == order.to_dict()["preflight"]
    assert [Path(f).name for f in shown["files"]] == [Path(f).name for f in order.result.files]
    for name in ("001-H-01-x2.png", "manifest.json"):  # the command writes what the API writes
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "api" / name).read_bytes()


def test_tts_object_draws_the_sheets_once_then_links_what_is_there(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db, readonly=True)
    folder = tmp_path / "tts"
    first = project.tts_object("mini", source=str(folder))
    assert first.drawn == len(json.loads((folder / "mini.json").read_text(encoding="utf-8"))["ObjectStates"])
    assert first.folder == str(folder) and Path(first.path) == folder / "linked" / "mini.json"
    linked = Path(first.path).read_bytes()
    again = project.tts_object("mini", source=str(folder))
    assert again.drawn == 0 and Path(again.path).read_bytes() == linked
    online = project.tts_object(
        "mini", source=str(folder), output=str(tmp_path / "o.json"), base_url="https://example.org/d"
    )
    assert online.base_url == "https://example.org/d/" and online.images == first.images


def test_tts_object_refuses_a_bad_address_before_drawing(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db, readonly=True)
    with pytest.raises(PnpError, match="not an address Tabletop Simulator can load"):
        project.tts_object("mini", source=str(tmp_path / "tts"), base_url="javascript:alert(1)//")
    assert not (tmp_path / "tts").exists()


def test_tts_through_the_api_is_what_the_command_writes(mini_db: Path, tmp_path: Path, run) -> None:
    result = Project.open(mini_db, readonly=True).tts("mini", output=str(tmp_path / "api"))
    res = run("--db", mini_db, "tts", "mini", "-o", tmp_path / "cli", "--json")
    assert res.exit_code == 0, res.stderr
    shown = json.loads(res.stdout)
    assert shown["decks"] == result.decks and len(result.decks) >= 2
    for f in result.files:
        name = Path(f).name
        assert (tmp_path / "cli" / name).read_bytes() == Path(f).read_bytes(), name
