"""Typer's own usage errors (missing argument, unknown option or command, bad value) read
like every other pnp error: one plain line naming the command and the problem, exit 2;
with the command's --json the line comes as {"error": ...} on standard output."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["cards", "show", "enforcer"],
            "Error: pnp cards show: missing argument 'CARD_ID'; see pnp cards show -h",
        ),
        (["cards", "show", "enforcer", "PEN", "--bogus"], "Error: pnp cards show: no such option '--bogus'"),
        (["nosuch"], "Error: pnp: no such command 'nosuch'; see pnp -h"),
        (["cards", "nosub"], "Error: pnp cards: no such command 'nosub'"),
        (["rules", "enforcer", "--paper"], "Error: pnp rules: option '--paper' requires an argument"),
        (["check", "enforcer", "--players", "abc"], "Error: pnp check: invalid value for '--players'"),
    ],
)
def test_usage_errors_are_one_plain_line(run, args, line):
    r = run(*args)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith(line), r.stderr
    assert "╭" not in r.stderr and "Usage:" not in r.stderr


def test_usage_error_with_json_is_json(run):
    r = run("cards", "show", "--json", "enforcer")
    assert r.exit_code == 2 and r.stderr == ""
    assert json.loads(r.stdout) == {
        "error": "pnp cards show: missing argument 'CARD_ID'; see pnp cards show -h",
        "exit": 2,
    }


def test_help_and_no_arguments_still_show_help(run):
    assert run("--help").exit_code == 0
    r = run("cards")  # a group without its command prints its help, exit 2 as before
    assert r.exit_code == 2 and "Usage" in r.stdout + r.stderr and "Error" not in r.stderr


def test_the_process_too():
    r = subprocess.run(
        [sys.executable, "-m", "pnpforge", "cards", "show", "enforcer"], capture_output=True, text=True
    )
    # the command is named as it was called
    assert r.returncode == 2 and r.stderr.startswith("Error: python -m pnpforge cards show: missing argument")
    assert len(r.stderr.strip().splitlines()) == 1


def test_an_option_missing_its_value_names_its_command_and_honours_json(run):
    r = run("check", "enforcer", "--json", "--players")  # click raises this one without a context
    assert r.exit_code == 2
    assert (
        json.loads(r.stdout)["error"]
        == "pnp check: option '--players' requires an argument; see pnp check -h"
    )
    plain = run("--db", "x.db", "rules", "enforcer", "--paper")  # `rules` has no --json: one line
    assert plain.stderr == "Error: pnp rules: option '--paper' requires an argument; see pnp rules -h\n"
