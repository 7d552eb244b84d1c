"""The greedy agent's one-step heuristic, computed from one seat's observation alone.

The observation itself is built in `observe` (re-exported here, where its users look for it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from .data import DISCARD_COSTS, RESTRICTION, STRATEGY, CardData, Obligor, Officer, PlayCard
from .observe import EnforcerObservation, observe
from .power import added_power, cards_power, difficulty, total_power, voided_families

__all__ = ["EnforcerObservation", "ExecutionMemo", "Greedy", "GreedyCache", "observe"]

_NONE: frozenset[str] = frozenset()


class ExecutionMemo:
    """The execution under way as the previous decision's look-ahead worked it out.

    An execution takes several decisions (play a card, another, resolve) over the same target,
    objections and officer; its parts and difficulty are kept while the observation's fields
    they are computed from stay equal, and its power while the cards in play stay the same.
    """

    __slots__ = ("difficulty", "key", "parts", "played", "power")

    def __init__(self) -> None:
        self.key: tuple[object, ...] | None = None
        self.parts: tuple[Obligor, bool, frozenset[str], Officer | None, int] | None = None
        self.difficulty = 0
        self.played: tuple[str, ...] | None = None
        self.power = 0

    def current(self, greedy: Greedy) -> tuple[int, int]:
        """`greedy`'s (power, difficulty), reusing what the previous decision worked out."""
        obs = greedy.obs
        seat = obs.execution_seat
        assert seat is not None
        key = (
            seat, obs.execution_target, obs.execution_source, obs.objections_shown, obs.cancelled,
            obs.officers[seat], obs.projects[seat], obs.awards[seat], obs.exposed,
        )  # fmt: skip
        if key != self.key:
            self.parts = greedy._execution_parts()
            self.difficulty = greedy.execution_difficulty()
            self.key, self.played = key, None
        greedy._execution = self.parts
        if self.played != obs.in_play:
            self.power = greedy.execution_power()
            self.played = obs.in_play
        return self.power, self.difficulty


