"""`pnp build`: a whole kit per game, a manifest that tells the truth, safe replacement."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from dbcopies import shipped_copy
from pnpforge import build as kit
from pnpforge.docs import context
from pnpforge.errors import PnpError
from pnpforge.kit_files import GameKit
from pnpforge.store import repo
from pnpforge.store.db import open_db

FAST = kit.BuildOptions(dpi=30)  # small images: the tests check structure, not pixels


def _small_games(db_path: Path, n: int) -> list[str]:
    """The n games with the fewest distinct cards (fastest to build)."""
    db = open_db(db_path)
    games = [g.slug for g in repo.list_games(db)]
    return sorted(games, key=lambda g: (len(repo.list_cards(db, g)), g))[:n]


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@dataclass(frozen=True)
class BuiltKit:
    """One kit of the smallest game, built once for the module: the tests read it or copy it."""

    db: Path  # the database it was built from (tests that edit cards use their own copy)
    game: str
    out: Path  # the output folder holding `game/`
    kit: GameKit
    tree: dict[str, bytes]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuiltKit:
    """Building a whole kit takes seconds: once per module, not once per test."""
    base = tmp_path_factory.mktemp("kit")
    db_path = shipped_copy(base)
    [game] = _small_games(db_path, 1)
    [k] = kit.build(db_path, [game], base / "out", FAST)
    return BuiltKit(db_path, game, base / "out", k, _tree(base / "out" / game))


def _copy_kit(built: BuiltKit, out: Path) -> Path:
    """A private copy of the module's kit in `out/`, as an earlier `pnp build -o out` would leave it."""
    shutil.copytree(built.out / built.game, out / built.game, copy_function=shutil.copy2)
    return out


def test_manifest_lists_every_file_truthfully(built: BuiltKit) -> None:
    from pypdf import PdfReader

    game, folder = built.game, built.out / built.game
    assert Path(built.kit.directory) == folder
    doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert doc["format"] == kit.KIT_FORMAT and doc["game"] == game
    db = open_db(built.db)
    assert doc["database"]["sha256"] == context.content_hash(db, game)
    assert doc["database"]["dump_lines"] == len(context.dump_lines(db, game))
    listed = {f["path"]: f for f in doc["files"]}
    on_disk = {p for p in _tree(folder) if p != "manifest.json"}
    assert set(listed) == on_disk
    for path, f in listed.items():
        data = (folder / path).read_bytes()
        assert f["bytes"] == len(data) and f["sha256"] == hashlib.sha256(data).hexdigest()
        if path.endswith(".pdf"):
            assert f["pages"] == len(PdfReader(str(folder / path)).pages)
    kinds = {f["kind"] for f in doc["files"]}
    assert {
        "card-sheets",
        "helper-sheets",
        "rules-summary",
        "rules-summary-md",
        "card-image",
        "helper-image",
        "tts-sheet",
        "tts-readme",
    } <= kinds
    sheets = next(f for f in doc["files"] if f["kind"] == "card-sheets")
    assert sheets["cards"] == sum(c.copies for c in repo.list_cards(db, game))
    tts_cards = sum(f["cards"] for f in doc["files"] if f["kind"] == "tts-sheet")
    assert tts_cards == sheets["cards"]
    assert doc["totals"]["files"] == len(listed)
    # a kit is for sharing: no private temp-file permissions, no leftovers
    assert all(p.stat().st_mode & 0o044 for p in folder.rglob("*"))
    assert [p.name for p in built.out.iterdir()] == [game]


def test_rebuild_is_identical_and_follows_the_database(
    built: BuiltKit, shipped_db: Path, tmp_path: Path, run
) -> None:
    game, first = built.game, built.tree
    kit.build(shipped_db, [game], tmp_path / "a", FAST)
    assert _tree(tmp_path / "a" / game) == first  # another database file, another folder: same bytes
    card = next(c for c in repo.list_cards(open_db(shipped_db), game) if c.copies > 0)
    res = run("--db", shipped_db, "cards", "set", game, card.id, f"copies={card.copies + 1}")
    assert res.exit_code == 0, res.output
    kit.build(shipped_db, [game], tmp_path / "a", FAST)
    again = json.loads((tmp_path / "a" / game / "manifest.json").read_text(encoding="utf-8"))
    old = json.loads(first["manifest.json"])
    assert again["database"]["sha256"] != old["database"]["sha256"]
    sheets = lambda d: next(f for f in d["files"] if f["kind"] == "card-sheets")  # noqa: E731
    assert sheets(again)["cards"] == sheets(old)["cards"] + 1


