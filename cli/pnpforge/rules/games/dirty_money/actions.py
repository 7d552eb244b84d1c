"""Actions in words, for move logs and `pnp check --verbose`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpforge.rules.games.dirty_money.board import Step

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState

CARD_VERBS = {
    "pick": "pick",
    "resolve": "resolve",
    "overflow": "blacklist (hand limit)",
    "launder_discard": "launder away",
}


def card_name(state: DirtyMoneyState, card_id: str) -> str:
    rules = state.rules
    for table in (rules.placements, rules.money, rules.villains):
        if card_id in table:
            return f"{table[card_id].name} [{card_id}]"
    loc = rules.location_by_id.get(card_id)
    return f"{loc.name} [{card_id}]" if loc else card_id


def _chance_target(step: Step | None) -> str:
    if step is None:
        return ""
    if step.kind == "deal_villain":
        return f"for seat {step.seat}"
    if step.kind == "inspect":
        return f"from seat {step.data['target']}'s hand (inspection)"
    if step.kind == "launder":
        return f"for seat {step.seat} (launderer)"
    return f"to {step.data.get('dest', '?')}"


def describe_action(state: DirtyMoneyState, action: Any) -> str:
    """What a legal action of the current step does, in words."""
    step = state.stack[-1] if state.stack else None
    kind = action[0]
    if kind == "draw":
        return f"draw {card_name(state, action[1])} {_chance_target(step)}".rstrip()
    if kind == "go":
        return f"go to {card_name(state, action[1])}"
    if kind in CARD_VERBS:
        return f"{CARD_VERBS[kind]} {card_name(state, action[1])}"
    if kind == "pay":
        shark = " as $2 (loan shark)" if action[2] else ""
        return f"pay with {card_name(state, action[1])}{shark}"
    if kind == "trade_with":
        return f"choose seat {action[1]} to trade with (look at its hand)"
    if kind == "trade":
        if not action[2]:
            return f"look at seat {action[1]}'s hand"
        take, give = card_name(state, action[2]), card_name(state, action[3])
        return f"trade: take {take} from seat {action[1]}, give {give}"
    if kind == "target":
        return f"inspect seat {action[1]}"
    if kind == "bear_region":
        return f"set aside a {action[1]} placement card (Wall Street Bear)"
    return " ".join(str(part) for part in action)
