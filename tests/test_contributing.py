"""CONTRIBUTING.md's "Adding a game" steps work exactly as written, engine included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _steps() -> str:
    """The shell block after the add-game marker."""
    lines = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("<!-- contributing:add-game -->") + 2
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[start:end])


def test_the_add_game_steps_run_as_written(tmp_path: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "REPO": str(REPO), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", _steps()], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "check passed" in proc.stdout
    manifest = json.loads((tmp_path / "output" / "sprint" / "manifest.json").read_text())
    assert manifest


def test_the_project_engine_plays_and_can_fail(tmp_path: Path) -> None:
    """The example engine is found beside the database, and a broken deck is caught."""
    from typer.testing import CliRunner

    from pnpforge.app import app

    db = tmp_path / "cards.db"
    run = CliRunner().invoke
    assert run(app, ["--db", str(db), "db", "init"]).exit_code == 0
    assert (
        run(app, ["--db", str(db), "game", "import", str(REPO / "tests/fixtures/sprint/game.json")]).exit_code
        == 0
    )
    (tmp_path / "engines").mkdir()
    subprocess.run(
        ["cp", "-r", str(REPO / "tests/fixtures/sprint/engines/sprint"), str(tmp_path / "engines")],
        check=True,
    )
    ok = run(app, ["--db", str(db), "check", "sprint", "--strict", "-n", "20"])
    assert ok.exit_code == 0, ok.output
    assert "Sample games: 20/20" in ok.output
    gone = run(app, ["--db", str(db), "cards", "set", "sprint", "R9", "copies=0"])
    assert gone.exit_code == 0, gone.output
    broken = run(app, ["--db", str(db), "check", "sprint", "--strict", "-n", "20"])
    assert broken.exit_code == 1
