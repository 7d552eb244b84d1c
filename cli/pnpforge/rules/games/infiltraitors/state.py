"""One position of a mission: the engine interface over the table, effects and legal actions.

Chance is explicit: the deck is an unordered multiset (it is only ever
shuffled), so every card leaving it is a chance outcome, as are the set-up
deals and mission 12's choice of the sole eliminator.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Any

from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, RuleViolation, State
from pnpforge.rules.kit import Zones

from . import actions, board, effects, worlds
from .actions import Action
from .agents import SeatObservation, observe
from .board import (
    ASIDE,
    ASIDE_PILE,
    BOX,
    CENTRE,
    DECK,
    DISCARD_DOWN,
    DISCARD_UP,
    LINEUP,
    MISSION,
    REWARDS,
    SHARED,
    ChanceEvent,
)
from .data import Mission
from .memo import MEMO, READOUTS
from .rules import InfiltraitorsRules


class InfiltraitorsState(State):
    """One position: its data and the engine interface.  `stage` says what is being decided;
    `chance_queue` holds pending chance draws.  The rules are functions over it in `board`
    (piles and suspects), `actions` (what is legal) and `effects` (what actions and draws do)."""

    # Every attribute of a position as a slot: read through the class (a position has more
    # attributes than CPython keeps in a shared-key instance dict, whose reads are slower).
    __slots__ = (
        "_events", "actor", "bullets", "bullets_start", "chance_queue",
        "cover_piles", "eliminator", "extra_hints_left", "final_phase", "hand_piles", "hint_piles",
        "mission", "next_tile", "passes", "peeked", "piles", "players", "result", "rounds", "rules",
        "solved", "stage", "stand_piles", "suspects_total", "tile_of", "turn", "upright", "withdrawn"
    )  # fmt: skip

    def __init__(self, rules: InfiltraitorsRules, players: int) -> None:
        mission = rules.mission
        self.rules = rules
        self.mission: Mission = mission
        self.players = players
        self.hand_piles = [f"hand_{s}" for s in range(players)]
        self.stand_piles = [f"stand_{s}" for s in range(players)]
        self.cover_piles = [f"cover_{s}" for s in range(players)]
        self.hint_piles: dict[int, str] = {s: f"hints_{s}" for s in range(players)}
        self.hint_piles[ASIDE] = "hints_aside"
        self.piles = Zones(
            [DECK, LINEUP, ASIDE_PILE, DISCARD_UP, DISCARD_DOWN, SHARED, REWARDS, BOX, MISSION]
            + self.hand_piles
            + self.stand_piles
            + self.cover_piles
            + list(self.hint_piles.values())
        )
        self.piles.deal(rules.in_play, DECK)  # unordered: every draw is a chance outcome
        self.piles.deal(rules.box, BOX)
        self.piles.deal(rules.shared_specials, SHARED)
        self.piles.deal([rules.mission_card] if rules.mission_card else [], MISSION)
        self.piles.deal(rules.other_missions, BOX)
        self.upright: dict[CardInstance, bool] = {}  # orientation of each hint on the table
        self.tile_of: list[int | None] = [None] * players  # number tile beside each stand (missions 3, 14)
        self.next_tile = 1
        self.bullets_start = mission.bullet_count(players)
        self.bullets = self.bullets_start
        self.suspects_total = mission.suspect_count(players)
        self.solved = 0
        self.withdrawn = [False] * players
        self.peeked: set[int] = set()  # seats that looked at the aside suspect (mission 19)
        self.eliminator: int | None = None  # the only seat that may shoot (mission 12)
        self.final_phase = False  # mission 18: the last suspect, played with the pooled rewards
        self.turn = 0  # seat whose turn it is
        self.actor = 0  # seat deciding now (the turn's seat, or one discarding down)
        self.stage = "act"
        self.extra_hints_left = 0
        self.passes = 0
        self.result: tuple[str, str] | None = None  # ("win" | "lose", why)
        self.rounds = 0
        self.chance_queue: list[ChanceEvent] = []
        self.chance_queue = self._setup_events()
        self._announce_mission()

    def _announce_mission(self) -> None:
        mission = self.mission
        if self.rules.mission_card is not None:  # the card is used when the mission is completed
            self.outcome(
                None,
                f"mission {mission.id} {mission.name}: {self.suspects_total} suspects, "
                f"{self.bullets} bullets, suits {''.join(mission.suits)} "
                f"{mission.number_min}–{mission.number_max}",
                mission.id,
            )

    def _setup_events(self) -> list[ChanceEvent]:
        """Deal hands round by round, lay out the suspects (and the one aside), pick roles."""
        mission = self.mission
        events: list[ChanceEvent] = [
            ("deal", s) for _ in range(mission.hand_size) for s in range(self.players)
        ]
        aside = 1 if (mission.has("pooled_final") or mission.has("solo_final")) else 0
        events += [("suspect",)] * (self.suspects_total - aside) + [("aside",)] * aside
        if mission.has("sole_eliminator"):
            events.append(("eliminator",))
        return events

    # -- interface -------------------------------------------------------------------

    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        if self.chance_queue:
            return CHANCE
        return self.actor

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        won = self.result is not None and self.result[0] == "win"
        return [1.0 if won else 0.0] * self.players

    def scores_from_rules(self) -> list[float]:
        """Won iff every suspect is gone: none in the centre, on a stand or aside.

        Mission 19 ends at the final shot whatever is left on the table, so only
        the aside suspect counts there (it leaves only when that shot hits).
        """
        if self.mission.has("solo_final"):
            won = board.aside(self) is None
        else:
            won = board.unsolved(self) == 0
        return [1.0 if won else 0.0] * self.players

    def winners(self) -> list[int]:
        return list(range(self.players)) if self.returns()[0] > 0 else []

    def end_reason(self) -> str:
        return self.result[1] if self.result else "not over"

    def refresh(self) -> None:
        """Forget the kept legal actions and hints: call after arranging piles by hand (tests, puzzles)."""
        MEMO.forget(self)

    def legal_actions(self) -> list[Any]:
        readouts = READOUTS(self)
        if readouts.legal is None:
            readouts.legal = actions.compute_legal(self)
        return list(readouts.legal)

    def apply(self, action: Any) -> None:
        if self.result is not None:
            raise RuleViolation("the game is over")
        readouts = READOUTS(self)
        if readouts.legal is None:
            readouts.legal = actions.compute_legal(self)
        if not _is_legal(readouts.legal, action):
            raise RuleViolation(f"illegal action {action!r} at stage {self.stage}")
        # The hints view stays: the only two changes of a hint pile (`_place`, `_discard_hints`)
        # drop it themselves, and most steps (a draw, a burn) touch no hint.
        readouts.legal = None
        assert isinstance(action, tuple)
        if self.chance_queue:
            effects.resolve_chance(self, action)
        else:
            effects.decide(self, action)
        effects.settle(self)

    def zones(self) -> dict[str, list[CardInstance]]:
        return self.piles.as_dict()

    # -- sampled worlds (the search agent: see `worlds`) -----------------------------------------
    SHARED = ("rules", "mission")

    def card_zones(self) -> Zones:
        return self.piles

    def resample_from_infostate(self, seat: int, rng: random.Random) -> InfiltraitorsState:
        world = self.clone()
        worlds.redeal(world, seat, rng)
        MEMO.forget(world)  # what the copy read before its hidden cards were dealt afresh
        return world

    def observation(self, seat: int) -> SeatObservation:
        """What `seat` may see, copied into immutable values: all its agent receives."""
        return observe(self, seat)

    # -- checks ------------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Bullets in range, one suspect per stand, hints and covers only beside a suspect,
        number tiles on exactly the ordered stands, hand limits between turns, and every
        suspect either solved or still in play."""
        if not 0 <= self.bullets <= self.bullets_start:
            raise RuleViolation(f"bullets out of range: {self.bullets}")
        views = self.piles.all_views()  # len(views[name]): a pile's size without a method call
        settled = not self.chance_queue and self.result is None
        ordered = self.mission.has("ordered")
        limit = self.mission.hand_limit
        on_stands = 0
        for seat in range(self.players):
            on_stand = len(views[self.stand_piles[seat]])
            on_stands += on_stand > 0
            if on_stand > 1:
                raise RuleViolation(f"seat {seat} has {on_stand} suspects on its stand")
            if not on_stand and (len(views[self.cover_piles[seat]]) or len(views[self.hint_piles[seat]])):
                raise RuleViolation(f"seat {seat} has a cover card or hints but no suspect")
            if (self.tile_of[seat] is None) != (not on_stand or not ordered):
                raise RuleViolation(f"seat {seat}: number tile and suspect disagree")
            held = len(views[self.hand_piles[seat]])
            if held and self.withdrawn[seat]:
                raise RuleViolation(f"withdrawn seat {seat} still holds cards")
            if held > limit and settled and seat != self.turn:
                raise RuleViolation(f"seat {seat} holds {held} cards, limit {limit}")
        if len(views[self.hint_piles[ASIDE]]) and not len(views[ASIDE_PILE]):
            raise RuleViolation("hints beside an empty place (the aside suspect)")
        if settled:
            if self.withdrawn[self.actor]:
                raise RuleViolation(f"withdrawn seat {self.actor} is to act")
            unsolved = len(views[LINEUP]) + on_stands + len(views[ASIDE_PILE])
            if self.solved + unsolved != self.suspects_total:
                raise RuleViolation(
                    f"{self.solved} solved + {unsolved} unsolved suspects, mission has {self.suspects_total}"
                )
        if ordered:
            tiles = [t for t in self.tile_of if t is not None]
            if len(tiles) != len(set(tiles)):
                raise RuleViolation(f"number tiles repeated: {tiles}")

    # -- text --------------------------------------------------------------------------

    def action_text(self, action: Any) -> str:
        assert isinstance(action, tuple)
        kind = action[0]
        if kind == "card":
            what = self.chance_queue[0][0] if self.chance_queue else "card"
            return f"{what} {board.card_name(self, action[1])}"
        if kind == "seat":
            return f"seat {action[1]} is the sole eliminator"
        if kind == "hint":
            frm = "" if action[1] == self.actor else f" from seat {action[1]}'s hand"
            up = board.has_suspect(self, self.actor) and board.orientation(
                self, CardInstance(action[2], action[3]), self.actor
            )
            return f"給予提示 {board.card_name(self, action[2])}{frm}: {'upright' if up else 'sideways'}"
        if kind == "exchange":
            frm = "centre" if action[1] == CENTRE else f"seat {action[1]}'s hand"
            up = board.orientation(self, CardInstance(action[3], action[4]), action[2])
            to = board.place_name(self, action[2])
            return (
                f"交換情報 {board.card_name(self, action[3])} from {frm} to {to}: "
                f"{'upright' if up else 'sideways'}{', draw 1' if action[5] else ''}"
            )
        if kind == "eliminate":
            return f"剷除叛徒 {board.place_name(self, action[1])}: guess {action[2]} {action[3]}"
        if kind == "discard":
            return (
                f"hand limit: discard {board.card_name(self, board.hand(self, self.actor)[action[1]].card)}"
            )
        if kind == "reward":
            return f"reward: take {board.card_name(self, action[1])} from the discard pile"
        if kind == "wait":
            return f"等待時機: burn the top card, draw {action[1]}"
        if kind == "peek":
            return "look at the aside suspect and withdraw" if action[1] else "do not look"
        if kind == "extra_hint":
            where = "hand" if action[1] == 0 else "discard"
            return f"hint on the aside suspect with {board.card_name(self, action[2])} from {where}"
        return _FIXED_TEXT.get(kind, repr(action))


_FIXED_TEXT = {
    "take": "揪出嫌疑人 (take a suspect)",
    "reward_blind": "reward: take a face-down card from the discard pile",
    "reward_skip": "reward: take nothing",
    "pass": "pass (no legal action)",
}


def _is_legal(legal: list[Action], action: Any) -> bool:
    """Binary search in the sorted legal actions (an action of another shape is illegal)."""
    try:
        index = bisect_left(legal, action)
    except TypeError:
        return False
    return index < len(legal) and legal[index] == action
