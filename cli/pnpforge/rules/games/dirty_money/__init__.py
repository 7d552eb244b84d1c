"""Rules engine for Dirty Money: The Money Laundering Game (洗钱), 2–5 players.

Everything the engine knows about cards comes from the database: placement cards
(region, cost, printed points, effect + effect_value, the art set table), locations
(player count, region, display size, buy limit), currency cards (currency, value, dirty
marks), action cards (effect, amount) and villains (order, effect, effect_value).  The
numbers that are rules rather than cards (hand limit 7, end at 10 / 8 placement cards,
location refills 1 / 2 up to 4, the extra −2 blacklist penalty) are constants in `data`.

The package has the engine shape of CONTRIBUTING: `data` reads the cards with the kit's
field readers, `rules` binds them to the declared options, `state` holds one position's data
and the engine interface, with `STEPS` naming each step kind's functions; the rules are
functions over the state in `board` (piles, owners, markers, the step stack, chance), `flow`
(set-up, rounds, turns), `action_cards` (action cards, the Launderer), `buying` (paying for
placement cards), `scoring` and `invariants`; `actions` puts actions into words, and `agents`
holds what a seat may see (its observation) and the greedy agent's values, computed from that
observation alone.

Readings where the rulebook is silent or ambiguous (each is one line to change):
* The money deck is reshuffled from the discard pile when it runs out.
* "弃卡" markers (blacklist, cards under placement cards, the overpay slot) come from the
  top of the discard pile, else from the money deck (恶棍卡 text).
* A crypto exchange discounts placement cards of its own region, wherever bought; a card's
  own effect does not trigger on its own purchase (a casino does not tuck for itself).
* Accounting firms, like law firms, each take a discard per audit.
* Each digital bank scores its own 1 point per card in hand.
* Blacklist: when every player ties, the tie counts as lowest (no −2 for anyone).
* The Launderer acts at the end of each of its own turns; the Loan Shark's $2 is once per
  turn; the Wall Street Bear chooses a region deck for each of its 3 cards and may buy
  one of them per visit to the Banana Republic.
* A game also ends after a round in which no placement card is left to buy.  A game still
  running after `max_rounds` rounds is a failure, not an ending: the deck cannot be finished
  (e.g. every placement card costs more than a hand can hold).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnpforge.rules.games.dirty_money.data import SLUG, art_set_score, read_cards
from pnpforge.rules.games.dirty_money.rules import DirtyMoneyRules
from pnpforge.rules.games.dirty_money.state import DirtyMoneyState
from pnpforge.rules.kit import GameData, game_cards, game_info

__all__ = ["SLUG", "DirtyMoneyRules", "DirtyMoneyState", "art_set_score", "make_rules"]


def make_rules(game: GameData, options: Mapping[str, Any] | None = None) -> DirtyMoneyRules:
    """Bind the engine to the game's cards as the kit read them (an edit changes the next check);
    options are validated."""

    cards = read_cards(game_cards(game))
    return DirtyMoneyRules(cards, game_info(game, max_steps=0), options or {})
