"""Top Enforcement Officer (王牌執行官): rules engine.

A day (turn) is: clock in (draw 1) → morning and afternoon (one of execute an
obligor / take a project / study the files each) → evening (strategy cards
only) → discard to the hand limit.  Executing an obligor flips its objection
cards, then the player plays execution cards one by one and finally resolves:
total power ≥ difficulty succeeds and scores the obligor, anything less is a
penalty.  The game ends when fewer than four obligors can be kept on the table
(players then make up their projects) or when one player is left.

Card numbers, families, traits, weaknesses, copies and effect keys all come
from the database, so editing a card changes the next check.  Effect *rules*
live here, keyed by each card's `effect` field.  Where the rulebook leaves a
detail open the engine decides (the bundle's rule section 原型補充規則 says the
same):

* seat 0 starts (the rulebook: whoever last paid a tax or a fine);
* draws pick a card id at a chance node, weighted by copies left (a face-down
  pile is a multiset); an empty execution deck reshuffles the discard pile;
* objection cards are flipped when the execution is declared (扣押存款 flips
  one more when played) and all go back to their pile afterwards; the card with
  effect ``none`` (異議駁回) is the one 黑道酒店大亨 redraws on;
* weakness and 拍賣 doublings multiply; a 專股 bonus is +1 per execution; the
  拍賣 cards pair with the strongest 查封 cards at resolution (one each);
* 延緩執行 / 發布新聞 target obligors on the table and last until the start of
  the caster's next turn (or its elimination);
* an abandoned or replaced project returns to the table; an eliminated
  player's hand is discarded and its project returns to the table;
* 執行有愛: every player tied for the most helped 弱勢 obligors (at least one)
  gets the bonus;
* a safety cap on the number of turns (option ``max_turns``) ends a game that
  nobody moves forward, with the same make-up executions as a normal end.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Hashable

from pnpforge.errors import PnpError
from pnpforge.rules.engine import (CHANCE, TERMINAL, CardInstance, GameInfo, GameRules,
                                   RuleViolation, State, UnknownEffect)
from pnpforge.store import repo

SLUG = "enforcer"
CATEGORIES = ("稅", "健", "罰", "費")
START_HAND = 5
TABLE_SIZE = 4
HAND_LIMIT = 6
LOVE_BONUS = 4          # 執行有愛
JUSTICE_BONUS = 4       # 公義無礙
MORNING, AFTERNOON, EVENING = 0, 1, 2
PERIOD_NAMES = ("上午", "下午", "晚上")

GENERAL, SEIZURE, RESTRICTION, AID, STRATEGY = "一般", "查封", "限制", "扶助", "策略"

PLAY_EFFECTS = ("none", "draw", "expose", "cancel_objection", "slogan", "not_vs_weak",
                "extra_objection", "discard_cost", "double_seizure", "min_difficulty",
                "requires_card", "discard_restriction_cost")
STRATEGY_EFFECTS = ("cowork", "assign_project", "delay", "news", "bonus_project")
OBLIGOR_EFFECTS = ("none", "immune_restriction", "redraw_on_dismissed")
OBJECTION_EFFECTS = ("none", "difficulty_up", "void_family")
OFFICER_EFFECTS = ("specialist", "master", "draw_on_success", "veto_objection", "hand_limit",
                   "rookie_track")
OPTIONS = ("max_turns", "max_steps")


# ---- static card data --------------------------------------------------------------------

@dataclass(frozen=True)
class PlayCard:
    """An execution card or a specialty card (which plays as the card it copies)."""

    id: str
    name: str
    family: str
    power: int
    effect: str
    value: int
    requires: str | None
    key: str                 # what weaknesses and requirements match: the base card's id
    specialty: bool = False


@dataclass(frozen=True)
class Obligor:
    id: str
    name: str
    cats: frozenset[str]
    score: int
    difficulty: int
    traits: frozenset[str]
    objections: int
    weakness: str | None
    effect: str

    @property
    def big(self) -> bool:
        return "大戶" in self.traits


@dataclass(frozen=True)
class Objection:
    id: str
    name: str
    effect: str
    value: int
    family: str | None


@dataclass(frozen=True)
class Officer:
    id: str
    name: str
    family: str
    effect: str
    category: str | None
    specialty: str | None
    condition: str | None
    value: int


@dataclass(frozen=True)
class Track:
    """A penalty track: cumulative points lost after 1, 2, … penalties; then X."""

    cells: tuple[int, ...]

    @property
    def eliminate_at(self) -> int:
        return len(self.cells) + 1

    def loss(self, penalties: int) -> int:
        if penalties <= 0:
            return 0
        return self.cells[min(penalties, len(self.cells)) - 1]


def _int(card, name: str, default: int | None = None) -> int:
    value = card.fields.get(name, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' must be an integer "
                       f"(got {card.fields.get(name)!r})")
    return value


def _text(card, name: str, required: bool = True) -> str | None:
    value = card.fields.get(name)
    if value is None or value == "":
        if required:
            raise PnpError(f"{SLUG} card {card.id}: field '{name}' is missing")
        return None
    if not isinstance(value, str):
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' must be text (got {value!r})")
    return value


def _parse_track(card, name: str) -> Track:
    raw = _text(card, name) or ""
    cells = raw.split()
    if not cells or cells[-1].upper() != "X":
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' must list cells ending in X "
                       f"(got {raw!r})")
    try:
        values = tuple(int(c) for c in cells[:-1])
    except ValueError:
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' cells must be integers before "
                       f"the final X (got {raw!r})") from None
    if not values or any(v > 0 for v in values):
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' needs at least one cell, "
                       f"none positive (got {raw!r})")
    return Track(values)


class EnforcerRules(GameRules):
    """The enforcer rules bound to one database's cards."""

    def __init__(self, db, options: dict) -> None:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise PnpError(f"{SLUG}: unknown engine option(s) {', '.join(unknown)} "
                           f"(allowed: {', '.join(OPTIONS)})")
        game = repo.get_game(db, SLUG)
        self._unknown: list[UnknownEffect] = []
        self.play: dict[str, PlayCard] = {}
        self.obligor: dict[str, Obligor] = {}
        self.objection: dict[str, Objection] = {}
        self.officer: dict[str, Officer] = {}
        self.copies: dict[str, int] = {}
        self.kind: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.std_track: Track | None = None
        self.rookie_track: Track | None = None
        for card in repo.list_cards(db, SLUG):
            self.copies[card.id] = card.copies
            self.kind[card.id] = card.type
            self.names[card.id] = card.name
            loader = getattr(self, f"_load_{card.type}", None)
            if loader is None:
                raise PnpError(f"{SLUG} card {card.id}: card type '{card.type}' is unknown "
                               f"to the engine")
            loader(card)
        self._check_refs()
        try:
            # Measured: greedy games last at most ~42 turns and ~14 steps a turn; the caps
            # leave room for five times that before a game counts as stuck.
            max_turns = int(options.get("max_turns", 200))
            max_steps = int(options.get("max_steps", 10000))
        except (TypeError, ValueError):
            raise PnpError(f"{SLUG}: options max_turns and max_steps must be integers") from None
        if max_turns < 1 or max_steps < 100:
            raise PnpError(f"{SLUG}: max_turns must be ≥ 1 and max_steps ≥ 100")
        self.max_turns = max_turns
        self.info = GameInfo(slug=SLUG, players_min=game.players_min,
                             players_max=game.players_max, max_steps=max_steps,
                             options=dict(options))

    # -- loaders (one per card type) --

    def _effect(self, card, allowed: tuple[str, ...], default: str | None = None) -> str:
        effect = card.fields.get("effect", default)
        if not isinstance(effect, str) or not effect:
            raise PnpError(f"{SLUG} card {card.id}: field 'effect' is missing")
        if effect not in allowed:
            self._unknown.append(UnknownEffect(card.id, effect))
        return effect

    def _load_play(self, card, specialty: bool) -> None:
        family = _text(card, "family")
        if family not in (GENERAL, SEIZURE, RESTRICTION, AID, STRATEGY):
            raise PnpError(f"{SLUG} card {card.id}: family '{family}' is not one of "
                           f"一般, 查封, 限制, 扶助, 策略")
        allowed = STRATEGY_EFFECTS if family == STRATEGY else PLAY_EFFECTS
        effect = self._effect(card, allowed)
        power = _int(card, "power", 0)
        value = _int(card, "effect_value", 1)
        if effect in ("discard_cost", "discard_restriction_cost") and value != 1:
            raise PnpError(f"{SLUG} card {card.id}: the engine supports effect_value 1 for "
                           f"'{effect}' (got {value})")
        requires = _text(card, "requires", required=effect == "requires_card")
        key = _text(card, "base") if specialty else card.id
        self.play[card.id] = PlayCard(card.id, card.name, family, power, effect, value,
                                      requires, key or card.id, specialty)

    def _load_execution(self, card) -> None:
        self._load_play(card, specialty=False)

    def _load_specialty(self, card) -> None:
        self._load_play(card, specialty=True)

    def _load_obligor(self, card) -> None:
        cats = card.fields.get("category")
        if not isinstance(cats, list) or not cats or any(c not in CATEGORIES for c in cats):
            raise PnpError(f"{SLUG} card {card.id}: field 'category' must list 稅/健/罰/費 "
                           f"(got {cats!r})")
        traits = card.fields.get("traits") or []
        if not isinstance(traits, list):
            raise PnpError(f"{SLUG} card {card.id}: field 'traits' must be a list")
        objections = _int(card, "objections", 1 if "聲明異議" in traits else 0)
        if "聲明異議" not in traits:
            objections = 0
        elif objections < 1:
            raise PnpError(f"{SLUG} card {card.id}: has 聲明異議 but 'objections' is "
                           f"{objections} (must be ≥ 1)")
        self.obligor[card.id] = Obligor(
            card.id, card.name, frozenset(cats), _int(card, "score"), _int(card, "difficulty"),
            frozenset(traits), objections, _text(card, "weakness", required=False),
            self._effect(card, OBLIGOR_EFFECTS, "none"))

    def _load_objection(self, card) -> None:
        effect = self._effect(card, OBJECTION_EFFECTS)
        family = _text(card, "family", required=effect == "void_family")
        self.objection[card.id] = Objection(card.id, card.name, effect,
                                            _int(card, "effect_value", 0), family)

    def _load_officer(self, card) -> None:
        effect = self._effect(card, OFFICER_EFFECTS)
        self.officer[card.id] = Officer(
            card.id, card.name, _text(card, "family"), effect,
            _text(card, "category", required=effect == "specialist"),
            _text(card, "specialty", required=effect == "master"),
            _text(card, "condition", required=effect == "draw_on_success"),
            _int(card, "effect_value", 1 if effect != "hand_limit" else HAND_LIMIT))

    def _load_penalty(self, card) -> None:
        self.std_track = _parse_track(card, "track")
        self.rookie_track = _parse_track(card, "rookie_track")

    def _check_refs(self) -> None:
        for o in self.obligor.values():
            if o.weakness and o.weakness not in self.play:
                raise PnpError(f"{SLUG} card {o.id}: weakness '{o.weakness}' is not an "
                               f"execution card")
        for c in self.play.values():
            if c.requires and c.requires not in self.play:
                raise PnpError(f"{SLUG} card {c.id}: requires '{c.requires}' is not an "
                               f"execution card")
        for f in self.officer.values():
            if f.effect == "master" and self.kind.get(f.specialty or "") != "specialty":
                raise PnpError(f"{SLUG} card {f.id}: specialty '{f.specialty}' is not a "
                               f"specialty card")
        if self.std_track is None:
            raise PnpError(f"{SLUG}: the database has no penalty marker card (type 'penalty')")

    # -- GameRules interface --

    def instances(self, kind: str) -> list[CardInstance]:
        return [CardInstance(cid, i) for cid, k in self.kind.items() if k == kind
                for i in range(self.copies[cid])]

    def deck(self) -> list[CardInstance]:
        return [CardInstance(cid, i) for cid in self.kind for i in range(self.copies[cid])]

    def unknown_effects(self) -> list[UnknownEffect]:
        return list(self._unknown)

    def new_initial_state(self, players: int, rng: random.Random | None = None) -> EnforcerState:
        info = self.info
        if not info.players_min <= players <= info.players_max:
            raise PnpError(f"{SLUG} is for {info.players_min}–{info.players_max} players "
                           f"(asked for {players})")
        if len(self.instances("officer")) < 2 * players:
            raise PnpError(f"{SLUG}: {players} players need {2 * players} officer cards")
        if len(self.instances("penalty")) < players:
            raise PnpError(f"{SLUG}: {players} players need {players} penalty marker cards")
        return EnforcerState(self, players)