def test_failed_build_leaves_the_previous_kit(
    built: BuiltKit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, out = built.game, _copy_kit(built, tmp_path / "out")
    before = _tree(out / game)

    def broken(*a, **kw):
        raise PnpError("simulated failure while writing the summary")

    from pnpforge.docs import summary

    monkeypatch.setattr(summary, "write_summary", broken)
    with pytest.raises(PnpError, match="simulated failure"):
        kit.build(built.db, [game], out, kit.BuildOptions(dpi=40))
    assert _tree(out / game) == before
    assert [p.name for p in out.iterdir()] == [game]  # the temporary folder is gone


def test_parallel_build_matches_serial(built: BuiltKit, tmp_path: Path) -> None:
    games = _small_games(built.db, 2)
    assert games[0] == built.game  # built serially by the module fixture
    seen: list[tuple[str, str]] = []
    kits = kit.build(
        built.db, games, tmp_path / "par", FAST, jobs=2, progress=lambda g, s: seen.append((g, s))
    )
    assert [k.game for k in kits] == games
    assert sorted(seen) == sorted((g, s) for g in games for s in kit.STEPS)
    assert _tree(tmp_path / "par" / games[0]) == built.tree
    assert built.kit.db_hash == kits[0].db_hash


def _mtimes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def test_unchanged_kit_is_kept_and_force_rebuilds_the_same_bytes(built: BuiltKit, tmp_path: Path) -> None:
    game, first, shipped_db = built.game, built.kit, built.db
    out = _copy_kit(built, tmp_path / "out")
    assert not first.unchanged
    tree, stamps = _tree(out / game), _mtimes(out / game)
    doc = json.loads(tree["manifest.json"])
    assert len(doc["inputs"]["sha256"]) == 64
    seen: list[tuple[str, str]] = []
    [again] = kit.build(shipped_db, [game], out, FAST, progress=lambda g, s: seen.append((g, s)))
    assert again.unchanged and _mtimes(out / game) == stamps  # nothing written
    assert sorted(seen) == sorted((game, s) for s in kit.STEPS)  # a progress bar still completes
    moved = {"unchanged": False, "directory": first.directory}  # the same kit, copied to another folder
    assert (again.to_dict() | moved) == first.to_dict()
    [forced] = kit.build(shipped_db, [game], out, FAST, force=True)
    assert not forced.unchanged and _mtimes(out / game) != stamps
    assert _tree(out / game) == tree  # a skipped kit is exactly what a full build writes


def test_changed_inputs_or_a_damaged_kit_rebuild(
    built: BuiltKit, shipped_db: Path, tmp_path: Path, run
) -> None:
    game, out = built.game, _copy_kit(built, tmp_path / "out")
    image = next((out / game / "images").glob("*.png"))
    image.unlink()  # a damaged kit is rebuilt, not trusted
    [k] = kit.build(shipped_db, [game], out, FAST)
    assert not k.unchanged and image.exists()
    [k] = kit.build(shipped_db, [game], out, kit.BuildOptions(dpi=31))  # other options
    assert not k.unchanged
    card = next(c for c in repo.list_cards(open_db(shipped_db), game) if c.copies > 0)
    res = run("--db", shipped_db, "cards", "set", game, card.id, f"copies={card.copies + 1}")
    assert res.exit_code == 0, res.output
    res = run("--db", shipped_db, "build", game, "-o", out, "--dpi", "31", "--no-progress")
    assert res.exit_code == 0 and "unchanged" not in res.output, res.output  # other data
    res = run("--db", shipped_db, "build", game, "-o", out, "--dpi", "31", "--no-progress")
    assert res.exit_code == 0 and "unchanged, nothing rebuilt" in res.output, res.output
    res = run("--db", shipped_db, "build", game, "-o", out, "--dpi", "31", "--no-progress", "--force")
    assert res.exit_code == 0 and "unchanged" not in res.output, res.output


def test_build_command_arguments(shipped_db: Path, tmp_path: Path, run) -> None:
    out = tmp_path / "out"
    res = run("--db", shipped_db, "build", "-o", out)
    assert res.exit_code == 2 and "--all" in res.output
    [game] = _small_games(shipped_db, 1)
    res = run("--db", shipped_db, "build", game, "--all", "-o", out)
    assert res.exit_code == 2
    res = run("--db", shipped_db, "build", "no-such-game", "-o", out)
    assert res.exit_code == 2 and "unknown game" in res.output
    res = run("--db", shipped_db, "build", game, "--paper", "a3", "-o", out)
    assert res.exit_code == 2 and "allowed" in res.output
    assert not out.exists() or not any(out.iterdir())
    res = run("--db", shipped_db, "build", game, "--dpi", "30", "-o", out, "--json")
    assert res.exit_code == 0, res.output
    [summary] = json.loads(res.stdout)
    assert summary["game"] == game and summary["files"] > 10


@pytest.mark.slow
def test_build_all_on_the_shipped_database(shipped_db: Path, tmp_path: Path, run) -> None:
    res = run("--db", shipped_db, "build", "--all", "-o", tmp_path, "--no-progress")
    assert res.exit_code == 0, res.output
    for g in repo.list_games(open_db(shipped_db)):
        doc = json.loads((tmp_path / g.slug / "manifest.json").read_text(encoding="utf-8"))
        assert doc["totals"]["files"] > 10


def test_a_rebuild_keeps_what_other_commands_wrote_and_drops_its_own_old_files(
    built: BuiltKit, tmp_path: Path
) -> None:
    """A build owns the files its manifest lists; tts-object's, watch's and proof's defaults survive it."""
    game = built.game
    out = _copy_kit(built, tmp_path / "out")
    kit_dir = out / game
    foreign = {
        "tts/linked/" + game + ".json": b"{}",  # tts-object's default
        "watch/" + game + "-proof.png": b"png",  # a running watch's default
        game + "-proof.png": b"proof",  # pnp proof's default
    }
    for rel, data in foreign.items():
        (kit_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (kit_dir / rel).write_bytes(data)
    doc = json.loads((kit_dir / "manifest.json").read_text(encoding="utf-8"))
    doc["files"].append({"path": "gone.pdf", "kind": "print", "bytes": 3, "sha256": "0" * 64})
    (kit_dir / "manifest.json").write_text(json.dumps(doc), encoding="utf-8")
    (kit_dir / "gone.pdf").write_bytes(b"old")  # a part an earlier build made and this one does not
    [again] = kit.build(built.db, [game], out, FAST, force=True)
    tree = _tree(kit_dir)
    assert {rel: tree.get(rel) for rel in foreign} == foreign
    assert "gone.pdf" not in tree
    listed = {f.path for f in again.files}
    assert not listed & set(foreign)  # carried, never claimed as the build's own
    assert _tree(kit_dir).keys() - set(foreign) == listed


def test_outputs_default_to_the_project_folder_not_the_working_directory(
    shipped_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """output/ sits beside the database, like templates/: a kit never lands where the shell stood."""
    from pnpforge.api import Project
    from pnpforge.render.sheet import PrintOptions

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    project = Project.open(shipped_db)
    manifest = project.print_cards("accusation", PrintOptions(card_type="leader"))
    assert Path(manifest.path) == shipped_db.parent / "output" / "accusation" / "accusation-leader-a4.pdf"
    assert Path(manifest.path).is_file() and not (elsewhere / "output").exists()
    [k] = kit.build(shipped_db, ["accusation"], None, FAST)
    assert Path(k.directory) == shipped_db.parent / "output" / "accusation"
    assert not (elsewhere / "output").exists()
