"""The greedy agent's one-step heuristic, computed from one seat's observation alone.

The observation itself is built in `observe` (re-exported here, where its users look for it),
the look-ahead over the own hand in `lookahead` and what is kept between decisions in `memo`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from pnpforge.rules.engine import Observation

from .data import STRATEGY, CardData, Obligor, Officer
from .lookahead import HandLookahead
from .memo import ExecutionMemo
from .observe import EnforcerObservation, observe
from .power import added_power, difficulty, total_power, voided_families

__all__ = ["EnforcerObservation", "ExecutionMemo", "Greedy", "GreedyMemory", "observe"]


class Greedy(HandLookahead):
    """The one-step heuristic: the value of an action to the seat observing, from its observation
    (the look-ahead over the own hand, which execute and project actions ask, is inherited)."""

    __slots__ = ("_execution", "_memo", "_now", "_spotlit")

    def __init__(self, cards: CardData, obs: EnforcerObservation, memo: ExecutionMemo | None = None) -> None:
        super().__init__(cards, obs)
        self._memo = memo  # the previous decision's execution parts, when this agent keeps them
        self._spotlit: list[str] | None = None
        # what the power of the execution under way depends on besides the cards played
        self._execution: tuple[Obligor, bool, frozenset[str], Officer | None, int] | None = None
        self._now: tuple[int, int] | None = None  # (power, difficulty) of the execution under way

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

    def current(self) -> tuple[int, int]:
        """Power and difficulty of the execution under way (the same for every action asked about)."""
        if self._now is None:
            memo = self._memo
            if memo is None:
                self._now = (self.execution_power(), self.execution_difficulty())
            else:
                self._now = memo.current(self)
        return self._now

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
        obs = self.obs
        play, seat = self.cards.play, obs.seat
        # what every execute and project action of the decision reads, found at the first of them
        spotlit: list[str] | None = None
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
            elif kind == "execute" or kind == "project":
                if spotlit is None:
                    project, penalty = obs.projects[seat], 2.0 + 2.0 * obs.penalties[seat]
                    spotlit = self.spotlit()
                    obligor_at, potential = self.cards.obligor_at, self._potential
                target = action[1]
                obligor = obligor_at[target]
                if kind == "project":  # as project_value (no project of its own: the table's look-ahead)
                    if project is not None:
                        append(-5.0)
                    else:
                        margin = potential(obligor, target, "table") - obligor.difficulty
                        append(0.3 + obligor.score / 10 if margin >= -3 else 0.0)
                    continue
                # as execute_value
                need = obligor.difficulty + obligor.objections
                if project == target:
                    margin, cost = potential(obligor, target, "project") - need, 0.0
                else:
                    margin = potential(obligor, target, "table") - need
                    cost = penalty if project is not None else 0.0
                    if (
                        spotlit
                        and not ("矚目" in obligor.traits or target in obs.news)
                        and (len(spotlit) > 1 or spotlit[0] != target)
                    ):
                        cost += penalty
                append(((2.0 + obligor.score) if margin >= 0 else -10.0 + margin) - cost)
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
        source = "project" if project == target else "table"  # as hand_potential() would settle it
        margin = self._potential(obligor, target, source) - (obligor.difficulty + obligor.objections)
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


class GreedyMemory:
    """One greedy agent's memory from one decision to the next (the execution under way, which
    takes several decisions), made for that agent by the runner (`greedy_agent_values`): it
    lives with the agent, never on the rules every game shares."""

    __slots__ = ("cards", "_execution")

    def __init__(self, cards: CardData) -> None:
        self.cards = cards
        self._execution = ExecutionMemo()

    def values(self, obs: Observation, legal: Sequence[Hashable]) -> list[float]:
        """Every legal action valued by one look-ahead over the observation (a lone action is
        taken whatever its value, so it is not valued, as `EnforcerRules.greedy_values`)."""
        assert isinstance(obs, EnforcerObservation)
        if len(legal) < 2:
            return [0.0] * len(legal)
        return Greedy(self.cards, obs, self._execution).values(legal)
