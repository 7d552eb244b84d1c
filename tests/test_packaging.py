"""A regular (non-editable) install ships the templates and prints what the checkout prints."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pnpforge.resources import shipped_templates, template_roots

REPO = Path(__file__).resolve().parents[1]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(REPO),
        ],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        pytest.fail(f"pip wheel failed: {proc.stderr[-2000:]}")
    (path,) = out.glob("pnpforge-*.whl")
    return path


def test_wheel_holds_every_template(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        f"pnpforge/templates/{p.relative_to(REPO / 'templates').as_posix()}"
        for p in (REPO / "templates").rglob("*")
        if p.is_file()
    }
    assert shipped, "the checkout has no templates"
    assert shipped <= names, f"missing from the wheel: {sorted(shipped - names)[:5]}"


def test_installed_copy_prints_the_same_pdf(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    db = tmp_path / "cards.db"
    db.write_bytes((REPO / "cards.db").read_bytes())
    outputs = {}
    for name, path in (("checkout", str(REPO / "cli")), ("installed", str(site))):
        pdf = tmp_path / f"{name}.pdf"
        env = {**os.environ, "PYTHONPATH": path}
        code = "import pnpforge.resources as r, sys; sys.stdout.write(str(r.shipped_templates()))"
        where = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path, check=True
        ).stdout
        assert Path(where).is_relative_to(Path(path).parent if name == "checkout" else site), where
        proc = subprocess.run(
            [sys.executable, "-m", "pnpforge", "--db", str(db), "print", "hackers", "-o", str(pdf)],
            env=env,
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert proc.returncode == 0, proc.stderr
        outputs[name] = _sha(pdf)
    assert outputs["installed"] == outputs["checkout"]


def test_project_templates_override_one_file_at_a_time(tmp_path: Path) -> None:
    project = tmp_path / "templates"
    (project / "hackers").mkdir(parents=True)
    (project / "hackers" / "server.toml").write_text("# the designer's own\n")
    roots = template_roots(project)
    assert roots.find("hackers/server.toml") == project / "hackers" / "server.toml"
    assert roots.find("hackers/attack.toml") == shipped_templates() / "hackers" / "attack.toml"
    names = [p.name for p in roots.files("hackers", "*.toml")]
    assert names == sorted(names) and "attack.toml" in names and names.count("server.toml") == 1


def test_a_template_path_cannot_climb_out(tmp_path: Path) -> None:
    from pnpforge.errors import PnpError

    with pytest.raises(PnpError, match="leaves the templates folder"):
        template_roots(tmp_path).find("../secrets.toml")
