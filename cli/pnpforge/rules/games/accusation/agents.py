"""What an Accusation seat may see, and the one-step greedy heuristic of sample games.

The observation is plain immutable data: the seat's own hand and the cards it
sacrificed, every public pile (区域介紹: 公開資訊), the marks on field cards and
the counts of hidden piles.  Cards are named by their index in the rules'
instance list, the same numbers the actions carry; which card an index is is
static knowledge (the rules), where it is and what is on it is in the observation.

The heuristic plays rituals first, then accusations and tempo; it reads only
the observation and the static card data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import Observation
from pnpforge.rules.games.accusation import arithmetic, board
from pnpforge.rules.games.accusation.actions import (
    ABILITY,
    ACCEPT,
    ACCUSE,
    ACTION_WORDS,
    ASIDE,
    CHOOSE,
    DECLINE,
    DECONSTRUCT,
    DISCARD,
    GARRISON,
    KEEP,
    LOC_ACTION,
    PLAY,
    RAID,
    RAID_WITH,
    REBUILD,
    RITUAL,
)
from pnpforge.rules.games.accusation.data import CardDef
from pnpforge.rules.kit.memo import Memo

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.rules import AccusationRules
    from pnpforge.rules.games.accusation.state import AccusationState

# Choices that hurt the card's owner: the greedy hook prefers enemy cards for these.
HARMFUL = {"destroy_follower", "destroy_location", "make_guilty", "bounce", "each_destroy_own_follower"}
TYPE_WORTH = {"ritual": 8.0, "leader": 6.0, "location": 4.0, "magic": 3.0}


def card_worth(definition: CardDef) -> float:
    """How much a card is worth keeping: type first, then volume and symbols."""
    extras = (definition.volume or 0) + len(definition.symbols)
    return TYPE_WORTH.get(definition.type, 2.0) + extras * 0.5


@dataclass(frozen=True)
class AccusationObservation(Observation):
    """Everything `seat` may see now; per-seat tuples are indexed by seat."""

    turn_seat: int
    actions_left: int
    decision: str  # the kind of decision asked ("main", "accuse", "choose", …; "terminal")
    purpose: str  # what a choice is for: the effect verb or the discard reason ("" if none)
    source: int  # the card whose effect may be accused (-1 outside accusation decisions)
    hand: tuple[int, ...]
    own_under: tuple[int, ...]  # the cards this seat sacrificed face down
    public: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]  # per seat: (pile, cards) of public piles
    guilty: frozenset[int]
    garrisoning: tuple[tuple[int, int], ...]  # (follower, location)
    deconstructing: tuple[tuple[int, int], ...]  # (follower, ritual)
    hand_counts: tuple[int, ...]
    deck_counts: tuple[int, ...]
    under_counts: tuple[int, ...]
    stardust: tuple[int, ...]
    guards: tuple[tuple[int, int], ...]  # (location on a field, its guard now)

    def pile(self, seat: int, name: str) -> tuple[int, ...]:
        """One public pile of `seat`."""
        return dict(self.public[seat])[name]


def observe(state: AccusationState, seat: int) -> AccusationObservation:
    """The observation of `seat`, copied out of the state into tuples (nothing of the state is kept).

    The instance is filled in one step as `Observation.of` does, without its check that every
    field is named (a few microseconds at every decision); the tests check the fields instead."""
    decision = state.decision
    obs = object.__new__(AccusationObservation)
    values = obs.__dict__
    values.update(shared_view(state))
    values.update(board.own_hidden(state, seat))
    values.update(TERMINAL_SHOWN if decision is None else decision.shown())
    values["seat"] = seat
    return obs


TERMINAL_SHOWN = {"decision": "terminal", "purpose": "", "source": -1}


class SharedView:
    """What a position's observations keep between decisions, outside the position: the fields
    every seat sees alike beside the key they were read at, and the marks as an observation shows
    them beside the marks they were read from."""

    __slots__ = ("fields", "marks")

    def __init__(self, state: AccusationState) -> None:
        self.fields: tuple[tuple[object, ...], dict[str, Any]] | None = None
        self.marks: tuple[object, object, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = (
            None,
            None,
            (),
            (),
        )


OBSERVED_MEMO: Memo[AccusationState, SharedView] = Memo(SharedView)
OBSERVED = OBSERVED_MEMO.of  # a position\'s observation read-outs (made on first use)


def shared_view(state: AccusationState) -> dict[str, Any]:
    """The observation fields every seat sees alike (all immutable values).  Consecutive decisions
    often come without a card moving or a mark changing (an accusation asked of each enemy, a
    'may' step): the fields are then reused rather than read again; and when something moved,
    each part is read again only if what it shows changed (see `board.publics`)."""
    key = (
        state.moves,
        state.guilty,
        state.garrisoning,
        state.deconstructing,
        state.turn_seat,
        state.actions_left,
    )
    view = OBSERVED(state)
    known = view.fields
    if known is not None and known[0] == key:
        return known[1]
    garrisoning, deconstructing = state.garrisoning, state.deconstructing
    marks = view.marks
    if marks[0] is not garrisoning or marks[1] is not deconstructing:
        marks = view.marks = (
            garrisoning,
            deconstructing,
            tuple(sorted(garrisoning.items())),
            tuple(sorted(deconstructing.items())),
        )
    hand_counts, deck_counts, under_counts = board.hidden_counts(state)
    fields = {
        "turn_seat": state.turn_seat,
        "actions_left": state.actions_left,
        "public": board.publics(state),
        "guilty": state.guilty,  # immutable: the state replaces it when it changes
        "garrisoning": marks[2],
        "deconstructing": marks[3],
        "hand_counts": hand_counts,
        "deck_counts": deck_counts,
        "under_counts": under_counts,
        "stardust": arithmetic.stardusts(state),
        "guards": arithmetic.guards(state),
    }
    view.fields = (key, fields)
    return fields


def greedy_value(rules: AccusationRules, obs: AccusationObservation, action: Any) -> float:
    """One-step heuristic for the greedy agent: rituals first, accusations, tempo."""
    if obs.decision == "terminal":
        return 0.0
    value = static_value(rules, action)
    return value if value is not None else _observed_value(rules, obs, action)


def greedy_values(rules: AccusationRules, obs: AccusationObservation, legal: Sequence[Any]) -> list[float]:
    """`greedy_value` of every action of one decision.  Most actions are worth the same whatever
    the observation (a play, an accusation, a discard of one card): the rules hold those values
    (`static_values`), and only the others read the observation."""
    if obs.decision == "terminal":
        return [0.0] * len(legal)
    known = rules.static_values
    values: list[float] = []
    for action in legal:
        value = known.get(action, UNKNOWN)
        if value is UNKNOWN:  # an action of more parts than a code and a card
            value = static_value(rules, action)
        values.append(value if value is not None else _observed_value(rules, obs, action))
    return values


UNKNOWN = -1.0e300  # not in `static_values` (no action is worth this)


def static_values(rules: AccusationRules) -> dict[tuple[int, ...], float | None]:
    """`static_value` of every action of a code alone or a code and a card instance: static data
    of the rules (the cards dealt to the boxes), worked out once when they are made."""
    table: dict[tuple[int, ...], float | None] = {}
    for code in ACTION_WORDS:
        table[(code,)] = static_value(rules, (code,))
        for index in range(len(rules.instance_defs)):
            table[(code, index)] = static_value(rules, (code, index))
    return table


def static_value(rules: AccusationRules, action: Any) -> float | None:
    """The heuristic's value of `action` when it depends on the action alone; None when the
    observation decides it (a decline, a raid, a choice, a magic card's play)."""
    code = action[0]
    fixed = FIXED_VALUES.get(code)
    if fixed is not None:
        return fixed
    if code == DECLINE:
        return None
    if len(action) < 2:
        return 0.0  # end the phase, keep the hand, do not accuse
    card = rules.instance_defs[action[1]]
    if code == ACCUSE:
        return 40.0 - (card.volume or 0)
    if code == PLAY:
        return None if card.type == "magic" else _play_value(None, card)
    if code in (RAID, CHOOSE):
        return None
    if code == RAID_WITH:
        return -float((card.volume or 0) + card.effect.passives.get("raid_bonus", 0))
    if code == ASIDE:
        return -5.0 if card.type == "ritual" else 0.5 - card_worth(card) * 0.1
    if code == DISCARD:
        return -card_worth(card)
    return 0.0


def _observed_value(rules: AccusationRules, obs: AccusationObservation, action: Any) -> float:
    """The value of an action `static_value` leaves to the observation."""
    code = action[0]
    if code == DECLINE:
        return -50.0 if obs.decision == "ritual" else 0.0
    card = rules.instance_defs[action[1]]
    if code == PLAY:
        return _play_value(obs, card)
    if code == RAID:
        return 18.0 + dict(obs.guards)[action[1]] * 0.2
    mine = rules_team(rules, rules.instance_owner[action[1]]) == rules_team(rules, obs.seat)
    return _choice_value(card, mine, obs.purpose)


def rules_team(rules: AccusationRules, seat: int) -> int:
    """The side of a seat: seats 0+2 and 1+3 in 2v2, each seat alone in a duel."""
    return seat % 2 if rules.players == 4 else seat


FIXED_VALUES = {
    RITUAL: 100.0,
    ABILITY: 20.0,
    REBUILD: 20.0,
    LOC_ACTION: 9.0,
    KEEP: 1.0,
    GARRISON: 2.0,
    DECONSTRUCT: 2.0,
    ACCEPT: 2.0,
}


def _play_value(obs: AccusationObservation | None, card: CardDef) -> float:
    """A card played from hand; only a magic card's value reads the observation (its stardust)."""
    if card.type == "ritual":
        return 30.0
    if card.type == "magic" and obs is not None:
        boosted = card.stardust is not None and obs.stardust[obs.seat] >= card.stardust
        return 8.0 + (3.0 if boosted else 0.0)
    return 10.0 + len(card.symbols) + (card.volume or 0) * 0.3


def _choice_value(card: CardDef, mine: bool, verb: str) -> float:
    worth = card_worth(card)
    if verb == "each_destroy_own_follower":
        return -worth
    if verb in HARMFUL:
        return (-10.0 - worth) if mine else (10.0 + worth)
    return worth
