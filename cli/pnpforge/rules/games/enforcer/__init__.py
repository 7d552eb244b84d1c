"""Top Enforcement Officer (王牌執行官): rules engine.

A day (turn) is: clock in (draw 1) → morning and afternoon (one of execute an
obligor / take a project / study the files each) → evening (strategy cards
only) → discard to the hand limit.  Executing an obligor flips its objection
cards, then the player plays execution cards one by one and finally resolves:
total power ≥ difficulty succeeds and scores the obligor, anything less is a
penalty.  The game ends when fewer than four obligors can be kept on the table
(players then make up their projects) or when one player is left.

Card numbers, families, traits, weaknesses, copies and effect keys all come
from the database, so editing a card changes the next check.  Effect *rules*
live here, keyed by each card's `effect` field.  Where the rulebook leaves a
detail open the engine decides (the bundle's rule section 原型補充規則 says the
same):

* seat 0 starts (the rulebook: whoever last paid a tax or a fine);
* draws pick a card id at a chance node, weighted by copies left (a face-down
  pile is a multiset); an empty execution deck reshuffles the discard pile;
* objection cards are flipped when the execution is declared (扣押存款 flips
  one more when played) and all go back to their pile afterwards; the card with
  effect ``none`` (異議駁回) is the one 黑道酒店大亨 redraws on;
* weakness and 拍賣 doublings multiply; a 專股 bonus is +1 per execution; the
  拍賣 cards pair with the strongest 查封 cards at resolution (one each);
* 延緩執行 / 發布新聞 target obligors on the table and last until the start of
  the caster's next turn (or its elimination);
* an abandoned or replaced project returns to the table; an eliminated
  player's hand is discarded and its project returns to the table;
* 執行有愛: every player tied for the most helped 弱勢 obligors (at least one)
  gets the bonus;
* a safety cap on the number of turns (option ``max_turns``) ends a game that
  nobody moves forward, with the same make-up executions as a normal end.

Layout: `data` reads the cards, `rules` binds them to options, `state` holds a
position, `flow` runs the automatic part of a turn, `actions` lists legal
decisions, `effects` applies them, `power` does the execution arithmetic,
`observe` builds a seat's observation, `agents` the greedy heuristic on it (`memo`
keeps its execution arithmetic between decisions) and `invariants` checks a
position after every step of a checked game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnpforge.rules.kit import GameData, game_cards

from .data import SLUG, load_cards
from .rules import EnforcerRules
from .state import EnforcerState

__all__ = ["SLUG", "EnforcerRules", "EnforcerState", "make_rules"]


def make_rules(game: GameData, options: Mapping[str, Any] | None = None) -> EnforcerRules:
    """The enforcer engine bound to the game's cards as the kit read them (copies, numbers, effects)."""

    return EnforcerRules(game, load_cards(game_cards(game)), options or {})
