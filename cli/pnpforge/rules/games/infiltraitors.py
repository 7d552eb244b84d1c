"""Infiltraitors (滲透因子): cooperative deduction, 2–5 agents, 3 training missions and 20 missions.

Each agent holds at most one suspect card that only they can see; the others
deduce its suit and number from hints: cards placed beside it upright
(related: same suit, same number, or one number a factor/multiple of the
other) or sideways (unrelated).  A correct guess with the cardboard pistol
costs a bullet and removes the traitor; too few bullets, or an empty
headquarters deck with every hand spent, loses the mission.

Everything comes from the database: the numbered and special cards (suit,
number, the printed list of related numbers, the special cards' effect) and
the mission cards (suspects, bullets, suits, number range, hand size and
limit, number tiles, special-rule effect).  Pick the mission with
options={"mission": "M01"} (default) — "T1".."T3" are the training missions.

Chance is explicit: the deck is an unordered multiset (it is only ever
shuffled), so every card leaving it is a chance outcome.

Interpretations where the rulebook is silent (each is ours):
* 剷除叛徒 targets another agent's suspect: your own you already know.
* Orientation is always truthful: the engine places every hint by the rule.
* 等待時機 needs a card to discard; when an agent has no legal action at all
  (e.g. empty hand, empty deck, no suspect to act on) it passes, and a full
  round of passes ends the mission as a loss (a stalemate).
* Mission 6: a centre special card used for 交換情報 draws no card (no hand
  card was spent) and returns to the centre when its suspect is eliminated.
* Mission 15: a special card as suspect counts as number 1, which relates to
  no card by number (the printed relation lists stop at 2–15), only by suit.
* Mission 19/20: the OCR prints the '8 suspects + 1 aside, look and withdraw'
  rule under mission 20 (11 suspects); the database gives it to mission 19
  (9 = 8 + 1), and the engine follows the database.
* Talking bans (missions 4, 10, 11) and the real-time limit (training 3) do
  not change what simulated agents can do; they are known, and no-ops here.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Hashable

from pnpforge.errors import PnpError
from pnpforge.rules.engine import (CHANCE, TERMINAL, CardInstance, GameInfo, GameRules,
                                   RuleViolation, State, UnknownEffect)
from pnpforge.store import repo

SLUG = "infiltraitors"
DEFAULT_MISSION = "M01"
EXTRA = -1    # target index of the suspect set aside (missions 18 and 19)
CENTER = -2   # source index of the centre special cards (mission 6)
NUMBERS = range(2, 16)
SPECIAL_NUMBER = 1  # a special card as suspect (mission 15)

CARD_EFFECTS = frozenset({"suit_only_hint"})
# Mission effect key -> the engine flags it switches on.
MISSION_EFFECTS: dict[str, frozenset[str]] = {
    "facedown_discard": frozenset({"facedown"}),
    "ordered_tiles": frozenset({"ordered"}),
    "ordered_tiles_facedown": frozenset({"ordered", "facedown"}),
    "no_talk": frozenset(),            # agents never talk: nothing to enforce
    "time_limit": frozenset(),         # a real-time limit: simulated agents have no clock
    "small_hand": frozenset(),         # carried by the hand_size / hand_limit fields
    "shared_specials": frozenset({"shared_specials"}),
    "balanced_hints": frozenset({"balanced"}),
    "exchange_left_only": frozenset({"exchange_left"}),
    "right_only_no_talk": frozenset({"eliminate_right"}),
    "sole_eliminator": frozenset({"sole_eliminator"}),
    "specials_in_deck": frozenset({"specials_in_deck"}),
    "covered_suit": frozenset({"covered_suit"}),
    "hands_facing_out": frozenset({"hands_out"}),
    "final_suspect_pooled": frozenset({"pooled_final"}),
    "final_suspect_solo": frozenset({"solo_final"}),
}
_DECISION_STAGES = {"act", "reward", "peek", "extra_hint", "final", "discard"}


# ---- data --------------------------------------------------------------------

@dataclass(frozen=True)
class CardSpec:
    """A playing card as the engine needs it; number is None for a special card."""

    id: str
    suit: str
    number: int | None
    relates: frozenset[int]
    copies: int
    effect: str | None = None

    @property
    def special(self) -> bool:
        return self.number is None

    def identity(self) -> tuple[str, int]:
        """(suit, number) a guess must name; a special suspect counts as number 1."""
        return (self.suit, SPECIAL_NUMBER if self.number is None else self.number)


@dataclass(frozen=True)
class Mission:
    """One mission card's parameters and the flags of its special rule."""

    id: str
    name: str
    suspects: int | None
    suspects_per_agent: bool
    bullets: int
    bullets_per_agent: bool
    suits: tuple[str, ...]
    number_min: int
    number_max: int
    hand_size: int
    hand_limit: int
    tiles: int | None
    effect: str | None
    flags: frozenset[str]

    def suspect_count(self, players: int) -> int:
        return players if self.suspects_per_agent else int(self.suspects or 0)

    def bullet_count(self, players: int) -> int:
        return self.bullets + (players if self.bullets_per_agent else 0)

    def has(self, flag: str) -> bool:
        return flag in self.flags


def factor_relations(n: int) -> frozenset[int]:
    """Numbers 2–15 other than n that divide n or that n divides (the rulebook's relation)."""
    return frozenset(m for m in NUMBERS if m != n and (m % n == 0 or n % m == 0))


