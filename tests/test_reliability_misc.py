"""Root causes 7 (the rest), 10 and the template design question of issue 21: the error boundary,
a failing engine set-up, template budgets and confinement, rule text in rules.md, and a
symlinked kit folder."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest

from pnpforge.commands import boundary
from pnpforge.errors import PnpError
from pnpforge.render import template_budget
from pnpforge.render.templating import sandboxed_environment


def test_an_unexpected_exception_is_one_line_naming_command_input_and_where_to_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PNP_DEBUG", raising=False)

    def broken() -> None:
        raise KeyError("surprise")

    with pytest.raises(SystemExit) as stop:
        boundary.run(broken, ["--db", "x.db", "cards", "show", "g", "A-1"])
    assert stop.value.code == boundary.EXIT_BUG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "pnp cards" in err and "pnp --db x.db cards show g A-1" in err and "KeyError" in err
    assert "report it to" in err and "--debug" in err


def test_debug_shows_the_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PNP_DEBUG", "1")
    with pytest.raises(SystemExit):
        boundary.run(lambda: 1 / 0, ["games"])
    assert "Traceback" in capsys.readouterr().err


def test_the_pnp_entry_point_goes_through_the_boundary(mini_db: Path, tmp_path: Path) -> None:
    # a bug injected into a real command, run as `python -m pnpforge`: one line, exit 70
    script = (
        "import sys; from pnpforge.store import repo\n"
        "def boom(*a, **k): raise RuntimeError('injected')\n"
        "repo.list_cards = boom\n"
        "from pnpforge.app import main\n"
        "sys.argv = ['pnp', '--db', sys.argv[1], 'cards', 'list', 'mini']; main()\n"
    )
    command = [sys.executable, "-c", script, str(mini_db)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 70 and "Traceback" not in done.stderr, done.stderr
    assert "pnp cards stopped on an unexpected problem (RuntimeError: injected)" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_engine_whose_set_up_raises_is_named(mini_db: Path, run) -> None:
    engine = mini_db.parent / "engines" / "mini"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text(
        "SLUG = 'mini'\n\ndef make_rules(game, options):\n    raise ValueError('set-up broke')\n",
        encoding="utf-8",
    )
    res = run("--db", mini_db, "check", "mini")
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "the rules engine of 'mini'" in res.stderr and "engines/mini/__init__.py" in res.stderr
    assert "ValueError: set-up broke" in res.stderr


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("{{ ('a'*10**6)*10**4 }}", "would pass the budget"),
        ("{{ 'x' * 10**9 }}", "would pass the budget"),
        ("{{ 7 ** 1000000 }}", "bits and was refused"),
        ("{{ '%0999999999d' % 1 }}", "format width"),
        ("{% for i in range(100000) %}{{ 'y' * 1000 }}{% endfor %}", "wrote more than"),
    ],
)
def test_a_template_past_its_size_budget_stops(source: str, words: str) -> None:
    with pytest.raises(template_budget.TemplateBudgetExceeded, match=words):
        sandboxed_environment().from_string(source).render()


def test_a_template_past_its_time_budget_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_TEMPLATE_SECONDS", "0.3")
    loops = "{% set r = range(100000) %}{% for a in r %}{% for b in r %}{% endfor %}{% endfor %}"
    with pytest.raises(template_budget.TemplateBudgetExceeded, match="ran longer than 0.3 s"):
        sandboxed_environment().from_string(loops).render()
    assert sandboxed_environment().from_string("{{ 1 + 1 }}").render() == "2"  # nothing left over


def test_template_trouble_in_a_summary_is_one_line_naming_the_template(mini_db: Path, run) -> None:
    templates = mini_db.parent / "templates" / "mini"
    templates.mkdir(parents=True)
    for body, words in (
        ("{{ range(10**9) }}", "Range too big"),
        ("{{ ('a'*10**6)*10**4 }}", "would pass the budget"),
    ):
        (templates / "summary.md.j2").write_text(body, encoding="utf-8")
        res = run("--db", mini_db, "rules", "mini", "--format", "md", "-o", "-")
        assert res.exit_code == 2 and words in res.stderr and "summary.md.j2" in res.stderr, res.output
        assert "Traceback" not in res.output and len(res.stderr.strip().splitlines()) == 1


def test_an_include_cannot_follow_a_link_out_of_templates(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET", encoding="utf-8")
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "leak.j2").symlink_to(outside / "secret.txt")
    (templates / "inner.j2").write_text("inner", encoding="utf-8")
    (templates / "page.j2").write_text("{% include 'inner.j2' %}|{% include 'leak.j2' %}", encoding="utf-8")
    env = sandboxed_environment(folders=[templates])
    assert env.get_template("inner.j2").render() == "inner"
    from jinja2 import TemplateNotFound

    with pytest.raises(TemplateNotFound, match="a link out of the templates folder"):
        env.get_template("page.j2").render()


def test_rule_text_from_a_bundle_is_escaped_in_rules_md(mini_db: Path, run, tmp_path: Path) -> None:
    exported = tmp_path / "game.json"
    assert run("--db", mini_db, "game", "export", "mini", "-o", exported).exit_code == 0
    import json

    bundle = json.loads(exported.read_text(encoding="utf-8"))
    hostile = "Draw <script>alert(1)</script> ![x](http://tracker.example/p.png) [y](javascript:1)"
    bundle["rules"][0]["body"] = hostile
    exported.write_text(json.dumps(bundle, ensure_ascii=False), encoding="utf-8")
    assert run("--db", mini_db, "game", "import", exported, "--replace").exit_code == 0
    md = run("--db", mini_db, "rules", "mini", "--format", "md", "-o", "-").stdout
    assert hostile not in md
    assert "Draw \\<script>alert(1)\\</script> !\\[x](http://tracker.example/p.png) \\[y](javascript:1)" in md


def test_a_symlinked_kit_folder_leaves_no_link_behind(mini_db: Path, tmp_path: Path) -> None:
    from pnpforge import build as kit

    out = tmp_path / "output"
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("mine", encoding="utf-8")
    out.mkdir()
    (out / "mini").symlink_to(target, target_is_directory=True)
    kit.build(mini_db, ["mini"], out)
    assert sorted(p.name for p in out.iterdir()) == ["mini"]  # no .mini.old-… left, link or folder
    assert (out / "mini").is_dir() and not (out / "mini").is_symlink()
    assert (out / "mini" / "manifest.json").is_file()
    assert (target / "keep.txt").read_text(encoding="utf-8") == "mine"  # the link's target untouched


def test_a_full_disk_while_writing_a_pdf_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnpforge.commands._common import os_error_message
    from pnpforge.render.pdf_canvas import atomic_output

    target = tmp_path / "sheet.pdf"
    with pytest.raises(OSError) as caught, atomic_output(target) as fh:
        fh.write(b"%PDF")
        raise OSError(errno.ENOSPC, "No space left on device")
    assert os_error_message(caught.value) == f"{target}: No space left on device"
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_errors_raised_are_pnp_errors() -> None:
    assert issubclass(template_budget.TemplateBudgetExceeded, PnpError)
