"""The arithmetic of attacks and defence on plain values, shared by the rules and the agents.

The state resolves attacks with these functions and the greedy agent values
actions with the same ones on its observation, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .data import HOLE_CAPACITY, TROJAN_ATTACK, ZERO_DAY_DIRECT, Catalogue


# rulebook 002:348 「這張卡片提供所有顏色的防禦力１。」
def defence_in(catalogue: Catalogue, tableau_ids: Iterable[str], colour: str) -> int:
    """A player's defence in one colour: its cards of that colour plus Deep Security cards."""
    total = 0
    for card_id in tableau_ids:
        spec = catalogue.defence[card_id]
        if spec.effect == "deep_security" or spec.colour == colour:
            total += spec.defence
    return total


def virtual_defence(hole_lists: Iterable[Sequence[str]], colour: str) -> int:
    """The virtual player's defence in a colour: how many holes of it its servers have."""
    return sum(holes.count(colour) for holes in hole_lists)


def free_slots(servers: Iterable[tuple[Sequence[str], Sequence[int]]], colour: str) -> int:
    """Damage tokens the holes of this colour can still take."""
    return sum(
        HOLE_CAPACITY - damage[h] for holes, damage in servers for h, c in enumerate(holes) if c == colour
    )


# rulebook 002:330 「攻擊時，你這次的攻擊力＋２。本效果不能」
# rulebook 002:344 「攻擊時，本次攻擊增加２點直接傷害。」
def attack_strength(
    catalogue: Catalogue, tableau_ids: Iterable[str], card_id: str, pay: int, colour: str
) -> tuple[int, int]:
    """(attack, direct) after Trojan Horse and Zero-Day Attack in front of the attacker; effects stack."""
    attack, direct = catalogue.attack[card_id].strength(pay)
    for tableau_id in tableau_ids:
        spec = catalogue.defence[tableau_id]
        if colour in spec.effect_colours:
            if spec.effect == "trojan_horse":
                attack += TROJAN_ATTACK
            elif spec.effect == "zero_day_attack":
                direct += ZERO_DAY_DIRECT
    return attack, direct


def landed(attack: int, direct: int, defence: int, free: int) -> int:
    """Tokens that land: attack less defence, plus direct, up to the free slots."""
    return min(max(0, attack - defence) + direct, free)