# ---- dynamic state -------------------------------------------------------------------------

@dataclass
class Execution:
    """The execution under way: who, against which obligor, from where."""

    seat: int
    target: CardInstance
    source: str                       # "table" or "project"
    final: bool = False               # a make-up execution at game end
    cancelled: set[int] = field(default_factory=set)   # indices into objection_shown


def _ci(text: str) -> CardInstance:
    cid, _, copy = text.rpartition("#")
    return CardInstance(cid, int(copy))


class EnforcerView:
    """What one seat may see: public zones, its own hand, the others' hand sizes.

    The greedy agent calls `greedy_value` on this view; it only reads the
    seat's own hand and public information.
    """

    def __init__(self, state: EnforcerState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def hand(self) -> list[str]:
        return sorted(ci.card for ci in self._state.hand[self.seat])

    @property
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._state.hand]

    @property
    def table(self) -> list[str]:
        return [str(ci) for ci in self._state.table]

    @property
    def projects(self) -> list[str | None]:
        return [str(p) if p else None for p in self._state.project]

    @property
    def scored(self) -> list[list[str]]:
        return [[str(ci) for ci in s] for s in self._state.scored]

    @property
    def penalties(self) -> list[int]:
        return list(self._state.penalties)

    def greedy_value(self, action: Hashable) -> float:
        return self._state.greedy_value(action)


