"""What one seat may see, and the greedy agent's one-step heuristic computed from it alone.

The observation holds plain values (ids, counts, tuples), never a pile or the
state, so an agent cannot reach another player's hand or the face-down decks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pnpforge.rules.engine import Observation

from .data import AID, DISCARD_COSTS, RESTRICTION, SEIZURE, STRATEGY, CardData, Obligor, Officer, PlayCard
from .power import difficulty, total_power, voided_families

if TYPE_CHECKING:
    from .state import EnforcerState


@dataclass(frozen=True)
class EnforcerObservation(Observation):
    """One seat's view: its own hand and dealt officers, everything face up, counts of the rest."""

    actor: int
    phase: str
    period: int
    hand: tuple[str, ...]  # own hand, card ids in the order they arrived
    dealt: tuple[str, ...]  # own two officers while choosing
    specialty_home: int  # own specialty cards beside the officer
    hand_sizes: tuple[int, ...]
    officers: tuple[str | None, ...]
    table: tuple[str, ...]  # obligor instances, e.g. 'OB-03#0'
    projects: tuple[str | None, ...]
    awards: tuple[tuple[str, ...], ...]
    scored: tuple[tuple[str, ...], ...]
    penalties: tuple[int, ...]
    eliminated: tuple[bool, ...]
    exposed: frozenset[str]
    delayed: frozenset[str]
    news: frozenset[str]
    execution_seat: int | None
    execution_target: str | None
    execution_source: str | None
    in_play: tuple[str, ...]
    objections_shown: tuple[str, ...]
    cancelled: frozenset[int]
    played_keys: frozenset[str]
    exec_deck_size: int
    obligor_deck_size: int


_NONE: frozenset[str] = frozenset()


def observe(st: EnforcerState, seat: int) -> EnforcerObservation:
    """Copy out what `seat` may see (values only, nothing that reaches back into the state).

    The piles' id and text tuples are cached by the kit until a pile changes, so most fields
    are reused from the previous observation rather than copied again.  The instance is filled
    in one step as `Observation.of` does, without its check that every field is named (a few
    microseconds at every decision); the tests check the fields instead.
    """
    zones = st.piles
    piles = zones.all_views()
    execution = st.execution
    mine = st.seat_names[seat]
    of_kind, ids, texts = st.piles_of_kind, zones.ids, zones.texts
    # one comprehension per field over every seat's pile of that kind (cheaper than a loop of appends)
    officers = tuple([pile[-1].card if (pile := piles[name]) else None for name in of_kind["officer"]])
    projects = tuple([str(pile[-1]) if (pile := piles[name]) else None for name in of_kind["project"]])
    obs = object.__new__(EnforcerObservation)  # as `Observation.of` builds it, without its per-call checks
    obs.__dict__.update(
        {
            "seat": seat,
            "actor": st.actor(),
            "phase": st.phase,
            "period": st.period,
            "hand": ids(mine["hand"]),
            "dealt": ids(mine["dealt"]),
            "specialty_home": len(piles[mine["specialty"]]),
            "hand_sizes": tuple([len(piles[name]) for name in of_kind["hand"]]),
            "officers": officers,
            "table": texts("table"),
            "projects": projects,
            "awards": tuple([ids(name) for name in of_kind["award"]]),
            "scored": tuple([texts(name) for name in of_kind["scored"]]),
            "penalties": tuple(st.penalties),
            "eliminated": tuple(st.out_of_game),
            "exposed": frozenset([str(c) for c in st.exposed]) if st.exposed else _NONE,
            "delayed": frozenset([str(c) for c, casters in st.delayed.items() if casters])
            if st.delayed
            else _NONE,
            "news": frozenset([str(c) for c, casters in st.news.items() if casters]) if st.news else _NONE,
            "execution_seat": execution.seat if execution else None,
            "execution_target": str(execution.target) if execution else None,
            "execution_source": execution.source if execution else None,
            "in_play": zones.ids("in_play"),
            "objections_shown": zones.ids("objection_shown"),
            "cancelled": frozenset(execution.cancelled) if execution and execution.cancelled else frozenset(),
            "played_keys": frozenset(st.played_keys) if st.played_keys else _NONE,
            "exec_deck_size": len(piles["exec_deck"]),
            "obligor_deck_size": len(piles["obligor_deck"]),
        }
    )
    return obs


