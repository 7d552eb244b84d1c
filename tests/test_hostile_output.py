"""Output and art safety: atomic writes, confined file names, stale staging folders, art limits."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnpforge.artfile import MAX_ART_PIXELS, check_art, check_pixels
from pnpforge.errors import PnpError
from pnpforge.outfile import atomic_open, confined, remove_stale_staging, write_text


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as handle:
            handle.write(b"half of the new")
            raise RuntimeError("disk full")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


@pytest.mark.parametrize("name", ["../x.png", "a/b.png", "..", ".", "", "/etc/x", "a\0b"])
def test_file_names_from_ids_stay_in_their_folder(tmp_path, name):
    with pytest.raises(PnpError, match="inside"):
        confined(tmp_path, name)


def test_confined_accepts_plain_names(tmp_path):
    assert confined(tmp_path, "H-01.png") == tmp_path / "H-01.png"


def test_devices_and_folders_are_never_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (Path("/dev/null"), fifo, tmp_path):
        with pytest.raises(PnpError, match="cannot write"):
            write_text(target, "x")
    assert fifo.exists() and not fifo.is_file()


def test_stale_staging_folders_of_dead_builds_are_removed(tmp_path):
    dead = tmp_path / ".mini.building-999999999-abc"
    alive = tmp_path / f".mini.building-{os.getpid()}-abc"
    for folder in (dead, alive):
        folder.mkdir()
        (folder / "x.pdf").write_text("partial")
    removed = remove_stale_staging(tmp_path, ".mini.building-")
    assert removed == [dead] and not dead.exists() and alive.exists()


def test_art_must_be_a_regular_file_inside_an_allowed_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("PNP_ART_DIRS", raising=False)
    inside = tmp_path / "art.png"
    inside.write_bytes(b"x")
    check_art(inside, tmp_path)
    with pytest.raises(PnpError, match="outside"):
        check_art(Path("/etc/passwd"), tmp_path)
    fifo = tmp_path / "art-pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(PnpError, match="not a regular file"):
        check_art(fifo, tmp_path)
    monkeypatch.setenv("PNP_ART_DIRS", "/etc")
    check_art(Path("/etc/passwd"), tmp_path)


def test_art_pixel_limit():
    check_pixels(Path("ok.png"), 3000, 4000)
    with pytest.raises(PnpError, match="megapixels"):
        check_pixels(Path("bomb.png"), 12_500, 12_500)
    assert 12_500 * 12_500 > MAX_ART_PIXELS


def test_a_full_disk_is_one_line_naming_the_file_and_leaves_nothing(tmp_path):
    import errno

    target = tmp_path / "kit.pdf"
    target.write_text("old kit")
    with pytest.raises(PnpError, match=r"cannot write .*kit.pdf: No space left on device"):
        with atomic_open(target) as handle:
            handle.write(b"partial")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert target.read_text() == "old kit"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit.pdf"]


def test_cli_output_errors_are_one_line(run, mini_db, tmp_path):
    (tmp_path / "file.txt").write_text("x")
    for target in (tmp_path / "file.txt" / "x.csv", Path("/proc/x.csv"), tmp_path):
        r = run("--db", mini_db, "export", "mini", "-o", target)
        assert r.exit_code == 2 and r.stderr.startswith("Error: ") and len(r.stderr.splitlines()) == 1
        assert str(target) in r.stderr or str(target.parent) in r.stderr


def test_a_kit_set_aside_by_a_build_killed_mid_swap_comes_back(tmp_path):
    from pnpforge.kit_files import stage_dir

    aside = tmp_path / ".mini.old-999999999-abc"  # a dead build moved the kit aside, then died
    aside.mkdir()
    (aside / "manifest.json").write_text("{}")
    work = stage_dir(tmp_path, "mini")
    assert (tmp_path / "mini" / "manifest.json").read_text() == "{}" and not aside.exists()
    work.rmdir()
    again = tmp_path / ".mini.old-999999999-def"  # after a good swap: only a leftover, removed
    again.mkdir()
    stage_dir(tmp_path, "mini").rmdir()
    assert not again.exists() and (tmp_path / "mini").is_dir()
