"""Every command and option has help; start-up stays off reportlab and Pillow."""

from __future__ import annotations

import subprocess
import sys

import click
import typer.main

from pnpforge.app import app


def _commands(group: click.Group, prefix: tuple = ()):
    for name, cmd in group.commands.items():
        yield prefix + (name,), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, prefix + (name,))


def test_every_command_and_option_has_help():
    root = typer.main.get_command(app)
    missing = []
    for path, cmd in _commands(root):
        if not (cmd.help or "").strip():
            missing.append(" ".join(path))
        for p in cmd.params:
            if isinstance(p, click.Option) and not (p.help or "").strip():
                missing.append(f"{' '.join(path)} {p.opts[0]}")
            if isinstance(p, click.Argument) and not (getattr(p, "help", "") or "").strip():
                missing.append(f"{' '.join(path)} {p.name}")
    assert missing == []


def test_help_runs_for_every_command(run):
    root = typer.main.get_command(app)
    for path, _ in _commands(root):
        r = run(*path, "--help")
        assert r.exit_code == 0, path
        assert "Usage" in r.stdout


def test_query_path_does_not_import_heavy_modules(shipped_db):
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom pnpforge.app import app\n"
        f"CliRunner().invoke(app, ['--db', {str(shipped_db)!r}, 'cards', 'search', 'x'])\n"
        "CliRunner().invoke(app, ['--help'])\n"
        "heavy = [m for m in ('reportlab', 'PIL', 'pypdfium2', 'fontTools') if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_python_dash_m(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pnpforge", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("pnpforge ")
