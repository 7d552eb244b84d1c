"""The hostile-case table: every case exits as expected, without a traceback, leaving the
database byte-identical wherever it was refused (and always for reads)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hostile_cases import all_cases  # noqa: E402
from hostile_run import make_template, run_case  # noqa: E402

CASES = all_cases()


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    return make_template(tmp_path_factory.mktemp("hostile"))


def test_the_table_has_at_least_300_cases():
    assert len(CASES) >= 300


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_case(case, template, tmp_path):
    outcome = run_case(case, template, tmp_path)
    assert not outcome.traceback, outcome.stderr
    assert outcome.ok, (outcome.exit_code, outcome.unchanged, outcome.stderr)
