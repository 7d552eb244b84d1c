"""Infiltraitors (滲透因子): cooperative deduction, 2–5 agents, 3 training missions and 20 missions.

Each agent holds at most one suspect card that only they can see; the others
deduce its suit and number from hints: cards placed beside it upright
(related: same suit, same number, or one number a factor/multiple of the
other) or sideways (unrelated).  A correct guess with the cardboard pistol
costs a bullet and removes the traitor; too few bullets, or an empty
headquarters deck with every hand spent, loses the mission.

Everything comes from the database: the numbered and special cards (suit,
number, the printed list of related numbers, the special cards' effect) and
the mission cards (suspects, bullets, suits, number range, hand size and
limit, number tiles, special-rule effect).  Pick the mission with
options={"mission": "M01"} (default) — "T1".."T3" are the training missions.

Chance is explicit: the deck is an unordered multiset (it is only ever
shuffled), so every card leaving it is a chance outcome.

Interpretations where the rulebook is silent (each is ours):
* 剷除叛徒 targets another agent's suspect: your own you already know.
* Orientation is always truthful: the engine places every hint by the rule.
* 等待時機 needs a card to discard; when an agent has no legal action at all
  (e.g. empty hand, empty deck, no suspect to act on) it passes, and a full
  round of passes ends the mission as a loss (a stalemate).
* Mission 6: a centre special card used for 交換情報 draws no card (no hand
  card was spent) and returns to the centre when its suspect is eliminated.
* Mission 15: a special card as suspect counts as number 1, which relates to
  no card by number (the printed relation lists stop at 2–15), only by suit.
* Mission 19/20: the OCR prints the '8 suspects + 1 aside, look and withdraw'
  rule under mission 20 (11 suspects); the database gives it to mission 19
  (9 = 8 + 1), and the engine follows the database.
* Talking bans (missions 4, 10, 11) and the real-time limit (training 3) do
  not change what simulated agents can do; they are known, and no-ops here.

What the engine depends on is checked when it loads (DeckError naming the
card or suit): each suit holds 2–15 exactly once and one special card, each
printed relation list is the factor/multiple rule, each mission's fields are
in range.  "Used" (the checker's never-used report) means a numbered or
special card played as a hint, and a mission card laid out as the mission;
the check plays every mission (`scenarios()`).

Package layout: `data` reads cards and missions through the engine kit's field
readers, `rules` binds one mission (options, scenarios, greedy hook), `board`
holds the piles (kit `Zones`) and counters, `actions` lists legal actions,
`effects` resolves them and records the events, `state` is the engine
interface, `agents` builds a seat's observation and `deduction` the greedy
heuristic over it.
"""

from __future__ import annotations

from typing import Any

from pnpforge.rules.kit import GameData

from .board import ASIDE, CENTRE
from .data import SLUG, factor_relations, mission_id, related
from .rules import InfiltraitorsRules
from .state import InfiltraitorsState

__all__ = [
    "ASIDE",
    "CENTRE",
    "SLUG",
    "InfiltraitorsRules",
    "InfiltraitorsState",
    "factor_relations",
    "make_rules",
    "mission_id",
    "related",
]


def make_rules(game: GameData, options: dict[str, Any] | None = None) -> InfiltraitorsRules:
    """The rules of the mission named in `options` (default M01), bound to the cards the kit read."""
    return InfiltraitorsRules(game, dict(options or {}))
