"""The kit's one door to the database: the runner loads a game's cards and player counts here
once (`load_game`), and an engine receives them as plain data (`GameData`) and never reads the
database itself.  Player counts come from the games table, so an engine and `pnp games` never
disagree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.rules.kit.core import GameInfo
from pnpforge.store import repo

if TYPE_CHECKING:
    from pnpforge.model import Card


@dataclass(frozen=True)
class GameData:
    """What an engine's `make_rules(game, options)` is given: the game's cards in deck order and
    its player range, read from the database by the runner before the engine is made."""

    slug: str
    cards: tuple[Card, ...]
    players_min: int
    players_max: int


def load_game(db: sqlite_utils.Database, slug: str) -> GameData:
    """The game's cards and player range from the database (PnpError naming the game if it has no
    games row): the only place an engine's data is read."""
    game = repo.get_game(db, slug)
    return GameData(slug, tuple(repo.list_cards(db, slug)), game.players_min, game.players_max)


def game_cards(game: GameData, *, card_type: str | None = None) -> list[Card]:
    """The game's cards (of one type when `card_type` is given), in deck order, as the engine
    reads them with the kit's field readers.  The type is named (`card_type=`): an engine written
    for the old `game_cards(db, slug)` fails at set-up with a one-line error instead of reading
    its slug as a card type and getting no cards."""
    if card_type is None:
        return list(game.cards)
    return [card for card in game.cards if card.type == card_type]


def game_info(game: GameData, *, max_steps: int, cooperative: bool = False) -> GameInfo:
    """The engine's static facts: the player range of the database's games row."""
    return GameInfo(
        slug=game.slug,
        players_min=game.players_min,
        players_max=game.players_max,
        max_steps=max_steps,
        cooperative=cooperative,
    )


def check_players(info: GameInfo, players: int) -> None:
    """PnpError such as "GAME is for 2–4 players, got 5" when the count is outside the range."""
    if not info.players_min <= players <= info.players_max:
        span = (
            str(info.players_min)
            if info.players_min == info.players_max
            else f"{info.players_min}–{info.players_max}"
        )
        raise PnpError(f"{info.slug} is for {span} players, got {players}")