class EnforcerState(State):
    """One position of a game of 王牌執行官."""

    def __init__(self, rules: EnforcerRules, players: int) -> None:
        self.r = rules
        self.n = players
        n = players
        self.hand: list[list[CardInstance]] = [[] for _ in range(n)]
        self.officer: list[CardInstance | None] = [None] * n
        self.cover: list[list[CardInstance]] = [[] for _ in range(n)]
        self.dealt: list[list[CardInstance]] = [[] for _ in range(n)]
        self.penalty_card: list[list[CardInstance]] = [[] for _ in range(n)]
        self.project: list[CardInstance | None] = [None] * n
        self.award: list[list[CardInstance]] = [[] for _ in range(n)]
        self.scored: list[list[CardInstance]] = [[] for _ in range(n)]
        self.specialty: list[list[CardInstance]] = [[] for _ in range(n)]
        self.exec_deck = rules.instances("execution")
        self.exec_discard: list[CardInstance] = []
        self.obligor_deck = rules.instances("obligor")
        self.table: list[CardInstance] = []
        self.objection_deck = rules.instances("objection")
        self.objection_shown: list[CardInstance] = []
        self.in_play: list[CardInstance] = []
        self.officer_deck = rules.instances("officer")
        self.penalty_supply = rules.instances("penalty")
        self.box = rules.instances("specialty")
        # per-player status
        self.tracks: list[Track] = [rules.std_track] * n  # type: ignore[list-item]
        self.penalties = [0] * n
        self.eliminated = [False] * n
        self.helped: list[set[CardInstance]] = [set() for _ in range(n)]
        self.points = [0] * n
        self.spec_owner: dict[CardInstance, int] = {}
        # obligor status
        self.exposed: set[CardInstance] = set()
        self.delayed: dict[CardInstance, set[int]] = {}
        self.news: dict[CardInstance, set[int]] = {}
        # flow
        self.phase = "setup"
        self.turn = 0
        self.period = MORNING
        self.choosing = 0
        self.queue: list[tuple] = []
        self.resume: str | None = None
        self.exec: Execution | None = None
        self.give_return = "period"
        self.played_keys: set[str] = set()
        self.veto_used = False
        self.award_block: CardInstance | None = None
        self.ending = False
        self.final_order: list[int] = []
        self.turns = 0
        self.reason = ""
        self.log: list[str] = []
        self._legal: list | None = None
        for seat in range(n):
            self.queue += [("officer", seat)] * 2
        self.resume = "choose_officers"
        self._run()

    # ---- small queries -------------------------------------------------------------------

    def ob(self, ci: CardInstance) -> Obligor:
        return self.r.obligor[ci.card]

    def weak(self, ci: CardInstance) -> bool:
        """弱勢, or 假弱勢 not yet exposed (the rulebook: treated exactly as 弱勢)."""
        t = self.ob(ci).traits
        return "弱勢" in t or ("假弱勢" in t and ci not in self.exposed)

    def spotlight(self, ci: CardInstance) -> bool:
        return "矚目" in self.ob(ci).traits or bool(self.news.get(ci))

    def affected(self, ci: CardInstance) -> bool:
        return bool(self.delayed.get(ci)) or bool(self.news.get(ci))

    def projectable(self, ci: CardInstance) -> bool:
        return ci in self.table and not self.ob(ci).big and not self.affected(ci)

    def officer_of(self, seat: int) -> Officer | None:
        ci = self.officer[seat]
        return self.r.officer[ci.card] if ci else None

    def hand_limit(self, seat: int) -> int:
        off = self.officer_of(seat)
        return off.value if off and off.effect == "hand_limit" else HAND_LIMIT

    def alive(self) -> list[int]:
        return [s for s in range(self.n) if not self.eliminated[s]]

    def actor(self) -> int:
        if self.phase == "officer":
            return self.choosing
        if self.phase == "exec" and self.exec:
            return self.exec.seat
        return self.turn

    # ---- State interface -------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "end":
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.actor()

    def is_terminal(self) -> bool:
        return self.phase == "end"

    def end_reason(self) -> str:
        return self.reason or "terminal"

    def legal_actions(self) -> list[Hashable]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        pile = self._chance_pile(self.queue[0])
        counts = Counter(ci.card for ci in pile)
        total = len(pile)
        return [(cid, counts[cid] / total) for cid in sorted(counts)]

    def apply(self, action: Hashable) -> None:
        if self.phase == "end":
            raise RuleViolation("the game is over")
        if action not in self.legal_actions():
            raise RuleViolation(f"illegal action {action!r} in phase {self.phase}")
        self._legal = None
        if self.queue:
            self._apply_chance(action)
        else:
            self._apply_decision(action)
        self._run()
        self._legal = None

    def zones(self) -> dict[str, list[CardInstance]]:
        z: dict[str, list[CardInstance]] = {
            "exec_deck": list(self.exec_deck), "exec_discard": list(self.exec_discard),
            "obligor_deck": list(self.obligor_deck), "table": list(self.table),
            "objection_deck": list(self.objection_deck),
            "objection_shown": list(self.objection_shown), "in_play": list(self.in_play),
            "officer_deck": list(self.officer_deck), "penalty_supply": list(self.penalty_supply),
            "box": list(self.box)}
        for s in range(self.n):
            z[f"hand:{s}"] = list(self.hand[s])
            z[f"officer:{s}"] = [self.officer[s]] if self.officer[s] else []
            z[f"cover:{s}"] = list(self.cover[s])
            z[f"dealt:{s}"] = list(self.dealt[s])
            z[f"penalty:{s}"] = list(self.penalty_card[s])
            z[f"project:{s}"] = [self.project[s]] if self.project[s] else []
            z[f"award:{s}"] = list(self.award[s])
            z[f"scored:{s}"] = list(self.scored[s])
            z[f"specialty:{s}"] = list(self.specialty[s])
        return z

    def hidden_view(self, seat: int) -> EnforcerView:
        return EnforcerView(self, seat)

    def cards_played(self) -> list[str]:
        return list(self.log)

    # ---- scoring ---------------------------------------------------------------------------

    def _love_winners(self, helped_counts: list[int]) -> set[int]:
        alive = self.alive()
        best = max((helped_counts[s] for s in alive), default=0)
        return {s for s in alive if best > 0 and helped_counts[s] == best}

    def returns(self) -> list[float]:
        """Final points: obligor scores + 執行有愛 + 公義無礙 − the penalty track's loss."""
        love = self._love_winners([len(h) for h in self.helped])
        out = []
        for s in range(self.n):
            cats = set().union(*(self.ob(ci).cats for ci in self.scored[s])) \
                if self.scored[s] else set()
            total = self.points[s] + self.tracks[s].loss(self.penalties[s])
            total += LOVE_BONUS if s in love else 0
            total += JUSTICE_BONUS if cats >= set(CATEGORIES) else 0
            out.append(float(total))
        return out

    def scores_from_rules(self) -> list[float]:
        """Recomputed from the zones alone: scored piles, penalty cards and the helped set."""
        helped_counts = [sum(1 for ci in self.scored[s] if ci in self.helped[s])
                         for s in range(self.n)]
        love = self._love_winners(helped_counts)
        out = []
        for s in range(self.n):
            base = sum(self.r.obligor[ci.card].score for ci in self.scored[s])
            cats: set[str] = set()
            for ci in self.scored[s]:
                cats |= self.r.obligor[ci.card].cats
            off = self.officer_of(s)
            track = self.r.rookie_track if off and off.effect == "rookie_track" \
                else self.r.std_track
            bonus = (LOVE_BONUS if s in love else 0) + \
                (JUSTICE_BONUS if all(c in cats for c in CATEGORIES) else 0)
            out.append(float(base + bonus + track.loss(self.penalties[s])))  # type: ignore
        return out

    def winners(self) -> list[int]:
        """Highest score among players still in; ties: more obligors, then fewer penalties."""
        if not self.is_terminal():
            return []
        scores = self.returns()
        alive = self.alive()
        if not alive:
            return []
        key = {s: (scores[s], len(self.scored[s]), -self.penalties[s]) for s in alive}
        best = max(key.values())
        return [s for s in alive if key[s] == best]

    # ---- the automatic part of the flow ----------------------------------------------------

    def _chance_pile(self, task: tuple) -> list[CardInstance]:
        kind = task[0]
        if kind == "draw":
            return self.exec_deck
        if kind == "reveal":
            return self.obligor_deck
        if kind == "objection":
            return self.objection_deck
        return self.officer_deck

    def _run(self) -> None:
        """Advance through automatic steps until a decision, a chance node or the end."""
        while self.phase != "end":
            if self.queue:
                task = self.queue[0]
                if task[0] == "draw" and not self.exec_deck and self.exec_discard:
                    self.exec_deck, self.exec_discard = self.exec_discard, []
                if self._chance_pile(task):
                    return
                self.queue.pop(0)      # nothing left to draw: the draw is lost
                continue
            if self.resume is None:
                return
            token, self.resume = self.resume, None
            getattr(self, f"_resume_{token}")()

    def _resume_choose_officers(self) -> None:
        self.phase = "officer"
        self.choosing = 0

    def _resume_start_game(self) -> None:
        self._begin_turn(0)

    def _resume_morning(self) -> None:
        self.phase = "period"
        self.period = MORNING

    def _resume_next_period(self) -> None:
        self._next_period()

    def _resume_stay(self) -> None:
        """After a strategy card's draws/reveals: the same phase goes on unless the game ended."""
        self._check_end()

    def _resume_give(self) -> None:
        """After 協同辦案's draws: give one card away (skipped when nothing can be given)."""
        seat = self.actor()
        if self._give_actions(seat):
            self.give_return, self.phase = self.phase, "give"

    def _resume_final_next(self) -> None:
        self._next_final()

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.turns += 1
        self._expire_effects(seat)
        self.played_keys = set()
        self.veto_used = False
        self.award_block = None
        if self.turns > self.r.max_turns:
            self._start_final("turn_limit")
            return
        if self._master_can_take(seat):
            self.phase = "clock_in"
            return
        self.phase = "clock_in_auto"
        self.queue.append(("draw", seat))
        self.resume = "morning"

    def _expire_effects(self, seat: int) -> None:
        for effects in (self.delayed, self.news):
            for ci in list(effects):
                effects[ci].discard(seat)
                if not effects[ci]:
                    del effects[ci]

    def _next_period(self) -> None:
        if self._check_end():
            return
        if self.eliminated[self.turn]:
            self._next_turn()
            return
        self.phase = "period"
        self.period = min(self.period + 1, EVENING)

    def _next_turn(self) -> None:
        alive = self.alive()
        seat = next(s for s in [(self.turn + k) % self.n for k in range(1, self.n + 1)]
                    if s in alive)
        self._begin_turn(seat)

    def _check_end(self) -> bool:
        """Ends the game (or starts the make-up executions) when a condition holds."""
        if self.phase == "end":
            return True
        if len(self.alive()) <= 1:
            self._finish("last_player")
            return True
        if not self.ending and len(self.table) < TABLE_SIZE and not self.obligor_deck \
                and not any(t[0] == "reveal" for t in self.queue):
            self._start_final("table")
            return True
        return False

    def _start_final(self, reason: str) -> None:
        self.ending = True
        self.reason = reason
        self.exec = None
        order = [(self.turn + k) % self.n for k in range(self.n)]
        self.final_order = [s for s in order if not self.eliminated[s] and self.project[s]]
        self._next_final()

    def _next_final(self) -> None:
        if len(self.alive()) <= 1:
            self._finish("last_player")
            return
        while self.final_order:
            seat = self.final_order.pop(0)
            if self.eliminated[seat] or self.project[seat] is None:
                continue
            self.turn = seat
            self.played_keys = set()
            self.veto_used = False
            self._open_execution(seat, self.project[seat], "project", final=True)
            return
        self._finish(self.reason or "table")

    def _finish(self, reason: str) -> None:
        self.reason = reason
        self.phase = "end"
        self.queue.clear()
        self.resume = None

    # ---- card movement -----------------------------------------------------------------------

    @staticmethod
    def _take(pile: list[CardInstance], cid: str) -> CardInstance:
        for i, ci in enumerate(pile):
            if ci.card == cid:
                return pile.pop(i)
        raise RuleViolation(f"card {cid} is not in the expected pile")

    def _to_discard(self, ci: CardInstance) -> None:
        """Played or discarded cards: execution cards to the discard, specialties home."""
        owner = self.spec_owner.get(ci)
        if owner is not None:
            self.specialty[owner].append(ci)
        else:
            self.exec_discard.append(ci)

    def _refill(self) -> None:
        pending = sum(1 for t in self.queue if t[0] == "reveal")
        for _ in range(max(0, TABLE_SIZE - len(self.table) - pending)):
            self.queue.append(("reveal",))

    def _drop_project(self, seat: int) -> None:
        """The project (if any) goes back to the table; its 獎檢公告 cards are discarded."""
        if self.project[seat] is not None:
            self.table.append(self.project[seat])
            self.project[seat] = None
        while self.award[seat]:
            self._to_discard(self.award[seat].pop())

    def _set_project(self, seat: int, ci: CardInstance) -> None:
        self._drop_project(seat)
        self.table.remove(ci)
        self.project[seat] = ci
        self._refill()

    def _penalize(self, seat: int) -> None:
        self.penalties[seat] += 1
        if self.penalties[seat] >= self.tracks[seat].eliminate_at:
            self._eliminate(seat)

    def _eliminate(self, seat: int) -> None:
        self.eliminated[seat] = True
        while self.hand[seat]:
            self._to_discard(self.hand[seat].pop())
        self._drop_project(seat)
        self._expire_effects(seat)

    # ---- chance ---------------------------------------------------------------------------------

    def _apply_chance(self, cid: str) -> None:
        task = self.queue.pop(0)
        kind = task[0]
        if kind == "officer":
            self.dealt[task[1]].append(self._take(self.officer_deck, cid))
        elif kind == "draw":
            self.hand[task[1]].append(self._take(self.exec_deck, cid))
        elif kind == "reveal":
            self.table.append(self._take(self.obligor_deck, cid))
        elif kind == "objection":
            self.objection_shown.append(self._take(self.objection_deck, cid))
            e = self.exec
            if e and self.r.objection[cid].effect == "none" \
                    and self.ob(e.target).effect == "redraw_on_dismissed":
                self.queue.insert(0, ("objection",))

    # ---- legal actions ----------------------------------------------------------------------

    def _compute_legal(self) -> list:
        if self.phase == "end":
            return []
        if self.queue:
            return sorted({ci.card for ci in self._chance_pile(self.queue[0])})
        seat = self.actor()
        acts: list = []
        if self.phase == "officer":
            acts = [("officer", ci.card) for ci in self.dealt[seat]]
        elif self.phase == "clock_in":
            acts = [("draw",), ("take_specialty",)]
        elif self.phase == "period":
            acts = self._strategy_actions(seat)
            if self.period == EVENING:
                acts.append(("end_turn",))
            else:
                acts += self._main_actions(seat)
        elif self.phase == "exec":
            acts = self._exec_actions(seat)
        elif self.phase == "give":
            acts = self._give_actions(seat)
        elif self.phase == "discard":
            acts = [("discard", cid) for cid in {ci.card for ci in self.hand[seat]}]
        return sorted(set(acts))

    def _master_can_take(self, seat: int) -> bool:
        off = self.officer_of(seat)
        return bool(off and off.effect == "master" and self.specialty[seat])

    def _main_actions(self, seat: int) -> list:
        acts: list = [("research",)]
        if self._master_can_take(seat):
            acts.append(("research_sp",))
        for ci in self.table:
            if not self.delayed.get(ci) and ci != self.award_block:
                acts.append(("execute", str(ci)))
            if self.projectable(ci):
                acts.append(("project", str(ci)))
        proj = self.project[seat]
        if proj is not None and proj != self.award_block:
            acts.append(("execute", str(proj)))
        return acts

    def _strategy_actions(self, seat: int) -> list:
        acts: list = []
        for cid in {ci.card for ci in self.hand[seat]}:
            c = self.r.play[cid]
            if c.family != STRATEGY:
                continue
            if c.effect in ("delay", "news"):
                acts += [("strat", cid, str(t)) for t in self.table]
            elif c.effect == "bonus_project":
                acts += [("strat", cid, str(t)) for t in self.table if self.projectable(t)]
            elif c.effect == "assign_project":
                acts += [("strat", cid, str(t), s) for t in self.table if self.projectable(t)
                         for s in self.alive()]
            else:                   # cowork, or an effect the engine does not know
                acts.append(("strat", cid))
        return acts

    def _play_block(self, c: PlayCard, e: Execution) -> str | None:
        """Why card `c` cannot be played in execution `e` (None: it can)."""
        ob = self.ob(e.target)
        weak = self.weak(e.target)
        if weak and (c.family in (SEIZURE, RESTRICTION) or c.effect == "not_vs_weak"):
            return "無效：弱勢"
        if not weak and c.family == AID:
            return "扶助類僅能對弱勢使用"
        if c.family == RESTRICTION and ob.effect == "immune_restriction":
            return "限制類執行卡無效"
        if c.effect == "min_difficulty" and ob.difficulty < c.value:
            return f"難度須≥{c.value}"
        if c.effect == "requires_card" and c.requires not in self.played_keys:
            return f"本回合須先打出 {c.requires}"
        return None

    def _exec_actions(self, seat: int) -> list:
        e = self.exec
        assert e is not None
        acts: list = [("resolve",)]
        hand = self.hand[seat]
        ids = Counter(ci.card for ci in hand)
        active = self._active_objections()
        for cid in ids:
            c = self.r.play[cid]
            if c.family == STRATEGY:
                if c.effect == "cowork":
                    acts.append(("strat", cid))
                continue
            if self._play_block(c, e):
                continue
            rest = ids.copy()
            rest[cid] -= 1
            if c.effect == "discard_cost":
                acts += [("play", cid, other) for other, k in rest.items() if k > 0]
            elif c.effect == "discard_restriction_cost":
                acts += [("play", cid, other) for other, k in rest.items()
                         if k > 0 and self.r.play[other].family == RESTRICTION]
            elif c.effect == "cancel_objection":
                acts += [("play", cid, i) for i in active] or [("play", cid, -1)]
            else:
                acts.append(("play", cid))
        if active and not self.veto_used and hand:
            off = self.officer_of(seat)
            if off and off.effect == "veto_objection":
                acts += [("veto", i, cid) for i in active for cid in ids]
        return acts

    def _give_actions(self, seat: int) -> list:
        cards = {ci.card for ci in self.hand[seat] if ci not in self.spec_owner}
        return [("give", cid, s) for cid in cards for s in self.alive() if s != seat]

    # ---- decisions ------------------------------------------------------------------------------

    def _apply_decision(self, a: tuple) -> None:
        seat = self.actor()
        getattr(self, f"_do_{a[0]}")(seat, *a[1:])

    def _do_officer(self, seat: int, cid: str) -> None:
        chosen = self._take(self.dealt[seat], cid)
        self.officer[seat] = chosen
        self.cover[seat] = self.dealt[seat]
        self.dealt[seat] = []
        off = self.r.officer[cid]
        self.penalty_card[seat].append(self.penalty_supply.pop())
        if off.effect == "rookie_track":
            self.tracks[seat] = self.r.rookie_track  # type: ignore[assignment]
        if off.effect == "master":
            sp = self._take(self.box, off.specialty)  # type: ignore[arg-type]
            self.specialty[seat].append(sp)
            self.spec_owner[sp] = seat
        if seat + 1 < self.n:
            self.choosing = seat + 1
            return
        self.box += self.officer_deck
        self.officer_deck = []
        self.phase = "deal"
        for s in range(self.n):
            self.queue += [("draw", s)] * START_HAND
        self.queue += [("reveal",)] * TABLE_SIZE
        self.resume = "start_game"

    def _do_draw(self, seat: int) -> None:
        self.queue.append(("draw", seat))
        self.resume = "morning"

    def _do_take_specialty(self, seat: int) -> None:
        self.hand[seat].append(self.specialty[seat].pop())
        self._resume_morning()

    def _do_research(self, seat: int) -> None:
        self.queue.append(("draw", seat))
        self.resume = "next_period"

    def _do_research_sp(self, seat: int) -> None:
        self.hand[seat].append(self.specialty[seat].pop())
        self._next_period()

    def _do_project(self, seat: int, target: str) -> None:
        ci = _ci(target)
        if self.project[seat] is not None:
            self._penalize(seat)             # 專案列管 replaces the old project: a penalty
        if self.eliminated[seat]:
            self._next_period()
            return
        self._set_project(seat, ci)
        self.resume = "next_period"

    def _do_execute(self, seat: int, target: str) -> None:
        ci = _ci(target)
        if self.project[seat] == ci:
            self._open_execution(seat, ci, "project")
            return
        due = 0
        if not self.spotlight(ci) and any(self.spotlight(o) for o in self.table if o != ci):
            due += 1                          # skipped a 矚目 obligor on the table
        if self.project[seat] is not None:
            due += 1                          # abandoned the own project
            self._drop_project(seat)
        for _ in range(due):
            if not self.eliminated[seat]:
                self._penalize(seat)
        if self.eliminated[seat]:
            self._next_period()
            return
        self._open_execution(seat, ci, "table")

    def _open_execution(self, seat: int, ci: CardInstance, source: str,
                        final: bool = False) -> None:
        self.exec = Execution(seat, ci, source, final)
        self.phase = "exec"
        self.queue += [("objection",)] * self.ob(ci).objections

    def _do_end_turn(self, seat: int) -> None:
        if len(self.hand[seat]) > self.hand_limit(seat):
            self.phase = "discard"
        else:
            self._next_turn()

    def _do_discard(self, seat: int, cid: str) -> None:
        self._to_discard(self._take(self.hand[seat], cid))
        if len(self.hand[seat]) <= self.hand_limit(seat):
            self._next_turn()

    def _do_give(self, seat: int, cid: str, to: int) -> None:
        self.hand[to].append(self._take(self.hand[seat], cid))
        self.phase = self.give_return

    def _do_veto(self, seat: int, idx: int, cost: str) -> None:
        self._to_discard(self._take(self.hand[seat], cost))
        self.veto_used = True
        assert self.exec is not None
        self.exec.cancelled.add(idx)

    def _do_strat(self, seat: int, cid: str, target: str | None = None,
                  to: int | None = None) -> None:
        card = self._take(self.hand[seat], cid)
        self.log.append(cid)
        c = self.r.play[cid]
        ci = _ci(target) if target else None
        if c.effect == "bonus_project" and ci is not None:
            self._set_project(seat, ci)
            self.award[seat].append(card)
            self.award_block = ci
            self.resume = "stay"
            return
        self._to_discard(card)
        if c.effect == "cowork":
            self.queue += [("draw", seat)] * c.value
            self.resume = "give"
        elif c.effect == "assign_project" and ci is not None and to is not None:
            self._set_project(to, ci)
            self.resume = "stay"
        elif c.effect == "delay" and ci is not None:
            self.delayed.setdefault(ci, set()).add(seat)
        elif c.effect == "news" and ci is not None:
            self.news.setdefault(ci, set()).add(seat)

    def _do_play(self, seat: int, cid: str, extra: Any = None) -> None:
        e = self.exec
        assert e is not None
        card = self._take(self.hand[seat], cid)
        c = self.r.play[cid]
        self.in_play.append(card)
        self.played_keys.add(c.key)
        self.log.append(cid)
        if c.effect in ("discard_cost", "discard_restriction_cost"):
            self._to_discard(self._take(self.hand[seat], extra))
        elif c.effect == "draw":
            self.queue += [("draw", seat)] * c.value
        elif c.effect == "expose":
            if "假弱勢" in self.ob(e.target).traits:
                self.exposed.add(e.target)
        elif c.effect == "cancel_objection" and isinstance(extra, int) and extra >= 0:
            e.cancelled.add(extra)
        elif c.effect == "extra_objection":
            self.queue += [("objection",)] * c.value

    def _do_resolve(self, seat: int) -> None:
        e = self.exec
        assert e is not None
        ob = self.ob(e.target)
        success = self.execution_power() >= self.execution_difficulty()
        weak = self.weak(e.target)
        aided = weak and any(self.r.play[ci.card].family == AID for ci in self.in_play)
        while self.in_play:
            self._to_discard(self.in_play.pop())
        self.objection_deck += self.objection_shown
        self.objection_shown = []
        self.exec = None
        if success:
            if e.source == "project":
                self.project[seat] = None
                while self.award[seat]:
                    self._to_discard(self.award[seat].pop())
            else:
                self.table.remove(e.target)
                self._refill()
            self.scored[seat].append(e.target)
            self.points[seat] += ob.score
            if aided:
                self.helped[seat].add(e.target)
            off = self.officer_of(seat)
            if off and off.effect == "draw_on_success" and (
                    (off.condition == "弱勢" and weak) or
                    (off.condition == "聲明異議" and "聲明異議" in ob.traits)):
                self.queue += [("draw", seat)] * off.value
        else:
            self._penalize(seat)
        self.resume = "final_next" if e.final else "next_period"

    # ---- execution arithmetic (public for tests and the greedy agent) ---------------------

    def _active_objections(self) -> list[int]:
        e = self.exec
        if e is None:
            return []
        return [i for i in range(len(self.objection_shown)) if i not in e.cancelled]

    def execution_difficulty(self) -> int:
        """The target's difficulty plus the active objections' increases."""
        e = self.exec
        if e is None:
            raise RuleViolation("no execution under way")
        diff = self.ob(e.target).difficulty
        for i in self._active_objections():
            o = self.r.objection[self.objection_shown[i].card]
            if o.effect == "difficulty_up":
                diff += o.value
        return diff

    def execution_power(self, extra: list[str] | None = None) -> int:
        """Power of the cards in play (plus `extra` card ids, for look-ahead)."""
        e = self.exec
        if e is None:
            raise RuleViolation("no execution under way")
        return self.power_against(e.seat, e.target, e.source,
                                  [ci.card for ci in self.in_play] + list(extra or []),
                                  self._voided_families())

    def _voided_families(self) -> set[str]:
        out = set()
        for i in self._active_objections():
            o = self.r.objection[self.objection_shown[i].card]
            if o.effect == "void_family" and o.family:
                out.add(o.family)
        return out

    def power_against(self, seat: int, target: CardInstance, source: str, cards: list[str],
                      voided: set[str] = frozenset()) -> int:  # type: ignore[assignment]
        """Total power of `cards` against `target`: weakness ×2, 拍賣 pairs, 專股, 獎檢公告."""
        ob = self.ob(target)
        weak = self.weak(target)
        total = 0
        auctions = 0
        seizures: list[int] = []
        for cid in cards:
            c = self.r.play[cid]
            if c.family == STRATEGY or c.family in voided:
                continue
            if c.family == AID and not weak:
                continue                      # 扶助 voided once a 假弱勢 is exposed
            p = c.power * (2 if ob.weakness and c.key == ob.weakness else 1)
            if c.family == SEIZURE:
                seizures.append(p)
                continue
            if c.effect == "double_seizure":
                auctions += 1
            total += p
        seizures.sort(reverse=True)
        total += sum(p * 2 if i < auctions else p for i, p in enumerate(seizures))
        off = self.officer_of(seat)
        if off and off.effect == "specialist" and off.category in ob.cats:
            total += off.value
        if source == "project" and self.project[seat] == target:
            total += sum(self.r.play[ci.card].power for ci in self.award[seat])
        return total

    # ---- greedy heuristic ------------------------------------------------------------------------

    def _hand_potential(self, seat: int, target: CardInstance, source: str) -> int:
        """Rough best power the hand could reach against `target` (costs ignored)."""
        ob = self.ob(target)
        weak = self.weak(target)
        has_notice = any(self.r.play[ci.card].key == "EX-notice" for ci in self.hand[seat])
        usable = []
        for ci in self.hand[seat]:
            c = self.r.play[ci.card]
            if c.family == STRATEGY:
                continue
            if weak and (c.family in (SEIZURE, RESTRICTION) or c.effect == "not_vs_weak"):
                continue
            if not weak and c.family == AID:
                continue
            if c.family == RESTRICTION and ob.effect == "immune_restriction":
                continue
            if c.effect == "min_difficulty" and ob.difficulty < c.value:
                continue
            if c.effect == "requires_card" and not (has_notice or c.requires in self.played_keys):
                continue
            usable.append(ci.card)
        return self.power_against(seat, target, source, self._pay_costs(seat, usable))

    def _pay_costs(self, seat: int, usable: list[str]) -> list[str]:
        """Drop the cards a discard cost would eat (or the costly card when nothing can pay)."""
        chosen = sorted(usable, key=lambda cid: -self.r.play[cid].power)
        spare = Counter(ci.card for ci in self.hand[seat])
        spare.subtract(chosen)
        for cid in [c for c in chosen if self.r.play[c].effect in
                    ("discard_cost", "discard_restriction_cost")]:
            if cid not in chosen:
                continue
            need_restriction = self.r.play[cid].effect == "discard_restriction_cost"

            def fits(other: str) -> bool:
                return not need_restriction or self.r.play[other].family == RESTRICTION
            unused = [o for o, k in spare.items() if k > 0 and fits(o)]
            if unused:                        # pay with a card we would not play anyway
                spare[unused[0]] -= 1
                continue
            others = [o for o in chosen if fits(o)]
            others.remove(cid) if cid in others and others.count(cid) == 1 else None
            if not others:
                chosen.remove(cid)
                continue
            chosen.remove(min(others, key=lambda o: self.r.play[o].power))
        return chosen

    def greedy_value(self, action: Hashable) -> float:
        """One-step value of `action` for the player to act (own hand + public info only)."""
        if not isinstance(action, tuple):
            return 0.0
        seat = self.actor()
        kind = action[0]
        if kind == "officer":
            effect = self.r.officer[action[1]].effect
            return {"specialist": 2.0, "master": 1.5, "draw_on_success": 1.2}.get(effect, 1.0)
        if kind in ("draw", "research", "end_turn"):
            return 0.5 if kind != "end_turn" else 0.0
        if kind in ("take_specialty", "research_sp"):
            return 1.0
        if kind == "execute":
            return self._value_execute(seat, _ci(action[1]))
        if kind == "project":
            ci = _ci(action[1])
            if self.project[seat] is not None:
                return -5.0                   # replacing a project costs a penalty
            margin = self._hand_potential(seat, ci, "project") - self.ob(ci).difficulty
            return 0.3 + self.ob(ci).score / 10 if margin >= -3 else 0.0
        if kind == "strat":
            return self._value_strategy(seat, action)
        if kind == "play":
            return self._value_play(action)
        if kind == "veto":
            return 1.0
        if kind == "resolve":
            return 100.0 if self.execution_power() >= self.execution_difficulty() else -20.0
        if kind in ("give", "discard"):
            c = self.r.play[action[1]]
            return -float(c.power) - (1.0 if c.family == STRATEGY else 0.0)
        return 0.0

    def _value_execute(self, seat: int, ci: CardInstance) -> float:
        ob = self.ob(ci)
        source = "project" if self.project[seat] == ci else "table"
        need = ob.difficulty + ob.objections
        margin = self._hand_potential(seat, ci, source) - need
        cost = 0.0
        penalty = 2.0 + 2.0 * self.penalties[seat]     # worse the nearer elimination is
        if source == "table":
            if self.project[seat] is not None:
                cost += penalty
            if not self.spotlight(ci) and any(self.spotlight(o) for o in self.table if o != ci):
                cost += penalty
        value = (2.0 + ob.score) if margin >= 0 else -10.0 + margin
        return value - cost

    def _value_strategy(self, seat: int, action: tuple) -> float:
        c = self.r.play[action[1]]
        if c.effect == "cowork":
            return 0.8
        if c.effect == "bonus_project":
            ci = _ci(action[2])
            return 0.2 + self.ob(ci).score / 10
        if c.effect == "assign_project":
            to = action[3]
            return -0.2 if to == seat else -1.0
        return -0.5

    def _value_play(self, action: tuple) -> float:
        now = self.execution_power()
        need = self.execution_difficulty()
        if action[1] in self.r.play and self.r.play[action[1]].effect == "cancel_objection" \
                and action[2] >= 0:
            return 3.0
        if now >= need:
            return -1.0
        gain = float(self.execution_power([action[1]]) - now) + 0.1
        if self.r.play[action[1]].effect == "extra_objection":
            gain -= 1.5                       # risks another objection card
        if len(action) > 2 and isinstance(action[2], str):
            gain -= 0.5 * self.r.play[action[2]].power   # the card paid as a cost
        return gain

    # ---- text ------------------------------------------------------------------------------------

    def _name(self, ref: str) -> str:
        cid = _ci(ref).card if "#" in ref else ref
        return f"{self.r.names.get(cid, cid)} ({ref})"

    def action_text(self, action: Hashable) -> str:
        if self.queue:
            what = {"draw": "抽牌", "reveal": "翻開義務人", "objection": "翻開聲明異議",
                    "officer": "發執行官"}[self.queue[0][0]]
            return f"{what}: {self._name(str(action))}"
        seat = self.actor()
        a = action if isinstance(action, tuple) else (action,)
        kind = a[0]
        who = f"P{seat}"
        if kind == "officer":
            return f"{who} 選擇執行官 {self._name(a[1])}"
        if kind in ("execute", "project"):
            verb = "執行義務人" if kind == "execute" else "專案列管"
            return f"{who} {PERIOD_NAMES[self.period]} {verb} {self._name(a[1])}"
        if kind == "play":
            extra = f"（{a[2]}）" if len(a) > 2 else ""
            return f"{who} 打出 {self._name(a[1])}{extra}"
        if kind == "strat":
            rest = " → ".join(self._name(x) if isinstance(x, str) else f"P{x}" for x in a[2:])
            return f"{who} 策略 {self._name(a[1])}" + (f" → {rest}" if rest else "")
        if kind == "give":
            return f"{who} 送出 {self._name(a[1])} 給 P{a[2]}"
        if kind == "discard":
            return f"{who} 捨棄 {self._name(a[1])}"
        if kind == "veto":
            return f"{who} 異議駁回（第{a[1]}張異議，捨棄 {self._name(a[2])}）"
        if kind == "resolve":
            return f"{who} 結算執行 {self.execution_power()} vs {self.execution_difficulty()}"
        return f"{who} {' '.join(map(str, a))}"

    # ---- invariants --------------------------------------------------------------------------

    def check_invariants(self) -> None:
        for s in range(self.n):
            if self.points[s] != sum(self.ob(ci).score for ci in self.scored[s]):
                raise RuleViolation(f"seat {s}: points {self.points[s]} do not match its "
                                    f"scored obligors")
            p = self.project[s]
            if p is not None and self.ob(p).big:
                raise RuleViolation(f"seat {s}: 大戶 {p} is a project")
            if self.award[s] and p is None:
                raise RuleViolation(f"seat {s}: 獎檢公告 without a project")
            if self.eliminated[s] != (self.penalties[s] >= self.tracks[s].eliminate_at):
                raise RuleViolation(f"seat {s}: eliminated flag disagrees with the penalties")
            if self.eliminated[s] and (self.hand[s] or p is not None):
                raise RuleViolation(f"seat {s}: eliminated but still holds cards")
            if not self.helped[s] <= set(self.scored[s]):
                raise RuleViolation(f"seat {s}: helped obligors not among its scored ones")
        if self.exec is None and (self.in_play or self.objection_shown):
            raise RuleViolation("cards left in play outside an execution")
        if self.phase in ("period", "clock_in") and not self.queue \
                and len(self.table) < TABLE_SIZE and self.obligor_deck:
            raise RuleViolation("the table was not refilled to four obligors")
        if self.phase == "discard" and len(self.hand[self.turn]) <= self.hand_limit(self.turn):
            raise RuleViolation("discard phase with a legal hand size")
        for ci, owner in self.spec_owner.items():
            if ci not in self.specialty[owner] and ci not in self.hand[owner] \
                    and ci not in self.in_play:
                raise RuleViolation(f"specialty card {ci} strayed from its master")


def make_rules(db, options: dict | None = None) -> EnforcerRules:
    """The enforcer engine bound to `db`'s cards (copies, numbers, effects)."""
    return EnforcerRules(db, dict(options or {}))