def related(hint: CardSpec, suit: str, number: int) -> bool:
    """Does `hint` relate to a suspect of (suit, number)?  Upright if so, sideways if not.

    Same suit, same number, or a factor/multiple (the card's printed list);
    a special card hints by suit alone, and a special suspect (number 1)
    relates to no number.
    """
    if hint.suit == suit:
        return True
    if hint.number is None:
        return False
    return hint.number == number or number in hint.relates


def _field(card, name: str, kind: type, where: str) -> Any:
    value = card.fields.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' must be "
                       f"{'an integer' if kind is int else kind.__name__} for the rules engine "
                       f"({where}), got {value!r}")
    return value


def _load_cards(db) -> dict[str, CardSpec]:
    specs: dict[str, CardSpec] = {}
    for card in repo.list_cards(db, SLUG, "card"):
        suit = _field(card, "suit", str, "numbered card")
        number = _field(card, "number", int, "numbered card")
        if number not in NUMBERS:
            raise PnpError(f"{SLUG} card {card.id}: number {number} is outside 2–15")
        printed = {int(x) for x in card.fields.get("relates", [])}
        rule = factor_relations(number)
        if printed != rule:
            raise PnpError(
                f"{SLUG} card {card.id}: printed related numbers {sorted(printed)} differ from "
                f"the factors/multiples of {number} within 2–15 {sorted(rule)}")
        specs[card.id] = CardSpec(card.id, suit, number, rule, card.copies)
    for card in repo.list_cards(db, SLUG, "special"):
        suit = _field(card, "suit", str, "special card")
        specs[card.id] = CardSpec(card.id, suit, None, frozenset(), card.copies,
                                  card.fields.get("effect"))
    return specs


def _mission_from_card(card) -> Mission:
    f = card.fields
    per_agent = bool(f.get("suspects_per_agent", False))
    if not per_agent:
        _field(card, "suspects", int, "mission")
    suits = f.get("suits")
    if not isinstance(suits, list) or not suits:
        raise PnpError(f"{SLUG} card {card.id}: field 'suits' must list the mission's suits")
    count = f.get("suit_count")
    if count is not None and count != len(suits):
        raise PnpError(f"{SLUG} card {card.id}: suit_count {count} but suits lists {len(suits)}")
    effect = f.get("effect")
    return Mission(
        id=card.id, name=card.name, suspects=f.get("suspects"), suspects_per_agent=per_agent,
        bullets=_field(card, "bullets", int, "mission"),
        bullets_per_agent=bool(f.get("bullets_per_agent", False)), suits=tuple(suits),
        number_min=_field(card, "number_min", int, "mission"),
        number_max=_field(card, "number_max", int, "mission"),
        hand_size=_field(card, "hand_size", int, "mission"),
        hand_limit=_field(card, "hand_limit", int, "mission"),
        tiles=f.get("number_tiles"), effect=effect,
        flags=MISSION_EFFECTS.get(effect or "", frozenset()))


def mission_id(raw: Any) -> str:
    """'M01', 'm1', '1' -> 'M01'; 'T1', 't1' -> 'T1' (training); anything else unchanged."""
    text = str(raw).strip()
    m = re.fullmatch(r"[mM]?0*(\d{1,2})", text)
    if m:
        return f"M{int(m.group(1)):02d}"
    m = re.fullmatch(r"[tT]0*(\d)", text)
    if m:
        return f"T{int(m.group(1))}"
    return text


# ---- rules -------------------------------------------------------------------

class InfiltraitorsRules(GameRules):
    """The cards and one mission from the database; makes initial states."""

    def __init__(self, db, options: dict) -> None:
        unknown = sorted(set(options) - {"mission"})
        if unknown:
            raise PnpError(f"{SLUG}: unknown option(s) {', '.join(unknown)} (allowed: mission)")
        game = repo.get_game(db, SLUG)
        self.specs = _load_cards(db)
        if not self.specs:
            raise PnpError(f"{SLUG}: the database has no numbered or special cards")
        self.mission_cards = {c.id: c for c in repo.list_cards(db, SLUG, "mission")}
        wanted = mission_id(options.get("mission", DEFAULT_MISSION))
        if wanted not in self.mission_cards:
            raise PnpError(f"{SLUG}: unknown mission '{options.get('mission')}' "
                           f"(allowed: {', '.join(sorted(self.mission_cards))})")
        self.mission = _mission_from_card(self.mission_cards[wanted])
        self._split_cards()
        size = len(self.in_play) + len(self.center)
        bullets = self.mission.bullet_count(game.players_max)
        self.info = GameInfo(SLUG, game.players_min, game.players_max,
                             max_steps=40 * (size + 12 + bullets) + 400, cooperative=True,
                             options={"mission": wanted})
        self.guesses = sorted({(s, n) for s in self.mission.suits
                               for n in range(self.mission.number_min, self.mission.number_max + 1)}
                              | ({(s, SPECIAL_NUMBER) for s in self.mission.suits}
                                 if self.mission.has("specials_in_deck") else set()))

    def _split_cards(self) -> None:
        """The mission's deck, its centre specials (mission 6), and the rest left in the box."""
        m = self.mission
        self.in_play: list[CardInstance] = []
        self.center: list[CardInstance] = []
        self.box: list[CardInstance] = []
        for spec in self.specs.values():
            used = spec.suit in m.suits
            for copy in range(spec.copies):
                inst = CardInstance(spec.id, copy)
                if spec.special:
                    if used and m.has("specials_in_deck"):
                        self.in_play.append(inst)
                    elif used and m.has("shared_specials"):
                        self.center.append(inst)
                    else:
                        self.box.append(inst)
                elif used and m.number_min <= spec.number <= m.number_max:
                    self.in_play.append(inst)
                else:
                    self.box.append(inst)
        # Which cards could be a suspect: what a seat's deduction starts from (public).
        self.suspect_pool = Counter(c.card for c in self.in_play)

    def new_initial_state(self, players: int, rng: random.Random) -> "InfiltraitorsState":
        if not self.info.players_min <= players <= self.info.players_max:
            raise PnpError(f"{SLUG} plays with {self.info.players_min}–{self.info.players_max} "
                           f"agents, not {players}")
        need = players * self.mission.hand_size + self.mission.suspect_count(players)
        if need > len(self.in_play):
            raise PnpError(f"{SLUG} mission {self.mission.id}: {players} agents need {need} cards "
                           f"for hands and suspects, the mission's deck has {len(self.in_play)}")
        return InfiltraitorsState(self, players)

    def deck(self) -> list[CardInstance]:
        return [CardInstance(s.id, c) for s in self.specs.values() for c in range(s.copies)]

    def unknown_effects(self) -> list[UnknownEffect]:
        out = [UnknownEffect(s.id, s.effect or "<none>") for s in self.specs.values()
               if s.special and s.effect not in CARD_EFFECTS]
        out += [UnknownEffect(c.id, c.fields["effect"]) for c in self.mission_cards.values()
                if c.fields.get("effect") and c.fields["effect"] not in MISSION_EFFECTS]
        return out


