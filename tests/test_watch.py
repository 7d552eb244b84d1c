"""`pnp watch`: rebuilds after an edit (debounced), reports failures and keeps going, stops on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from pnpforge.api import Project
from pnpforge.design.preview import PreviewServer
from pnpforge.design.watch import BuildResult, Watcher
from pnpforge.edit import set_card
from pnpforge.errors import PnpError
from pnpforge.store.db import open_db


def _watcher(db: Path, out: Path, what: str = "proof") -> tuple[Watcher, list[BuildResult]]:
    builds: list[BuildResult] = []
    watcher = Project.open(db, readonly=True).watch("mini", builds.append, what, out, 0.05, 0.2)
    return watcher, builds


def test_a_misspelt_game_or_a_bad_clock_is_refused_before_watching(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db, readonly=True)
    with pytest.raises(PnpError, match="unknown game 'mnii'"):
        project.watch("mnii", print)
    with pytest.raises(PnpError, match="--interval"):
        project.watch("mini", print, interval=0.0)
    with pytest.raises(PnpError, match="--what"):
        project.watch("mini", print, what="pdf")


def _touch_later(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def test_an_edit_rebuilds_once_after_the_quiet_period(mini_db: Path, tmp_path: Path) -> None:
    watcher, builds = _watcher(mini_db, tmp_path / "out")
    first = watcher.first_build()
    assert first.ok and first.files and Path(first.files[0]).is_file()
    assert watcher.step(now=100.0) is None  # nothing changed
    set_card(open_db(mini_db), "mini", "S-01", {"copies": "4"})
    _touch_later(mini_db)
    assert watcher.step(now=101.0) is None  # seen, waiting for quiet
    set_card(open_db(mini_db), "mini", "S-01", {"copies": "5"})
    _touch_later(mini_db)
    assert watcher.step(now=101.1) is None  # a second save restarts the wait
    assert watcher.step(now=101.2) is None
    result = watcher.step(now=101.4)
    assert result is not None and result.ok and result.number == 2 and "cards.db" in result.reason
    assert watcher.step(now=102.0) is None and len(builds) == 2


def test_a_broken_layout_is_reported_and_the_next_fix_rebuilds(mini_db: Path, tmp_path: Path) -> None:
    layouts = tmp_path / "templates" / "mini"
    layouts.mkdir(parents=True)
    watcher, builds = _watcher(mini_db, tmp_path / "out")
    watcher.first_build()
    (layouts / "spell.toml").write_text('[[regions]]\nname = "x"\nkind = "nonsense"\n', encoding="utf-8")
    watcher.step(now=10.0)
    broken = watcher.step(now=11.0)
    assert broken is not None and not broken.ok and "spell.toml" in broken.error
    (layouts / "spell.toml").write_text(
        '[[regions]]\nname = "t"\nkind = "text"\ntext = "{{ card.name }}"\nx = 3\ny = 3\nw = 20\nh = 8\n',
        encoding="utf-8",
    )
    _touch_later(layouts / "spell.toml")
    watcher.step(now=20.0)
    fixed = watcher.step(now=21.0)
    assert fixed is not None and fixed.ok, fixed


def test_images_redraw_only_the_changed_type(mini_db: Path, tmp_path: Path) -> None:
    watcher, _ = _watcher(mini_db, tmp_path / "out", "images")
    assert len(watcher.first_build().files) > 2
    set_card(open_db(mini_db), "mini", "S-01", {"copies": "4"})
    _touch_later(mini_db)
    watcher.step(now=1.0)
    result = watcher.step(now=2.0)
    assert result is not None and result.ok
    assert sorted(Path(f).name for f in result.files) == ["S-01.png", "back-spell.png"]


def test_preview_page_and_state(tmp_path: Path) -> None:
    (tmp_path / "g-proof.png").write_bytes(b"\x89PNG fake")
    state = BuildResult(
        3, True, 0.5, [str(tmp_path / "g-proof.png")], ["error: g/X: bad"], "", "cards.db changed"
    )
    server = PreviewServer("g", tmp_path, state.to_dict, port=0)
    server.start()
    try:
        page = urllib.request.urlopen(server.url, timeout=5).read().decode()
        assert "g-proof.png" in page and "error: g/X: bad" in page and "/state" in page
        assert json.loads(urllib.request.urlopen(server.url + "state", timeout=5).read())["build"] == 3
        assert urllib.request.urlopen(server.url + "files/g-proof.png", timeout=5).read() == b"\x89PNG fake"
    finally:
        server.stop()


def test_headless_watch_rebuilds_after_an_edit_and_stops_on_sigint(mini_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pnpforge",
            "--db",
            str(mini_db),
            "watch",
            "mini",
            "--no-serve",
            "--interval",
            "0.05",
            "--debounce",
            "0.1",
            "-o",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
    )
    # The test follows the child's own progress lines, not the clock; the watchdog only keeps a
    # stuck child from hanging the run (it is killed, its output ends, and the test fails).
    watchdog = threading.Timer(600, proc.kill)
    watchdog.start()
    seen: list[str] = []

    def wait_for(line_start: str) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            if line.split("] ", 1)[-1].startswith(line_start):
                return
        raise AssertionError(
            f"watch ended before {line_start!r}: {seen} {proc.stderr and proc.stderr.read()}"
        )

    try:
        wait_for("build 1:")
        proof = out / "mini-proof.png"
        first = proof.stat().st_mtime_ns
        set_card(open_db(mini_db), "mini", "S-01", {"name": "寒冰術"})
        wait_for("build 2:")
        assert proof.stat().st_mtime_ns != first
    finally:
        proc.send_signal(signal.SIGINT)
        rest, stderr = proc.communicate(timeout=600)
        watchdog.cancel()
    stdout = "".join(seen) + rest
    assert proc.returncode == 0, stderr
    assert "build 2" in stdout and "stopped after 2 build(s)" in stdout
    assert "Traceback" not in stderr


def test_a_misspelt_game_fails_at_once(run, shipped_db):
    """Like every other command: one line and exit 2, never a watch that polls for nothing."""
    r = run("--db", shipped_db, "watch", "enforcr", "--no-serve")
    assert r.exit_code == 2
    assert "unknown game 'enforcr'" in r.stderr


@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_a_port_outside_0_to_65535_is_a_usage_error(mini_db: Path, tmp_path: Path, port: str) -> None:
    """Checked before the OS sees it: one line and exit 2, never the crash boundary's exit 70."""
    proc = subprocess.run(
        [sys.executable, "-m", "pnpforge", "--db", str(mini_db), "watch", "mini", "--port", port],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert (
        proc.stderr.strip()
        == f"Error: --port must be a whole number from 0 to 65535 (0: any free port); got {port}"
    )
    assert not (tmp_path / "output").exists()