class Greedy:
    """The one-step heuristic: the value of an action to the seat observing, from its observation."""

    __slots__ = (
        "_candidates", "_chosen", "_execution", "_floors", "_memo", "_now", "_officer", "_potentials",
        "_spotlit", "cards", "obs",
    )  # fmt: skip

    def __init__(self, cards: CardData, obs: EnforcerObservation, memo: ExecutionMemo | None = None) -> None:
        self.cards = cards
        self.obs = obs
        self._memo = memo  # the previous decision's execution parts, when this agent keeps them
        self._candidates: list[tuple[str, PlayCard]] | None = None  # hand cards any execution may use
        self._spotlit: list[str] | None = None
        # what the power of the execution under way depends on besides the cards played
        self._execution: tuple[Obligor, bool, frozenset[str], Officer | None, int] | None = None
        self._now: tuple[int, int] | None = None  # (power, difficulty) of the execution under way
        # the hand's cards a look-ahead plays, costs paid, by (weak, immune, min_difficulty admitted):
        # the cards, their keys (what weaknesses match) and their power when no weakness doubles
        self._chosen: dict[tuple[bool, bool, tuple[bool, ...]], tuple[list[str], set[str], int]] = {}
        # hand_potential by (obligor id, weak, source): asked twice per obligor on the table (execute
        # it, take it as a project), and copies of one obligor look ahead alike
        self._potentials: dict[tuple[str, bool, str], int] = {}
        self._floors: list[int] | None = None  # the least difficulty of each 'min_difficulty' candidate
        officer_id = obs.officers[obs.seat]
        self._officer: Officer | None = cards.officer[officer_id] if officer_id else None  # own officer

    def obligor(self, instance: str) -> Obligor:
        return self.cards.obligor_at[instance]

    def weak(self, instance: str) -> bool:
        traits = self.obligor(instance).traits
        return "弱勢" in traits or ("假弱勢" in traits and instance not in self.obs.exposed)

    def spotlight(self, instance: str) -> bool:
        return "矚目" in self.cards.obligor_at[instance].traits or instance in self.obs.news

    def spotlit(self) -> list[str]:
        """The 矚目 obligors on the table (passing one over costs a penalty), found once."""
        if self._spotlit is None:
            self._spotlit = [o for o in self.obs.table if self.spotlight(o)]
        return self._spotlit

    def _execution_parts(self) -> tuple[Obligor, bool, frozenset[str], Officer | None, int]:
        """What the power of the execution under way depends on besides the cards played."""
        obs = self.obs
        seat, target = obs.execution_seat, obs.execution_target
        assert target is not None and seat is not None
        award = 0
        if obs.execution_source == "project" and obs.projects[seat] == target:
            award = sum(self.cards.play[cid].power for cid in obs.awards[seat])
        officer_id = obs.officers[seat]
        return (
            self.obligor(target),
            self.weak(target),
            frozenset(voided_families(self.cards, obs.objections_shown, obs.cancelled)),
            self.cards.officer[officer_id] if officer_id else None,
            award,
        )

    def execution_power(self, extra: list[str] | None = None) -> int:
        """Power of the execution under way, with `extra` card ids played as well (look-ahead)."""
        if self._execution is None:
            self._execution = self._execution_parts()
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
            memo = self._memo
            if memo is None:
                self._now = (self.execution_power(), self.execution_difficulty())
            else:
                self._now = memo.current(self)
        return self._now

    def hand_potential(self, target: str, source: str) -> int:
        """Rough best power the hand could reach against `target` (costs paid from the hand).

        Worked out per decision: a hand seldom meets the same obligors twice (each decision
        draws or plays a card), so answers are not kept across decisions."""
        obs = self.obs
        if source == "project" and obs.projects[obs.seat] != target:
            source = "table"  # no 獎檢公告 power: the same look-ahead as executing it from the table
        obligor = self.cards.obligor_at[target]
        traits = obligor.traits  # weak(), inline: every execute and project question asks
        weak = "弱勢" in traits or ("假弱勢" in traits and target not in obs.exposed)
        key = (obligor.id, weak, source)
        value = self._potentials.get(key)
        if value is None:
            value = self._potentials[key] = self._hand_potential(target, source, weak)
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
        obligor = self.cards.obligor_at[target]
        immune = obligor.effect == "immune_restriction"
        # The cards kept depend only on the weakness, the immunity and which 'min_difficulty'
        # cards the difficulty admits: obligors alike in these share one selection per decision.
        floors = self._floors
        if floors is None:
            floors = self._floors = [c.value for _, c in self.candidates() if c.effect == "min_difficulty"]
        admitted = tuple([obligor.difficulty >= floor for floor in floors]) if floors else ()
        selection = self._chosen.get((weak, immune, admitted))
        if selection is None:
            chosen = self.pay_costs(self._usable(obligor, weak, immune))
            play = self.cards.play
            selection = self._chosen[weak, immune, admitted] = (
                chosen,
                {play[cid].key for cid in chosen},
                cards_power(self.cards, None, weak, chosen, _NONE),  # no weakness doubled
            )
        chosen, keys, power = selection
        weakness = obligor.weakness
        if weakness and weakness in keys:  # a card it is weak to doubles: worked out for this obligor
            power = cards_power(self.cards, weakness, weak, chosen, _NONE)
        obs = self.obs
        award = 0
        if source == "project":  # hand_potential() asks for it only with the project's 獎檢公告 in play
            award = sum(self.cards.play[cid].power for cid in obs.awards[obs.seat])
        officer = self._officer  # officer_bonus, inline: most officers give none
        if officer is not None and officer.effect == "specialist" and officer.category in obligor.categories:
            power += officer.value
        return power + award

    def _usable(self, obligor: Obligor, weak: bool, immune: bool) -> list[str]:
        """The candidates that may be played against `obligor`, in hand order."""
        difficulty, filters = obligor.difficulty, self.cards.play_filter
        usable = []
        for cid, _ in self.candidates():
            barred_weak, barred_strong, restriction, floor = filters[cid]
            if not (barred_weak if weak else barred_strong) and not (restriction and immune):
                if floor is None or difficulty >= floor:
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
        # strongest first, ties in hand order (a stable sort stays stable reversed)
        chosen = sorted(usable, key=self.cards.play_power.__getitem__, reverse=True)
        if self.cards.costly.isdisjoint(chosen):
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
        handler = _VALUES.get(action[0])
        return handler(self, action) if handler is not None else 0.0  # end_turn

    def values(self, legal: Sequence[Hashable]) -> list[float]:
        """`value` of every action of one decision, in one loop.  The kinds a period decision
        lists by the dozen (strategy cards on each obligor and seat, executions, projects) are
        valued inline; the tests check the loop against `value` action by action."""
        handlers = _VALUES
        play, seat = self.cards.play, self.obs.seat
        out: list[float] = []
        append = out.append
        for action in legal:
            if type(action) is not tuple:
                append(0.0)
                continue
            kind = action[0]
            if kind == "strat":  # as strategy_value
                effect = play[action[1]].effect
                if effect == "assign_project":
                    append(-0.2 if action[3] == seat else -1.0)
                elif effect == "cowork":
                    append(0.8)
                elif effect == "bonus_project":
                    append(0.2 + self.cards.obligor_at[action[2]].score / 10)
                else:
                    append(-0.5)
            elif kind == "execute":
                append(self.execute_value(action[1]))
            elif kind == "project":
                append(self.project_value(action[1]))
            else:
                handler = handlers.get(kind)
                append(handler(self, action) if handler is not None else 0.0)
        return out

    def _officer_value(self, action: tuple) -> float:
        effect = self.cards.officer[action[1]].effect
        return _OFFICER_VALUES.get(effect, 1.0)

    def _resolve_value(self, action: tuple) -> float:
        power, need = self.current()
        return 100.0 if power >= need else -20.0

    def _card_loss_value(self, action: tuple) -> float:
        """Giving or discarding a card: its power lost, a strategy card a little more."""
        card = self.cards.play[action[1]]
        return -float(card.power) - (1.0 if card.family == STRATEGY else 0.0)

    def _execute_value(self, action: tuple) -> float:
        return self.execute_value(action[1])

    def _project_value(self, action: tuple) -> float:
        return self.project_value(action[1])

    def execute_value(self, target: str) -> float:
        obs = self.obs
        seat = obs.seat
        obligor = self.cards.obligor_at[target]
        project = obs.projects[seat]
        source = "project" if project == target else "table"
        margin = self.hand_potential(target, source) - (obligor.difficulty + obligor.objections)
        cost = 0.0
        penalty = 2.0 + 2.0 * obs.penalties[seat]  # worse the nearer elimination is
        if source == "table":
            if project is not None:
                cost += penalty
            spotlit = self.spotlit()  # distinct obligors: another one is there unless it is the only one
            if spotlit and not self.spotlight(target) and (len(spotlit) > 1 or spotlit[0] != target):
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
        cid = action[1]
        card = self.cards.play[cid]
        if card.effect == "cancel_objection" and action[2] >= 0:
            return 3.0
        if now >= need:
            return -1.0
        obligor, weak, voided, _, _ = self._execution  # type: ignore[misc]  # set by current()
        added = added_power(self.cards, obligor, weak, cid, voided)
        if added is None:  # a 查封 or 拍賣: the pairing with the cards in play decides
            added = self.execution_power([cid]) - now
        gain = float(added) + 0.1
        if card.effect == "extra_objection":
            gain -= 1.5  # risks another objection card
        if len(action) > 2 and isinstance(action[2], str):
            gain -= 0.5 * self.cards.play[action[2]].power  # the card paid as a cost
        return gain


