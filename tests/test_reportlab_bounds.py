"""The print tests on both ends of the reportlab pin (slow tier: two fresh virtual environments).

`render/reportlab_compat.py` touches reportlab internals; the pin in pyproject.toml is
upper-bounded so that a release we never tried cannot break printing.  This test runs
`bench/reportlab_bounds.sh`, which installs the lowest and the highest allowed reportlab in
their own environments and runs the print, shop and contract tests on each.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _pin_ends() -> tuple[str, str]:
    """The lowest version the pin allows and the highest release below its upper bound that the
    script names (the script's defaults must follow the pin: checked here)."""
    pin = re.search(r'"reportlab>=([\d.]+),<([\d.]+)"', (ROOT / "pyproject.toml").read_text())
    assert pin, "pyproject.toml pins reportlab as >=LOW,<HIGH"
    script = (ROOT / "bench" / "reportlab_bounds.sh").read_text()
    low = re.search(r"LOW=\$\{1:-([\d.]+)\}", script)
    high = re.search(r"HIGH=\$\{2:-([\d.]+)\}", script)
    assert low and high
    assert low.group(1) == pin.group(1), "the script's low end is the pin's"
    high_version = tuple(int(p) for p in high.group(1).split("."))
    upper = tuple(int(p) for p in pin.group(2).split("."))
    assert high_version < upper, "the script's high end is inside the pin"
    return low.group(1), high.group(1)


def test_the_script_follows_the_pin() -> None:
    _pin_ends()


@pytest.mark.slow
def test_print_tests_pass_on_both_ends_of_the_reportlab_pin(tmp_path: Path) -> None:
    low, high = _pin_ends()
    run = subprocess.run(
        ["sh", str(ROOT / "bench" / "reportlab_bounds.sh"), low, high],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert f"== reportlab {low}: passed" in run.stdout
    assert f"== reportlab {high}: passed" in run.stdout