class PotentialMemo:
    """Hand look-aheads already worked out, by everything they depend on: the hand, the cards
    played this turn and the own officer (the context, shared by every question of a decision),
    then the target, the source, the target's weakness and the 獎檢公告 cards.

    Consecutive decisions of a turn, and many turns, ask about the same hand against the same
    obligors; the answer is a pure function of the key, so it is shared across decisions and
    games.  Two levels so that a decision hashes its hand once, not once per question.
    Bounded: cleared when it holds more than `LIMIT` contexts.
    """

    LIMIT = 10_000

    def __init__(self) -> None:
        self._known: dict[tuple[object, ...], dict[tuple[object, ...], int]] = {}

    def of_context(self, context: tuple[object, ...]) -> dict[tuple[object, ...], int]:
        """The look-aheads known for this context (a live dict: the caller adds to it)."""
        known = self._known.get(context)
        if known is None:
            if len(self._known) >= self.LIMIT:
                self._known.clear()
            known = self._known[context] = {}
        return known


class Greedy:
    """The one-step heuristic: the value of an action to the seat observing, from its observation."""

    def __init__(self, cards: CardData, obs: EnforcerObservation, memo: PotentialMemo | None = None) -> None:
        self.cards = cards
        self.obs = obs
        self.memo = memo if memo is not None else PotentialMemo()
        self._candidates: list[tuple[str, PlayCard]] | None = None  # hand cards any execution may use
        self._spotlit: list[str] | None = None
        # what the power of the execution under way depends on besides the cards played
        self._execution: tuple[Obligor, bool, frozenset[str], Officer | None, int] | None = None
        self._now: tuple[int, int] | None = None  # (power, difficulty) of the execution under way
        # the hand's cards a look-ahead plays, costs paid, by (weak, immune, min_difficulty admitted)
        self._chosen: dict[tuple[bool, bool, tuple[bool, ...]], list[str]] = {}
        self._potentials: dict[tuple[object, ...], int] | None = None  # the memo's part for this hand
        self._floors: list[int] | None = None  # the least difficulty of each 'min_difficulty' candidate

    def obligor(self, instance: str) -> Obligor:
        return self.cards.obligor_at[instance]

    def weak(self, instance: str) -> bool:
        traits = self.obligor(instance).traits
        return "弱勢" in traits or ("假弱勢" in traits and instance not in self.obs.exposed)

    def spotlight(self, instance: str) -> bool:
        return "矚目" in self.obligor(instance).traits or instance in self.obs.news

    def spotlit(self) -> list[str]:
        """The 矚目 obligors on the table (passing one over costs a penalty), found once."""
        if self._spotlit is None:
            self._spotlit = [o for o in self.obs.table if self.spotlight(o)]
        return self._spotlit

    def execution_power(self, extra: list[str] | None = None) -> int:
        """Power of the execution under way, with `extra` card ids played as well (look-ahead)."""
        if self._execution is None:
            obs = self.obs
            seat, target = obs.execution_seat, obs.execution_target
            assert target is not None and seat is not None
            award = 0
            if obs.execution_source == "project" and obs.projects[seat] == target:
                award = sum(self.cards.play[cid].power for cid in obs.awards[seat])
            officer_id = obs.officers[seat]
            self._execution = (
                self.obligor(target),
                self.weak(target),
                frozenset(voided_families(self.cards, obs.objections_shown, obs.cancelled)),
                self.cards.officer[officer_id] if officer_id else None,
                award,
            )
        obligor, weak, voided, officer, award = self._execution
        played = [*self.obs.in_play, *extra] if extra else self.obs.in_play
        return total_power(self.cards, obligor, weak, played, voided, officer, award)

    def execution_difficulty(self) -> int:
        obs = self.obs
        assert obs.execution_target is not None
        return difficulty(self.cards, self.obligor(obs.execution_target), obs.objections_shown, obs.cancelled)

    # ---- look-ahead over the own hand --------------------------------------------------------

    def current(self) -> tuple[int, int]:
        """Power and difficulty of the execution under way (the same for every action asked about)."""
        if self._now is None:
            self._now = (self.execution_power(), self.execution_difficulty())
        return self._now

    def hand_potential(self, target: str, source: str) -> int:
        """Rough best power the hand could reach against `target` (costs paid from the hand)."""
        if source == "project" and self.obs.projects[self.obs.seat] != target:
            source = "table"  # no 獎檢公告 power: the same look-ahead as executing it from the table
        obs = self.obs
        weak = self.weak(target)
        known = self._potentials
        if known is None:
            known = self._potentials = self.memo.of_context(
                (obs.hand, obs.played_keys, obs.officers[obs.seat])
            )
        key = (
            self.cards.obligor_at[target].id,  # copies of one obligor look ahead alike
            source,
            weak,
            obs.awards[obs.seat] if source == "project" else (),
        )
        value = known.get(key)
        if value is None:
            value = known[key] = self._hand_potential(target, source, weak)
        return value

    def candidates(self) -> list[tuple[str, PlayCard]]:
        """The hand's cards, in hand order, that some execution could use whatever its target:
        no strategy card, and a 'requires_card' card only with its partner at hand or played."""
        if self._candidates is None:
            play, played_keys = self.cards.play, self.obs.played_keys
            hand_keys = {play[cid].key for cid in self.obs.hand}
            self._candidates = [
                (cid, card)
                for cid in self.obs.hand
                if (card := play[cid]).family != STRATEGY
                and not (
                    card.effect == "requires_card"
                    and not (card.requires in hand_keys or card.requires in played_keys)
                )
            ]
        return self._candidates

    def _hand_potential(self, target: str, source: str, weak: bool) -> int:
        obligor = self.obligor(target)
        immune = obligor.effect == "immune_restriction"
        # The cards kept depend only on the weakness, the immunity and which 'min_difficulty'
        # cards the difficulty admits: obligors alike in these share one selection per decision.
        floors = self._floors
        if floors is None:
            floors = self._floors = [c.value for _, c in self.candidates() if c.effect == "min_difficulty"]
        admitted = tuple([obligor.difficulty >= floor for floor in floors]) if floors else ()
        chosen = self._chosen.get((weak, immune, admitted))
        if chosen is None:
            chosen = self._chosen[weak, immune, admitted] = self.pay_costs(
                self._usable(obligor, weak, immune)
            )
        obs = self.obs
        award = 0
        if source == "project":  # hand_potential() asks for it only with the project's 獎檢公告 in play
            award = sum(self.cards.play[cid].power for cid in obs.awards[obs.seat])
        officer_id = obs.officers[obs.seat]
        officer = self.cards.officer[officer_id] if officer_id else None
        return total_power(self.cards, obligor, weak, chosen, _NONE, officer, award)

    def _usable(self, obligor: Obligor, weak: bool, immune: bool) -> list[str]:
        """The candidates that may be played against `obligor`, in hand order."""
        usable = []
        for cid, card in self.candidates():
            family = card.family
            if weak and (family == SEIZURE or family == RESTRICTION or card.effect == "not_vs_weak"):
                continue
            if not weak and family == AID:
                continue
            if family == RESTRICTION and immune:
                continue
            if card.effect == "min_difficulty" and obligor.difficulty < card.value:
                continue
            usable.append(cid)
        return usable

    def _payers(self, cid: str) -> set[str]:
        """The hand's card ids that can pay `cid`'s discard cost (管收: only 限制 cards)."""
        play = self.cards.play
        need_restriction = play[cid].effect == "discard_restriction_cost"
        return {o for o in self.obs.hand if not need_restriction or play[o].family == RESTRICTION}

    def pay_costs(self, usable: list[str]) -> list[str]:
        """Drop the cards a discard cost would eat (or the costly card when nothing can pay)."""
        play = self.cards.play
        chosen = sorted(usable, key=lambda cid: -play[cid].power)
        if not any(play[cid].effect in DISCARD_COSTS for cid in chosen):
            return chosen  # nothing to pay
        spare = Counter(self.obs.hand)
        spare.subtract(chosen)
        for cid in [c for c in chosen if play[c].effect in DISCARD_COSTS]:
            if cid not in chosen:
                continue
            payers = self._payers(cid)
            unused = [o for o, k in spare.items() if k > 0 and o in payers]
            if unused:  # pay with a card we would not play anyway
                spare[unused[0]] -= 1
                continue
            others = [o for o in chosen if o in payers]
            if cid in others and others.count(cid) == 1:
                others.remove(cid)
            if not others:
                chosen.remove(cid)
                continue
            chosen.remove(min(others, key=lambda o: play[o].power))
        return chosen

    # ---- values per kind of action -----------------------------------------------------------

    def value(self, action: Hashable) -> float:
        if not isinstance(action, tuple):
            return 0.0
        kind = action[0]
        if kind == "play":  # the commonest question, asked first
            return self.play_value(action)
        if kind == "officer":
            effect = self.cards.officer[action[1]].effect
            return {"specialist": 2.0, "master": 1.5, "draw_on_success": 1.2}.get(effect, 1.0)
        if kind in ("draw", "research"):
            return 0.5
        if kind in ("take_specialty", "research_sp", "veto"):
            return 1.0
        if kind == "execute":
            return self.execute_value(action[1])
        if kind == "project":
            return self.project_value(action[1])
        if kind == "strat":
            return self.strategy_value(action)
        if kind == "resolve":
            power, need = self.current()
            return 100.0 if power >= need else -20.0
        if kind in ("give", "discard"):
            card = self.cards.play[action[1]]
            return -float(card.power) - (1.0 if card.family == STRATEGY else 0.0)
        return 0.0  # end_turn

    def execute_value(self, target: str) -> float:
        obs = self.obs
        obligor = self.obligor(target)
        source = "project" if obs.projects[obs.seat] == target else "table"
        margin = self.hand_potential(target, source) - (obligor.difficulty + obligor.objections)
        cost = 0.0
        penalty = 2.0 + 2.0 * obs.penalties[obs.seat]  # worse the nearer elimination is
        if source == "table":
            if obs.projects[obs.seat] is not None:
                cost += penalty
            if not self.spotlight(target) and any(o != target for o in self.spotlit()):
                cost += penalty
        value = (2.0 + obligor.score) if margin >= 0 else -10.0 + margin
        return value - cost

    def project_value(self, target: str) -> float:
        if self.obs.projects[self.obs.seat] is not None:
            return -5.0  # replacing a project costs a penalty
        obligor = self.obligor(target)
        margin = self.hand_potential(target, "project") - obligor.difficulty
        return 0.3 + obligor.score / 10 if margin >= -3 else 0.0

    def strategy_value(self, action: tuple) -> float:
        card = self.cards.play[action[1]]
        if card.effect == "cowork":
            return 0.8
        if card.effect == "bonus_project":
            return 0.2 + self.obligor(action[2]).score / 10
        if card.effect == "assign_project":
            return -0.2 if action[3] == self.obs.seat else -1.0
        return -0.5

    def play_value(self, action: tuple) -> float:
        now, need = self.current()
        card = self.cards.play[action[1]]
        if card.effect == "cancel_objection" and action[2] >= 0:
            return 3.0
        if now >= need:
            return -1.0
        gain = float(self.execution_power([action[1]]) - now) + 0.1
        if card.effect == "extra_objection":
            gain -= 1.5  # risks another objection card
        if len(action) > 2 and isinstance(action[2], str):
            gain -= 0.5 * self.cards.play[action[2]].power  # the card paid as a cost
        return gain


def greedy_value(cards: CardData, obs: EnforcerObservation, action: Hashable) -> float:
    """One-step value of `action` for the observing seat (own hand and public information only)."""
    return Greedy(cards, obs).value(action)


class GreedyCache:
    """The agent asks about every legal action with the same observation: reuse its look-ahead."""

    def __init__(self, cards: CardData) -> None:
        self.cards = cards
        self.memo = PotentialMemo()
        self._last: Greedy | None = None

    def greedy(self, obs: EnforcerObservation) -> Greedy:
        """The heuristic for this observation (the one built for the last question when it is the same)."""
        if self._last is None or self._last.obs is not obs:
            self._last = Greedy(self.cards, obs, self.memo)
        return self._last

    def value(self, obs: EnforcerObservation, action: Hashable) -> float:
        return self.greedy(obs).value(action)
