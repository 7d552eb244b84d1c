"""`pnp build --shop P --cut M`: shop and cut files in the kit, listed by its manifest."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from pnpforge import build as kit
from pnpforge.errors import PnpError
from pnpforge.store import repo
from pnpforge.store.db import open_db

EXTRAS = kit.BuildOptions(dpi=30, shop="mpc", cut="silhouette", paper="letter")


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture
def built(mini_db: Path, tmp_path: Path) -> tuple[Path, dict, list[tuple[str, str]]]:
    """The mini game's kit with MakePlayingCards and Silhouette files, its manifest, its steps."""
    seen: list[tuple[str, str]] = []
    kit.build(mini_db, ["mini"], tmp_path / "a", EXTRAS, progress=lambda g, s: seen.append((g, s)))
    folder = tmp_path / "a" / "mini"
    return folder, json.loads((folder / "manifest.json").read_text(encoding="utf-8")), seen


def test_manifest_lists_shop_and_cut_files_with_hashes(built, mini_db: Path) -> None:
    folder, doc, seen = built
    listed = {f["path"]: f for f in doc["files"]}
    extra = {p for p in _tree(folder) if p.startswith(("shop/", "cut/"))}
    assert extra and extra <= set(listed)
    assert {p.split("/")[1] for p in extra} == {"mpc", "silhouette"}
    for path in extra:
        data = (folder / path).read_bytes()
        assert listed[path]["sha256"] == hashlib.sha256(data).hexdigest()
        assert listed[path]["bytes"] == len(data)
    printed = sum(c.copies for c in repo.list_cards(open_db(mini_db), "mini"))
    by_kind = lambda k: [f for f in doc["files"] if f["kind"] == k]  # noqa: E731
    assert sum(f["cards"] for f in by_kind("shop-image")) == printed
    [sheets] = by_kind("cut-sheets")
    assert sheets["cards"] == printed == sum(f["cards"] for f in by_kind("cut-file-svg"))
    assert len(by_kind("cut-file-svg")) == len(by_kind("cut-file-dxf")) == sheets["pages"]
    assert len(by_kind("shop-manifest")) == len(by_kind("cut-manifest")) == 1
    assert (doc["options"]["shop"], doc["options"]["cut"]) == ("mpc", "silhouette")
    assert sorted(s for _, s in seen) == sorted(kit.steps_of(EXTRAS))
    assert {"shop", "cut"} <= set(kit.steps_of(EXTRAS)) and "shop" not in kit.STEPS


def test_kit_with_extras_is_the_same_bytes_in_another_folder(built, mini_db: Path, tmp_path: Path) -> None:
    folder, _, _ = built
    kit.build(mini_db, ["mini"], tmp_path / "elsewhere" / "b", EXTRAS, jobs=2)
    assert _tree(folder) == _tree(tmp_path / "elsewhere" / "b" / "mini")


def test_plain_kit_manifest_names_no_extras(mini_db: Path, tmp_path: Path) -> None:
    opts = kit.BuildOptions(dpi=30)
    assert "shop" not in opts.to_dict() and "cut" not in opts.to_dict()
    assert set(kit.parts_of(opts)) == set(kit.PARTS) and kit.steps_of(opts) == kit.STEPS


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("--shop", "printshop", "(profiles: mpc, tgc, drivethru)"),
        ("--cut", "laser", "(machines: silhouette, cricut)"),
    ],
)
def test_unknown_profile_or_machine_is_one_line_listing_the_allowed(
    mini_db: Path, tmp_path: Path, run, option: str, value: str, allowed: str
) -> None:
    out = tmp_path / "out"
    res = run("--db", mini_db, "build", "mini", option, value, "-o", out, "--no-progress")
    assert res.exit_code != 0 and "Traceback" not in res.stderr
    [line] = res.stderr.strip().splitlines()
    assert value in line and allowed in line
    assert not out.exists() or not any(out.iterdir())
    bad_choice: dict[str, Any] = {option[2:]: value}
    with pytest.raises(PnpError, match=value):
        kit.build(mini_db, ["mini"], out, kit.BuildOptions(dpi=30, **bad_choice))


def test_a_preflight_error_fails_the_build_and_keeps_the_old_kit(mini_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    kit.build(mini_db, ["mini"], out, kit.BuildOptions(dpi=30))
    before = _tree(out / "mini")
    # the mini game's 44×67 mm 'spell' cards have no product at The Game Crafter
    with pytest.raises(PnpError, match=r"mini: preflight for tgc refused .*spell.*pnp preflight mini"):
        kit.build(mini_db, ["mini"], out, kit.BuildOptions(dpi=30, shop="tgc"))
    assert _tree(out / "mini") == before
    assert [p.name for p in out.iterdir()] == ["mini"]