def make_rules(db, options: dict) -> InfiltraitorsRules:
    return InfiltraitorsRules(db, dict(options or {}))


# ---- state -------------------------------------------------------------------

def _take(zone: list[CardInstance], card: str, copy: int) -> CardInstance:
    for i, c in enumerate(zone):
        if c.card == card and c.copy == copy:
            return zone.pop(i)
    raise RuleViolation(f"card {card}#{copy} is not where the action says")


class InfiltraitorsState(State):
    """One position.  `stage` says what is being decided; `pending` queues chance draws."""

    def __init__(self, rules: InfiltraitorsRules, players: int) -> None:
        m = rules.mission
        self.rules, self.m, self.n = rules, m, players
        self.hq: list[CardInstance] = list(rules.in_play)   # unordered: every draw is chance
        self.box = list(rules.box)
        self.center = list(rules.center)
        self.pile: list[CardInstance] = []
        self.extra: list[CardInstance] = []
        self.discard_up: list[CardInstance] = []
        self.discard_down: list[CardInstance] = []
        self.rewards: list[CardInstance] = []
        self.hands: list[list[CardInstance]] = [[] for _ in range(players)]
        self.racks: list[CardInstance | None] = [None] * players
        self.covers: list[CardInstance | None] = [None] * players
        self.tiles: list[int | None] = [None] * players
        self.next_tile = 1
        self.hints: dict[int, list[tuple[CardInstance, bool]]] = {t: [] for t in range(players)}
        self.hints[EXTRA] = []
        self.bullets_start = m.bullet_count(players)
        self.bullets = self.bullets_start
        self.suspects_total = m.suspect_count(players)
        self.solved = 0
        self.withdrawn = [False] * players
        self.peeked: set[int] = set()
        self.eliminator: int | None = None
        self.final_phase = False
        self.turn = 0
        self.actor = 0
        self.stage = "act"
        self.extra_hints_left = 0
        self.passes = 0
        self.result: tuple[str, str] | None = None
        self.played: list[str] = []
        self._legal: list | None = None
        self.pending: list[tuple] = self._setup_events()

    def _setup_events(self) -> list[tuple]:
        """Deal hands round by round, lay out the suspects (and the one aside), pick roles."""
        m = self.m
        events: list[tuple] = [("deal", s) for _ in range(m.hand_size) for s in range(self.n)]
        aside = 1 if (m.has("pooled_final") or m.has("solo_final")) else 0
        events += [("suspect",)] * (self.suspects_total - aside) + [("aside",)] * aside
        if m.has("sole_eliminator"):
            events.append(("eliminator",))
        return events

    # -- interface ---------------------------------------------------------------

    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        if self.pending:
            return CHANCE
        return self.actor

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        won = self.result is not None and self.result[0] == "win"
        return [1.0 if won else 0.0] * self.n

    def scores_from_rules(self) -> list[float]:
        """Won iff every suspect is gone: none in the centre, on a stand or aside.

        Mission 19 ends at the final shot whatever is left on the table, so only
        the aside suspect counts there (it leaves only when that shot hits).
        """
        if self.m.has("solo_final"):
            won = not self.extra
        else:
            won = not self.pile and not self.extra and all(r is None for r in self.racks)
        return [1.0 if won else 0.0] * self.n

    def winners(self) -> list[int]:
        return list(range(self.n)) if self.returns()[0] > 0 else []

    def end_reason(self) -> str:
        return self.result[1] if self.result else "not over"

    def cards_played(self) -> list[str]:
        return list(self.played)

    def refresh(self) -> None:
        """Forget cached legal actions: call after arranging zones by hand (tests, puzzles)."""
        self._legal = None

    def legal_actions(self) -> list[Hashable]:
        if self._legal is None:
            self._legal = sorted(self._compute_legal())
        return self._legal

    def apply(self, action: Hashable) -> None:
        if self.result is not None:
            raise RuleViolation("the game is over")
        if action not in set(self.legal_actions()):
            raise RuleViolation(f"illegal action {action!r} at stage {self.stage}")
        self._legal = None
        if self.pending:
            self._resolve_chance(action)
        else:
            self._decide(action)
        self._settle()

    def zones(self) -> dict[str, list[CardInstance]]:
        z = {"hq": self.hq, "pile": self.pile, "extra": self.extra, "discard_up": self.discard_up,
             "discard_down": self.discard_down, "center": self.center, "rewards": self.rewards,
             "box": self.box, "hints_extra": [c for c, _ in self.hints[EXTRA]]}
        for s in range(self.n):
            z[f"hand_{s}"] = self.hands[s]
            z[f"rack_{s}"] = [self.racks[s]] if self.racks[s] else []
            z[f"cover_{s}"] = [self.covers[s]] if self.covers[s] else []
            z[f"hints_{s}"] = [c for c, _ in self.hints[s]]
        return {k: list(v) for k, v in z.items()}

    def hidden_view(self, seat: int) -> "InfiltraitorsView":
        return InfiltraitorsView(self, seat)

    def greedy_value(self, action: Hashable) -> float:
        """The acting seat's value of `action`, computed from that seat's view only."""
        return self.hidden_view(self.current_player()).greedy_value(action)

    # -- identities and relations --------------------------------------------------

    def spec(self, card: CardInstance) -> CardSpec:
        return self.rules.specs[card.card]

    def suspect_identity(self, target: int) -> tuple[str, int]:
        """(suit, number) of a suspect as hints and guesses see it (mission 16: cover's suit)."""
        card = self.extra[0] if target == EXTRA else self.racks[target]
        if card is None:
            raise RuleViolation(f"no suspect at {target}")
        suit, number = self.spec(card).identity()
        cover = self.covers[target] if target != EXTRA else None
        if cover is not None:
            suit = self.spec(cover).suit
        return suit, number

    def orientation(self, card: CardInstance, target: int) -> bool:
        """True (upright) when the card relates to the target suspect."""
        return related(self.spec(card), *self.suspect_identity(target))

    # -- legal actions -------------------------------------------------------------

    def _compute_legal(self) -> list[tuple]:
        if self.result is not None:
            return []
        if self.pending:
            return self._chance_legal()
        return {"act": self._act_legal, "reward": self._reward_legal,
                "peek": lambda: [("peek", 0), ("peek", 1)],
                "extra_hint": self._extra_hint_legal,
                "final": lambda: self._eliminations(self.actor, final=True),
                "discard": lambda: [("discard", i) for i in range(len(self.hands[self.actor]))],
                }[self.stage]()

    def _chance_legal(self) -> list[tuple]:
        kind = self.pending[0][0]
        if kind == "eliminator":
            return [("seat", s) for s in range(self.n)]
        return [("card", c.card, c.copy) for c in self._chance_source(kind)]

    def _chance_source(self, kind: str) -> list[CardInstance]:
        return {"blind_reward": self.discard_down, "pool_deal": self.rewards,
                "take": self.pile}.get(kind, self.hq)

    def _act_legal(self) -> list[tuple]:
        s, m = self.actor, self.m
        acts: list[tuple] = []
        if (self.racks[s] is None and self.pile and not self.final_phase
                and not (m.has("sole_eliminator") and s == self.eliminator)):
            acts.append(("take",))
        sources = self._hand_sources(s)
        if self.racks[s] is not None:
            acts += [("hint", src, c.card, c.copy) for src in sources for c in self.hands[src]]
        acts += self._exchanges(s, sources)
        if self.hq and not self.final_phase:
            acts += [("wait", k) for k in range(min(3, len(self.hq) - 1) + 1)]
        acts += self._eliminations(s)
        return acts or [("pass",)]

    def _hand_sources(self, seat: int) -> list[int]:
        """Whose hand a seat plays from: its own, or (mission 17) any other agent's."""
        if self.m.has("hands_out"):
            return [o for o in range(self.n) if o != seat and not self.withdrawn[o]]
        return [seat]

    def _exchange_targets(self, s: int) -> list[int]:
        targets = [t for t in range(self.n) if t != s and self.racks[t] is not None]
        if self.m.has("exchange_left"):
            targets = [t for t in targets if t == (s + 1) % self.n]
        if self.extra and self.peeked:
            targets.append(EXTRA)  # the withdrawn agents who know it place the hints
        return targets

    def _exchanges(self, s: int, sources: list[int]) -> list[tuple]:
        targets = self._exchange_targets(s)
        if not targets:
            return []
        can_draw = bool(self.hq) and not self.final_phase   # mission 18's last round: no draws
        if self.m.has("hands_out"):
            draws = [1] if can_draw else [0]   # mission 17: the draw is compulsory
        else:
            draws = [0, 1] if can_draw else [0]
        acts = [("exchange", src, t, c.card, c.copy, d)
                for src in sources for c in self.hands[src] for t in targets for d in draws]
        acts += [("exchange", CENTER, t, c.card, c.copy, 0) for c in self.center for t in targets]
        return acts

    def _eliminations(self, s: int, final: bool = False) -> list[tuple]:
        if self.bullets <= 0:
            return []
        if final:
            targets = [EXTRA] if self.extra else []
        else:
            targets = self._elimination_targets(s)
        return [("eliminate", t, suit, num) for t in targets for suit, num in self.rules.guesses]

    def _elimination_targets(self, s: int) -> list[int]:
        m = self.m
        if m.has("sole_eliminator") and s != self.eliminator:
            return []
        targets = [t for t in range(self.n) if t != s and self.racks[t] is not None]
        if m.has("eliminate_right"):
            targets = [t for t in targets if t == (s - 1) % self.n]
        if m.has("ordered") and targets:
            lowest = min(self.tiles[t] for t in range(self.n) if self.racks[t] is not None)
            targets = [t for t in targets if self.tiles[t] == lowest]
        if m.has("balanced"):
            targets = [t for t in targets if self._balanced(t)]
        return targets

    def _balanced(self, target: int) -> bool:
        """Missions 7/13: as many upright as sideways hints, and at least 4 in all."""
        upright = sum(1 for _, v in self.hints[target] if v)
        return len(self.hints[target]) >= 4 and 2 * upright == len(self.hints[target])

    def _reward_legal(self) -> list[tuple]:
        acts: list[tuple] = [("reward", c.card, c.copy) for c in self.discard_up]
        if self.discard_down:
            acts.append(("reward_blind",))
        return acts + [("reward_skip",)]

    def _extra_hint_legal(self) -> list[tuple]:
        acts = [("extra_hint", 0, c.card, c.copy) for c in self.hands[self.actor]]
        return acts + [("extra_hint", 1, c.card, c.copy) for c in self.discard_up]

    # -- chance ----------------------------------------------------------------------

    def _resolve_chance(self, action: tuple) -> None:
        event = self.pending.pop(0)
        kind = event[0]
        if kind == "eliminator":
            self.eliminator = action[1]
            return
        card = _take(self._chance_source(kind), action[1], action[2])
        if kind in ("deal", "draw", "pool_deal"):
            self.hands[event[1]].append(card)
        elif kind == "suspect":
            self.pile.append(card)
        elif kind == "aside":
            self.extra.append(card)
        elif kind == "burn":
            self.discard_down.append(card)   # discarded unseen, so face down
        elif kind == "cover":
            self.covers[event[1]] = card
        elif kind == "take":
            seat = event[1]
            self.racks[seat] = card
            if self.m.has("ordered"):
                self.tiles[seat] = self.next_tile
                self.next_tile += 1
        elif kind == "blind_reward":
            self._reward_to(event[1], card)
        else:
            raise RuleViolation(f"unknown chance event {event}")

    def _reward_to(self, seat: int, card: CardInstance) -> None:
        if self.m.has("pooled_final") and not self.final_phase:
            self.rewards.append(card)   # mission 18: rewards wait face up for the last suspect
        else:
            self.hands[seat].append(card)

    # -- decisions -------------------------------------------------------------------

    def _decide(self, action: tuple) -> None:
        kind = action[0]
        if kind != "pass":
            self.passes = 0
        getattr(self, f"_do_{kind}")(action)

    def _do_take(self, action: tuple) -> None:
        self.pending.append(("take", self.actor))
        if self.hq:
            self.pending.append(("cover", self.actor) if self.m.has("covered_suit") else ("burn",))
        self.stage = "end_turn"

    def _play_from(self, src: int, card: str, copy: int) -> CardInstance:
        zone = self.center if src == CENTER else self.hands[src]
        inst = _take(zone, card, copy)
        self.played.append(inst.card)
        return inst

    def _place(self, inst: CardInstance, target: int) -> None:
        self.hints[target].append((inst, self.orientation(inst, target)))

    def _do_hint(self, action: tuple) -> None:
        _, src, card, copy = action
        self._place(self._play_from(src, card, copy), self.actor)
        self.stage = "end_turn"

    def _do_exchange(self, action: tuple) -> None:
        _, src, target, card, copy, draw = action
        self._place(self._play_from(src, card, copy), target)
        if draw:
            self.pending.append(("draw", self.actor))
        self.stage = "end_turn"

    def _do_wait(self, action: tuple) -> None:
        self.pending.append(("burn",))
        self.pending += [("draw", self.actor)] * action[1]
        self.stage = "end_turn"

    def _do_pass(self, action: tuple) -> None:
        self.passes += 1
        if self.passes >= self._active_count():
            self.result = ("lose", "stalemate: no agent can act")
        self.stage = "end_turn"

    def _do_eliminate(self, action: tuple) -> None:
        _, target, suit, number = action
        self.bullets -= 1
        hit = self.suspect_identity(target) == (suit, number)
        if self.stage == "final":
            if hit:
                self.hq.append(self.extra.pop())
                self._discard_hints(EXTRA)
                self.solved += 1
            self.result = ("win", "final suspect eliminated") if hit else \
                ("lose", "final shot missed")
            return
        if not hit:
            self.stage = "end_turn"
            return
        self._eliminate(target)
        self.stage = "reward" if (self.discard_up or self.discard_down) else "after_reward"

    def _eliminate(self, target: int) -> None:
        """The suspect (and its cover) go back into the deck; its hints to the discard pile."""
        self.hq.append(self.racks[target])
        self.racks[target] = None
        if self.covers[target] is not None:
            self.hq.append(self.covers[target])
            self.covers[target] = None
        self.tiles[target] = None
        self._discard_hints(target)
        self.solved += 1

    def _discard_hints(self, target: int) -> None:
        for inst, _ in self.hints[target]:
            if inst in self.rules.center:
                self.center.append(inst)     # mission 6: the shared specials stay shared
            else:
                self._discard(inst)
        self.hints[target] = []

    def _discard(self, inst: CardInstance) -> None:
        (self.discard_down if self.m.has("facedown") else self.discard_up).append(inst)

    def _do_reward(self, action: tuple) -> None:
        self._reward_to(self.actor, _take(self.discard_up, action[1], action[2]))
        self.stage = "after_reward"

    def _do_reward_blind(self, action: tuple) -> None:
        self.pending.append(("blind_reward", self.actor))
        self.stage = "after_reward"

    def _do_reward_skip(self, action: tuple) -> None:
        self.stage = "after_reward"

    def _do_peek(self, action: tuple) -> None:
        if not action[1]:
            self.stage = "end_turn"
            return
        self.peeked.add(self.actor)
        self.extra_hints_left = 2 if self.n == 2 else 1
        self.stage = "extra_hint"
        if not self._extra_hint_legal():
            self._withdraw(self.actor)

    def _do_extra_hint(self, action: tuple) -> None:
        _, src, card, copy = action
        inst = _take(self.hands[self.actor] if src == 0 else self.discard_up, card, copy)
        self.played.append(inst.card)
        self._place(inst, EXTRA)
        self.extra_hints_left -= 1
        if self.extra_hints_left <= 0 or not self._extra_hint_legal():
            self._withdraw(self.actor)

    def _withdraw(self, seat: int) -> None:
        """Mission 19: the agent who looked leaves; its hand goes face up to the discard."""
        self.discard_up.extend(self.hands[seat])
        self.hands[seat] = []
        self.withdrawn[seat] = True
        active = [s for s in range(self.n) if not self.withdrawn[s]]
        if len(active) == 1:
            self.stage, self.actor = "final", active[0]
        else:
            self.stage = "end_turn"

    def _do_discard(self, action: tuple) -> None:
        hand = self.hands[self.actor]
        self._discard(hand.pop(action[1]))
        self.stage = "end_turn"   # settles back here while the hand is still over the limit

    # -- flow ------------------------------------------------------------------------

    def _settle(self) -> None:
        """Run automatic steps until a decision, a chance draw or the end."""
        while self.result is None and not self.pending:
            if self._check_end():
                return
            if self.stage == "after_reward":
                self._after_reward()
            elif self.stage == "end_turn":
                if len(self.hands[self.turn]) > self.m.hand_limit:
                    self.stage, self.actor = "discard", self.turn
                    return
                self._next_turn()
                return
            else:
                return

    def _after_reward(self) -> None:
        m = self.m
        if m.has("solo_final") and self.extra and self._active_count() >= 2:
            self.stage = "peek"
            return
        self.stage = "end_turn"
        if (m.has("pooled_final") and not self.final_phase and self.extra and not self.pile
                and all(r is None for r in self.racks)):
            self._start_pooled_final(self.actor)

    def _start_pooled_final(self, seat: int) -> None:
        """Mission 18: hands out, the rewards dealt from `seat` on, the aside suspect to `seat`."""
        for s in range(self.n):
            self.discard_up.extend(self.hands[s])
            self.hands[s] = []
        self.racks[seat] = self.extra.pop()
        self.final_phase = True
        self.pending += [("pool_deal", (seat + i) % self.n) for i in range(len(self.rewards))]

    def _next_turn(self) -> None:
        seat = self.turn
        for _ in range(self.n):
            seat = (seat + 1) % self.n
            if not self.withdrawn[seat]:
                break
        self.turn = self.actor = seat
        self.stage = "act"

    def _active_count(self) -> int:
        return sum(1 for w in self.withdrawn if not w)

    def unsolved(self) -> int:
        return len(self.pile) + sum(1 for r in self.racks if r is not None) + len(self.extra)

    def _check_end(self) -> bool:
        """Both end conditions, checked whenever an action has fully resolved."""
        if not self.m.has("solo_final") and self.unsolved() == 0:
            self.result = ("win", "all traitors eliminated")
        elif self.bullets < self.unsolved():
            self.result = ("lose", "fewer bullets than unsolved suspects")
        elif all(not h for h in self.hands) and (not self.hq or self.final_phase):
            self.result = ("lose", "headquarters deck and hands exhausted")
        return self.result is not None

    # -- checks ------------------------------------------------------------------------

    def check_invariants(self) -> None:
        m = self.m
        if self.bullets < 0 or self.bullets > self.bullets_start:
            raise RuleViolation(f"bullets out of range: {self.bullets}")
        for t, hints in self.hints.items():
            holder = self.extra if t == EXTRA else [self.racks[t]] if self.racks[t] else []
            if hints and not holder:
                raise RuleViolation(f"hints beside an empty place {t}")
        for s in range(self.n):
            if self.covers[s] and not self.racks[s]:
                raise RuleViolation(f"seat {s} has a cover card but no suspect")
            if (self.tiles[s] is None) != (self.racks[s] is None or not m.has("ordered")):
                raise RuleViolation(f"seat {s}: number tile and suspect disagree")
            if self.withdrawn[s] and self.hands[s]:
                raise RuleViolation(f"withdrawn seat {s} still holds cards")
            if (not self.pending and self.result is None and s != self.turn
                    and len(self.hands[s]) > m.hand_limit):
                raise RuleViolation(f"seat {s} holds {len(self.hands[s])} cards, "
                                    f"limit {m.hand_limit}")
        if not self.pending and self.result is None:
            if self.withdrawn[self.actor]:
                raise RuleViolation(f"withdrawn seat {self.actor} is to act")
            if self.solved + self.unsolved() != self.suspects_total:
                raise RuleViolation(f"{self.solved} solved + {self.unsolved()} unsolved suspects, "
                                    f"mission has {self.suspects_total}")
        tiles = [t for t in self.tiles if t is not None]
        if len(tiles) != len(set(tiles)):
            raise RuleViolation(f"number tiles repeated: {tiles}")

    # -- text --------------------------------------------------------------------------

    def _name(self, card: str) -> str:
        spec = self.rules.specs[card]
        return f"{card} ({spec.suit}{'特別牌' if spec.special else spec.number})"

    def _where(self, target: int) -> str:
        return "the aside suspect" if target == EXTRA else f"seat {target}'s suspect"

    def action_text(self, action: Hashable) -> str:
        a = action
        kind = a[0]
        if kind == "card":
            return f"{self.pending[0][0]} {self._name(a[1])}" if self.pending else f"card {a[1]}"
        if kind == "seat":
            return f"seat {a[1]} is the sole eliminator"
        if kind == "take":
            return "揪出嫌疑人 (take a suspect)"
        if kind == "hint":
            frm = "" if a[1] == self.actor else f" from seat {a[1]}'s hand"
            up = self.racks[self.actor] and self.orientation(CardInstance(a[2], a[3]), self.actor)
            return f"給予提示 {self._name(a[2])}{frm}: {'upright' if up else 'sideways'}"
        if kind == "exchange":
            frm = "centre" if a[1] == CENTER else f"seat {a[1]}'s hand"
            up = self.orientation(CardInstance(a[3], a[4]), a[2])
            return (f"交換情報 {self._name(a[3])} from {frm} to {self._where(a[2])}: "
                    f"{'upright' if up else 'sideways'}{', draw 1' if a[5] else ''}")
        if kind == "wait":
            return f"等待時機: burn the top card, draw {a[1]}"
        if kind == "eliminate":
            return f"剷除叛徒 {self._where(a[1])}: guess {a[2]} {a[3]}"
        if kind == "discard":
            return f"hand limit: discard {self._name(self.hands[self.actor][a[1]].card)}"
        if kind == "reward":
            return f"reward: take {self._name(a[1])} from the discard pile"
        if kind == "reward_blind":
            return "reward: take a face-down card from the discard pile"
        if kind == "reward_skip":
            return "reward: take nothing"
        if kind == "peek":
            return "look at the aside suspect and withdraw" if a[1] else "do not look"
        if kind == "extra_hint":
            return (f"hint on the aside suspect with {self._name(a[2])} "
                    f"from {'hand' if a[1] == 0 else 'discard'}")
        if kind == "pass":
            return "pass (no legal action)"
        return repr(a)


