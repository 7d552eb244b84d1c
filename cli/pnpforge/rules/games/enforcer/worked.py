"""The rulebook's worked examples as the engine computes them: an execution's power and difficulty.

`pnp check` runs each example the game stores (table `examples`, runner
"engine") through `EnforcerRules.run_example`, so the numbers come from the
same arithmetic (`power`) the sample games use, under the options the example
declares.  A set-up names cards by id:

    {"obligor": "OB-18", "played": ["EX-notice", …], "objections": ["OBJ-flaw"],
     "cancelled": [0], "officer": "OF-tax", "exposed": false}

and the result is {"power": …, "difficulty": …, "success": power ≥ difficulty}.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnpforge.errors import PnpError

from .data import CardData
from .power import difficulty, total_power, voided_families

_KEYS = {"obligor", "played", "objections", "cancelled", "officer", "exposed"}


def _ids(setup: Mapping[str, Any], key: str, known: Mapping[str, Any], what: str) -> list[str]:
    ids = setup.get(key, [])
    if not isinstance(ids, list):
        raise PnpError(f"example set-up '{key}' must be a list of card ids")
    for cid in ids:
        if cid not in known:
            raise PnpError(f"example set-up '{key}' names '{cid}', which is not {what}")
    return list(ids)


def run_example(cards: CardData, setup: Mapping[str, Any]) -> dict[str, Any]:
    """Power and difficulty of the execution `setup` describes; PnpError naming a bad id or key."""
    unknown = sorted(set(setup) - _KEYS)
    if unknown:
        raise PnpError(
            f"example set-up: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(_KEYS))})"
        )
    obligor = cards.obligor.get(str(setup.get("obligor")))
    if obligor is None:
        raise PnpError(
            f"example set-up 'obligor' names '{setup.get('obligor')}', which is not an obligor card"
        )
    played = _ids(setup, "played", cards.play, "an execution or specialty card")
    shown = _ids(setup, "objections", cards.objection, "an objection card")
    cancelled = set(setup.get("cancelled", []))
    officer_id = setup.get("officer")
    officer = cards.officer.get(str(officer_id)) if officer_id else None
    if officer_id and officer is None:
        raise PnpError(f"example set-up 'officer' names '{officer_id}', which is not an officer card")
    weak = bool({"弱勢", "假弱勢"} & obligor.traits) and not (
        setup.get("exposed") and "假弱勢" in obligor.traits
    )
    voided = voided_families(cards, shown, cancelled)
    power = total_power(cards, obligor, weak, played, voided, officer, 0)
    needed = difficulty(cards, obligor, shown, cancelled)
    return {"power": power, "difficulty": needed, "success": power >= needed}
