"""Every command and option is documented: a current generated reference, each command in the README."""

from __future__ import annotations

import os
import re
from pathlib import Path

import click
import typer.main

from clidoc import commands, reference
from pnpforge.app import app

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "docs" / "cli.md"


def test_command_reference_is_current() -> None:
    text = reference()
    if os.environ.get("PNP_UPDATE_DOCS") == "1":
        REFERENCE.write_text(text, encoding="utf-8")
    assert REFERENCE.is_file(), "docs/cli.md is missing (PNP_UPDATE_DOCS=1 pytest tests/test_docs.py)"
    assert REFERENCE.read_text(encoding="utf-8") == text, (
        "docs/cli.md is out of date: PNP_UPDATE_DOCS=1 pytest tests/test_docs.py regenerates it"
    )


def test_every_option_is_in_the_reference() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    root = typer.main.get_command(app)
    assert isinstance(root, click.Group)
    missing = [
        f"pnp {' '.join(path)} {opt}"
        for path, cmd in commands(root)
        for p in cmd.params
        if isinstance(p, click.Option) and p.name != "help"
        for opt in p.opts
        if f"`{opt}`" not in text
    ]
    assert missing == []


def test_readme_shows_every_top_level_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    root = typer.main.get_command(app)
    assert isinstance(root, click.Group)
    missing = [name for name in root.commands if not re.search(rf"\bpnp {re.escape(name)}\b", readme)]
    assert missing == [], f"README.md never shows these commands: {missing}"
