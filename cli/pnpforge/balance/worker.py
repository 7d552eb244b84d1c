"""What a worker does with a batch: rebuild the variant's engine from the deck bytes, play the games.

The same function runs in this process, in a local pool's worker or in a Ray task, so every
executor plays exactly the same games.  Engines are kept per (deck, variant, engine options): a
worker rebuilds each variant once, not once per batch.
"""

from __future__ import annotations

from typing import Any

from pnpforge.balance.plan import Batch
from pnpforge.balance.variants import apply_variant, in_memory
from pnpforge.rules.check import PlannedGame
from pnpforge.rules.runner import GameResult, play_game

Played = tuple[int, PlannedGame, GameResult]  # (variant index, planned game, its result)

_ENGINES: dict[tuple[Any, ...], Any] = {}
_DECK: dict[str, bytes] = {}  # deck digest -> database bytes, set once per pool worker


def remember_deck(digest: str, data: bytes) -> None:
    """Keep the deck bytes in this worker (the local pool's initializer)."""
    _DECK.clear()
    _DECK[digest] = data


def _engine(batch: Batch, data: bytes, options: dict[str, Any]) -> Any:
    key = (batch.deck_digest, batch.variant, tuple(sorted((k, str(v)) for k, v in options.items())))
    rules = _ENGINES.get(key)
    if rules is None:
        from pnpforge.rules.games import load_rules

        if len(_ENGINES) >= 256:
            _ENGINES.clear()
        db = in_memory(data)
        apply_variant(db, batch.slug, list(batch.varies), batch.variant)
        rules = _ENGINES[key] = load_rules(db, batch.slug, options)
    return rules


def play_batch(batch: Batch, data: bytes | None = None) -> list[Played]:
    """Play every game of `batch` on its variant; `data` defaults to the deck this worker keeps."""
    deck = data if data is not None else _DECK[batch.deck_digest]
    out: list[Played] = []
    agent_options = dict(batch.agent_options)
    for game in batch.games:
        options = {**dict(batch.engine_options), **({"mission": game.scenario} if game.scenario else {})}
        rules = _engine(batch, deck, options)
        result = play_game(
            rules, game.players, game.seed, list(game.agents), options=options, agent_options=agent_options
        )
        out.append((batch.variant_index, game, result))
    return out
