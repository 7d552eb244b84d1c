"""`--executor ray` plays the same plan as the local pool: the same report, byte for byte.

Ray is an optional extra (`pip install 'pnpforge[cluster]'`) and starting it takes seconds, so
the comparison is in the slow tier and is skipped where Ray is not installed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dbcopies import SHIPPED_DB
from pnpforge.balance.executors import ExecutorChoice
from pnpforge.balance.experiment import BalanceOptions, run_balance


@pytest.mark.slow
def test_ray_gives_the_pool_s_report():
    pytest.importorskip("ray", reason="Ray is the optional extra pnpforge[cluster]")
    opts = {"games": 30, "players": 2, "agents": "greedy", "vary": ["follower.volume=*1.5"]}
    pool = run_balance(SHIPPED_DB, "accusation", BalanceOptions(executor=ExecutorChoice("local", 2), **opts))
    ray = run_balance(SHIPPED_DB, "accusation", BalanceOptions(executor=ExecutorChoice("ray", 2), **opts))
    assert json.dumps(ray["report"], sort_keys=True) == json.dumps(pool["report"], sort_keys=True)


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray":
            raise ImportError("no ray here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    from pnpforge.errors import PnpError

    with pytest.raises(PnpError, match=r"pnpforge\[cluster\]"):
        run_balance(
            SHIPPED_DB, "accusation", BalanceOptions(games=2, players=2, executor=ExecutorChoice("ray"))
        )