_OFFICER_VALUES = {"specialist": 2.0, "master": 1.5, "draw_on_success": 1.2}
_CONSTANT_VALUES = {"draw": 0.5, "research": 0.5, "take_specialty": 1.0, "research_sp": 1.0, "veto": 1.0}


def _constant(value: float) -> Callable[[Greedy, tuple], float]:
    """A handler giving the same value to every action of its kind."""
    return lambda greedy, action: value


# the value of an action by its kind (kinds not named, end_turn, are worth 0.0)
_VALUES: dict[object, Callable[[Greedy, tuple], float]] = {
    "play": Greedy.play_value,
    "officer": Greedy._officer_value,
    **{kind: _constant(value) for kind, value in _CONSTANT_VALUES.items()},
    "execute": Greedy._execute_value,
    "project": Greedy._project_value,
    "strat": Greedy.strategy_value,
    "resolve": Greedy._resolve_value,
    "give": Greedy._card_loss_value,
    "discard": Greedy._card_loss_value,
}


class GreedyCache:
    """The agent asks about every legal action with the same observation: reuse its look-ahead."""

    def __init__(self, cards: CardData) -> None:
        self.cards = cards
        self._last: Greedy | None = None
        self._execution = ExecutionMemo()

    def greedy(self, obs: EnforcerObservation) -> Greedy:
        """The heuristic for this observation (the one built for the last question when it is the same)."""
        if self._last is None or self._last.obs is not obs:
            self._last = Greedy(self.cards, obs, self._execution)
        return self._last

    def value(self, obs: EnforcerObservation, action: Hashable) -> float:
        return self.greedy(obs).value(action)
