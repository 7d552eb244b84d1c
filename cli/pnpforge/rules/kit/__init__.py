"""The engine kit: declared options, typed card-field readers, piles with conservation,
the game's cards and player counts (read once, given to engines as data), the event log and
observation purity.

Every game engine is built on these pieces (with `pnpforge.rules.engine` for the
GameRules/State/Observation interface), so the runner and the checker can rely
on the same guarantees for every game.
"""

from pnpforge.rules.kit.core import (
    CHANCE,
    TERMINAL,
    CardInstance,
    GameInfo,
    RuleViolation,
    UnknownEffect,
)
from pnpforge.rules.kit.events import EVENT_KINDS, Event, EventLog
from pnpforge.rules.kit.fields import (
    REQUIRED,
    DeckError,
    bool_field,
    enum_field,
    int_field,
    list_field,
    text_field,
)
from pnpforge.rules.kit.options import Option, option_args, parse_options
from pnpforge.rules.kit.players import GameData, check_players, game_cards, game_info, load_game
from pnpforge.rules.kit.purity import check_observation, observation_leak
from pnpforge.rules.kit.replay import replay
from pnpforge.rules.kit.zones import Zones, conservation_error

__all__ = [
    "CHANCE",
    "EVENT_KINDS",
    "REQUIRED",
    "TERMINAL",
    "CardInstance",
    "DeckError",
    "Event",
    "EventLog",
    "GameData",
    "GameInfo",
    "Option",
    "RuleViolation",
    "UnknownEffect",
    "Zones",
    "bool_field",
    "check_observation",
    "check_players",
    "conservation_error",
    "enum_field",
    "game_cards",
    "game_info",
    "int_field",
    "list_field",
    "load_game",
    "observation_leak",
    "option_args",
    "parse_options",
    "replay",
    "text_field",
]
