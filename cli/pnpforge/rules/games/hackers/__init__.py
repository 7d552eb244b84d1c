"""League of Hackers (駭客聯盟): rules engine.

Three rounds; in each, up to five action steps (four with two players).  In a
step every player with cards secretly picks one action board and puts cards
under it face down; the boards are then resolved install → defend → attack →
repair.  The secret choice is serialised: seats choose one after another and
each seat's observation keeps earlier choices hidden.

Card numbers (defence values and costs, attack tables, server holes, costs and
bonuses) and copies come from the database, so editing a card changes the
next check.  The effect *rules* (e.g. Trojan Horse: +2 attack) are the
rulebook's text and live here, keyed by each defence card's `effect` field.

Modules (the engine shape of CONTRIBUTING): `data` (cards → specs), `rules` (options and
the rules object), `board` (piles, servers, work queue), `actions` (deal, set-up, secret
choice, install, defend), `effects` (attack, repair, round end), `arithmetic` (attack and
defence arithmetic shared with the agents), `state` (the engine interface), `agents`
(observation and greedy values), `worlds` (sampled worlds for the search agent).

Where the rulebook leaves a detail open the engine decides, and says so here:
* the payment for Install is declared when choosing; at resolution the player
  buys any supply server it affords (Thin Provision cards are tapped only as
  needed); if none is affordable the cards go back to hand, as when the supply
  is empty;
* Incident Response cards are tapped only when the repair budget would not
  already remove all damage; Auto Recovery resolves before Certification Audit;
* the resolution order inside one action is fixed when that action begins;
* the virtual player (2 players) gains a server when a player owns more
  servers of the current round's level than it does; the other player picks
  it (and, at the limit, which old one it loses); its remainders are placed
  automatically;
* the virtual player counts as an opponent for attack VP and D-06/D-08;
* after the third round the damage stays on the servers, for the tie-break;
* the optional handicap rule (option `handicap`, extra cards per seat): the
  extra cards are drawn after everyone's eight, before the starting servers
  are chosen, and each such seat discards one card at a time back into the
  deck (the deck is random at every draw, so this is the rulebook's reshuffle).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnpforge.rules.kit import GameData, game_cards, game_info

from .data import load_catalogue
from .rules import SLUG, HackersRules

__all__ = ["SLUG", "HackersRules", "make_rules"]

MAX_STEPS = 2000


def make_rules(game: GameData, options: Mapping[str, Any]) -> HackersRules:
    """The engine bound to the League of Hackers cards the kit read; options are parsed and validated."""

    return HackersRules(load_catalogue(game_cards(game)), game_info(game, max_steps=MAX_STEPS), options)