# ---- what a seat may see, and the greedy heuristic over it ---------------------------

class InfiltraitorsView:
    """The information one seat has: its own suspect and hand (not in mission 17), every
    hint, face-up discards, counts — never another seat's suspect, cover, the deck order or
    face-down cards.  `greedy_value` works from these fields alone."""

    def __init__(self, state: InfiltraitorsState, seat: int) -> None:
        m = state.m
        self.rules, self.m, self.seat, self.n = state.rules, m, seat, state.n
        self.stage, self.turn = state.stage, state.turn
        self.bullets, self.unsolved = state.bullets, state.unsolved()
        self.hq_size, self.pile_size = len(state.hq), len(state.pile)
        self.hand_sizes = [len(h) for h in state.hands]
        hands_out = m.has("hands_out")
        self.hand: list[CardInstance] | None = None if hands_out else list(state.hands[seat])
        self.other_hands = ({s: list(state.hands[s]) for s in range(state.n) if s != seat}
                            if hands_out else {})
        self.my_suspect = state.racks[seat]
        self.my_cover = state.covers[seat]
        self.occupied = [r is not None for r in state.racks]
        self.has_cover = [c is not None for c in state.covers]
        self.tiles = list(state.tiles)
        self.hints = {t: list(h) for t, h in state.hints.items()}
        self.discard_up = list(state.discard_up)
        self.discard_down_count = len(state.discard_down)
        self.center = list(state.center)
        self.rewards = list(state.rewards)
        self.extra_present = bool(state.extra)
        self.extra_known = state.extra[0] if (state.extra and seat in state.peeked) else None
        self.withdrawn = list(state.withdrawn)
        self.final_phase = state.final_phase
        self._cache: dict = {}

    # -- deduction ----------------------------------------------------------------

    def _public_seen(self) -> Counter:
        seen = Counter(c.card for h in self.hints.values() for c, _ in h)
        seen.update(c.card for c in self.discard_up + self.center + self.rewards)
        return seen

    def _private_seen(self) -> Counter:
        seen = self._public_seen()
        seen.update(c.card for c in (self.hand or []))
        seen.update(c.card for h in self.other_hands.values() for c in h)
        seen.update(c.card for c in (self.my_suspect, self.my_cover, self.extra_known) if c)
        return seen

    def weights(self, target: int, public: bool = False) -> Counter:
        """Possible (suit, number) of a suspect, weighted by how many unseen cards give it."""
        key = (target, public)
        if key in self._cache:
            return self._cache[key]
        specs = self.rules.specs
        unseen = self.rules.suspect_pool - (self._public_seen() if public else self._private_seen())
        covered = target != EXTRA and self.has_cover[target]
        if covered:
            # Mission 16: suit from one unseen card, number from another.
            suits = Counter()
            nums = Counter()
            for cid, k in unseen.items():
                suits[specs[cid].suit] += k
                nums[specs[cid].identity()[1]] += k
            pairs = Counter({(s, n): a * b for s, a in suits.items() for n, b in nums.items()})
        else:
            pairs = Counter()
            for cid, k in unseen.items():
                pairs[specs[cid].identity()] += k
        hints = [(specs[c.card], v) for c, v in self.hints[target]]
        out = Counter({ident: w for ident, w in pairs.items()
                       if all(related(h, *ident) == v for h, v in hints)})
        self._cache[key] = out
        return out

    def own_identity(self, target: int) -> tuple[str, int] | None:
        """A suspect this seat knows: its own (with its cover) or the aside one it looked at."""
        specs = self.rules.specs
        if target == EXTRA:
            return specs[self.extra_known.card].identity() if self.extra_known else None
        if target != self.seat or self.my_suspect is None:
            return None
        suit, number = specs[self.my_suspect.card].identity()
        if self.my_cover is not None:
            suit = specs[self.my_cover.card].suit
        return suit, number

    def guess_probability(self, target: int, suit: str, number: int) -> float:
        known = self.own_identity(target)
        if known is not None:
            return 1.0 if known == (suit, number) else 0.0
        key = ("p", target)
        if key not in self._cache:
            w = self.weights(target)
            total = sum(w.values())
            self._cache[key] = {i: k / total for i, k in w.items()} if total else {}
        return self._cache[key].get((suit, number), 0.0)

    def info_gain(self, card: str, target: int) -> float:
        """Bits a hint with `card` beside `target` tells the table."""
        spec = self.rules.specs[card]
        known = self.own_identity(target)
        w = self.weights(target, public=known is not None)
        total = sum(w.values())
        if total <= 0:
            return 0.0
        up = sum(k for ident, k in w.items() if related(spec, *ident))
        if known is not None:   # we know the answer: the surviving share is what others learn
            kept = up if related(spec, *known) else total - up
            return math.log2(total / kept) if kept else 0.0
        p = up / total
        return 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))

    def balance_bonus(self, card: str, target: int) -> float:
        """Missions 7/13: how much closer the hint brings upright and sideways counts."""
        if not self.m.has("balanced"):
            return 0.0
        spec = self.rules.specs[card]
        d = sum(1 if v else -1 for _, v in self.hints[target])
        known = self.own_identity(target)
        if known is not None:
            p_up = 1.0 if related(spec, *known) else 0.0
        else:
            w = self.weights(target)
            total = sum(w.values())
            p_up = sum(k for i, k in w.items() if related(spec, *i)) / total if total else 0.5
        return 3.0 * (abs(d) - (p_up * abs(d + 1) + (1 - p_up) * abs(d - 1)))

    def usefulness(self, card: str) -> float:
        targets = [t for t in range(self.n) if self.occupied[t]]
        return max((self.info_gain(card, t) for t in targets), default=0.0)

    # -- heuristic ------------------------------------------------------------------

    def greedy_value(self, action: Hashable) -> float:
        """A one-step value: sure shots first, then informative hints, then refills."""
        a = action
        kind = a[0]
        my_hand = self.hand_sizes[self.seat]
        limit = self.m.hand_limit
        if kind == "eliminate":
            p = self.guess_probability(a[1], a[2], a[3])
            if p >= 0.999:
                return 1000.0
            spare = self.bullets - self.unsolved
            return 100.0 * p - 45.0 if spare > 0 else 100.0 * p - 100.0
        if kind == "take":
            return 12.0
        if kind == "hint":
            gain = self.info_gain(a[2], self.seat)
            return 10.0 * gain + self.balance_bonus(a[2], self.seat) + 0.5
        if kind == "exchange":
            gain = 10.0 * self.info_gain(a[3], a[2]) + self.balance_bonus(a[3], a[2])
            if a[5]:
                gain += 1.5 if my_hand - (a[1] == self.seat) < limit else -1.0
            return gain
        if kind == "wait":
            k = a[1]
            return -2.0 + 2.0 * min(k, max(0, limit - my_hand)) - 3.0 * max(0, my_hand + k - limit)
        if kind == "discard":
            return -self.usefulness(self.hand[a[1]].card) if self.hand is not None else 0.0
        if kind == "reward":
            return 1.0 + self.usefulness(a[1])
        if kind == "reward_blind":
            return 0.8
        if kind == "peek":
            table = self.unsolved - (1 if self.extra_present else 0)
            active = sum(1 for w in self.withdrawn if not w)
            must = table <= active - 1
            return (6.0 if must else -6.0) if a[1] else 0.0
        if kind == "extra_hint":
            return 10.0 * self.info_gain(a[2], EXTRA)
        return 0.0
