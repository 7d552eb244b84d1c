"""The kit's one door to the database: an engine receives its cards and its player counts from
here and never reads the database itself.  Player counts come from the games table, so an engine
and `pnp games` never disagree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpforge.errors import PnpError
from pnpforge.rules.kit.core import GameInfo

if TYPE_CHECKING:
    from pnpforge.model import Card


def game_cards(db, slug: str, card_type: str | None = None) -> list[Card]:
    """The game's cards (of one type when `card_type` is given), in deck order, as the engine
    reads them with the kit's field readers."""
    from pnpforge.store import repo  # the kit reads the store; engines only ever see its cards

    return repo.list_cards(db, slug, card_type)


def game_info(db, slug: str, *, max_steps: int, cooperative: bool = False) -> GameInfo:
    """The engine's static facts: player range from the database's games row."""
    from pnpforge.store import repo

    game = repo.get_game(db, slug)
    return GameInfo(
        slug=slug,
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
