"""Accusation (控訴): rules engine for the two-player cult duel and the 2v2 mode.

Everything a card does comes from the database: its numbers (聲量, 災厄, 守護, 星塵,
駐守X, 解構X, symbols, ritual requirements) and its `effect` field, a small effect
language the engine interprets (`language.py`):

    effect   := section (" | " section)*
    section  := trigger ":" body
    trigger  := chant | on_garrison | on_deconstruct | action | play | ability
              | on_accuse | on_destroyed | after_chant_accused
              | stardust_change | stardust_extra      (bodies are steps)
              | passive                                (body: "key N; key N")
              | stardust_calamity                      (body: "N")
    body     := step (";" step)*
    step     := prefix* verb [N | type] [filter …]
    prefix   := may | if:SYMBOL>=N | if:done | per:SYMBOL/N

Readings the engine chose where the rulebook is silent or terse:

* Executed sections (chant, on_garrison, on_deconstruct, action, play, and a ritual's
  execution) carry the card's 災厄 and can be accused; triggered ones (on_accuse,
  on_destroyed, after_chant_accused) and leader abilities cannot.
* Steps resolve in reading order and the first one that cannot be carried out in full
  ends the effect (general rule 1); `each_*` steps keep going when only one side is
  unaffected (rule 1, example ii); `may` asks (rule 2); `per:` counts are fixed when
  the effect triggers while `if:` is tested once (rule 5).

The game is one generator (`flow.game`) that yields a `Decision` whenever a seat
or chance must choose; `apply()` sends the choice back.  Chance draws pick which card
leaves an unordered deck, so a shuffle is implicit and games are pure functions of
their action sequence (which is how `clone()` works).

Modules (the engine shape of CONTRIBUTING): `data` (cards, with `language`, the effect
parser), `rules` (options, physical cards), `state` (the position's data and the engine
interface), `actions` (the action vocabulary and decisions), the rules as functions over
the state: `board` (piles, marks), `arithmetic` (what they add up to), `effects`
(accusation and verbs), `flow` (turn sequence); `invariants`, `agents` (view, greedy hook).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnpforge.rules.games.accusation.actions import (
    ABILITY,
    ACCEPT,
    ACCUSE,
    ASIDE,
    CHOOSE,
    DECLINE,
    DECONSTRUCT,
    DISCARD,
    DRAW,
    END,
    FIRST,
    GARRISON,
    KEEP,
    LOC_ACTION,
    NO_ACCUSE,
    PLAY,
    RAID,
    RAID_WITH,
    REBUILD,
    RITUAL,
)
from pnpforge.rules.games.accusation.data import card_def
from pnpforge.rules.games.accusation.language import Effect, Step, parse_effect
from pnpforge.rules.games.accusation.rules import SLUG, STEPS_PER_SEAT, AccusationRules
from pnpforge.rules.kit import GameData, game_cards, game_info

__all__ = [
    "ABILITY",
    "ACCEPT",
    "ACCUSE",
    "ASIDE",
    "CHOOSE",
    "DECLINE",
    "DECONSTRUCT",
    "DISCARD",
    "DRAW",
    "END",
    "FIRST",
    "GARRISON",
    "KEEP",
    "LOC_ACTION",
    "NO_ACCUSE",
    "PLAY",
    "RAID",
    "RAID_WITH",
    "REBUILD",
    "RITUAL",
    "SLUG",
    "AccusationRules",
    "Effect",
    "Step",
    "make_rules",
    "parse_effect",
]


def make_rules(game: GameData, options: Mapping[str, Any] | None = None) -> AccusationRules:
    """The engine bound to the accusation cards the kit read (read at each check, so edits count)."""

    defs = [card_def(card) for card in game_cards(game)]
    return AccusationRules(defs, game_info(game, max_steps=STEPS_PER_SEAT * 2), options or {})
