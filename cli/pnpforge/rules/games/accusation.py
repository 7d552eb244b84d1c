"""Accusation (控訴): rules engine for the two-player cult duel and the 2v2 mode.

Everything a card does comes from the database: its numbers (聲量, 災厄, 守護, 星塵,
駐守X, 解構X, symbols, ritual requirements) and its `effect` field, a small effect
language the engine interprets:

    effect   := section (" | " section)*
    section  := trigger ":" body
    trigger  := chant | on_garrison | on_deconstruct | action | play | ability
              | on_accuse | on_destroyed | after_chant_accused
              | stardust_change | stardust_extra      (bodies are steps)
              | passive                                (body: "key N; key N")
              | stardust_calamity                      (body: "N")
    body     := step (";" step)*
    step     := prefix* verb [N | type] [filter …]
    prefix   := may | if:SYMBOL>=N | if:done | per:SYMBOL/N

Executed sections (chant, on_garrison, on_deconstruct, action, play, and a ritual's
execution) carry the card's 災厄 and can be accused; triggered ones (on_accuse,
on_destroyed, after_chant_accused) and leader abilities cannot.  Steps resolve in
reading order and the first one that cannot be carried out in full ends the effect
(general rule 1); `each_*` steps keep going when only one side is unaffected
(rule 1, example ii); `may` asks (rule 2); `per:` counts are fixed when the effect
triggers while `if:` is tested once (rule 5).

The game is one generator (`_game`) that yields a `Decision` whenever a seat or
chance must choose; `apply()` sends the choice back.  Chance draws pick which card
leaves an unordered deck, so a shuffle is implicit and games are pure functions
of their action sequence (which is how `clone()` works).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Hashable, Iterable

from pnpforge.errors import PnpError
from pnpforge.rules.engine import (CHANCE, TERMINAL, CardInstance, GameInfo, GameRules,
                                   RuleViolation, State, UnknownEffect)
from pnpforge.store import repo

SLUG = "accusation"

# ---- action codes (actions are tuples of ints, so they always sort) ------------------
END, PLAY, RAID, RAID_WITH, LOC_ACTION, REBUILD, ABILITY = 0, 1, 2, 3, 4, 5, 6
ASIDE, KEEP, ACCUSE, NO_ACCUSE, CHOOSE, DECLINE, ACCEPT = 7, 8, 9, 10, 11, 12, 13
RITUAL, DISCARD, GARRISON, DECONSTRUCT, DRAW, FIRST = 14, 15, 16, 17, 20, 21

HAND_LIMIT = 6
OPENING_DRAW = 3
END_DRAW = 2
TURN_ACTIONS = 2
REBUILD_COST = 2

# ---- the effect language -----------------------------------------------------------
STEP_TRIGGERS = ("chant", "on_garrison", "on_deconstruct", "action", "play", "ability",
                 "on_accuse", "on_destroyed", "after_chant_accused", "stardust_change",
                 "stardust_extra")
PASSIVES = ("extra_stardust", "raid_bonus", "raid_bonus_all", "guard_others")
COUNT_VERBS = ("draw", "discard", "each_discard", "enemy_discard", "absolve", "sacrifice")
TYPED_VERBS = ("search", "recover", "revive")
TARGET_VERBS = ("destroy_follower", "destroy_location", "make_guilty", "bounce")
PLAIN_VERBS = ("each_destroy_own_follower", "rechant")
VERBS = COUNT_VERBS + TYPED_VERBS + TARGET_VERBS + PLAIN_VERBS
CARD_KINDS = ("follower", "location", "ritual", "magic", "leader", "any")
FOLLOWER_FILTERS = ("guilty", "innocent", "chant", "own", "enemy")
LOCATION_FILTERS = ("own", "enemy")
_COND = re.compile(r"^if:(.+)>=(\d+)$")
_PER = re.compile(r"^per:(.+)/(\d+)$")
_GUARD = re.compile(r"^guard<=(\d+)$")


@dataclass(frozen=True)
class Step:
    """One step of an effect: a verb with its count, card kind or target filters."""

    verb: str
    n: int = 1
    kind: str = ""
    filters: tuple[str, ...] = ()
    may: bool = False
    upto: bool = False
    cond: tuple[str, int] | None = None  # "若你擁有": tested once when reached
    if_done: bool = False                # "若你這麼做": the previous step was carried out
    per: tuple[str, int] | None = None   # "你每擁有": repeat count fixed at trigger


@dataclass
class Effect:
    """A card's parsed effect field."""

    sections: dict[str, tuple[Step, ...]] = field(default_factory=dict)
    passives: dict[str, int] = field(default_factory=dict)
    stardust_calamity: int = 0
    unknown: list[str] = field(default_factory=list)

    def has_stardust(self) -> bool:
        return bool(self.stardust_calamity or "stardust_change" in self.sections
                    or "stardust_extra" in self.sections)


def parse_effect(text: str | None) -> Effect:
    """Parse an effect key; what the engine does not know goes to `unknown`, not an error."""
    eff = Effect()
    for raw in (text or "").split("|"):
        raw = raw.strip()
        if not raw:
            continue
        trigger, sep, body = raw.partition(":")
        trigger, body = trigger.strip(), body.strip()
        if not sep:
            eff.unknown.append(raw)
        elif trigger == "passive":
            _parse_passives(body, eff)
        elif trigger == "stardust_calamity":
            if body.isdigit():
                eff.stardust_calamity = int(body)
            else:
                eff.unknown.append(raw)
        elif trigger in STEP_TRIGGERS:
            steps = []
            for part in body.split(";"):
                step = _parse_step(part.strip())
                if step is None:
                    eff.unknown.append(f"{trigger}: {part.strip()}")
                else:
                    steps.append(step)
            eff.sections[trigger] = tuple(steps)
        else:
            eff.unknown.append(raw)
    return eff


def _parse_passives(body: str, eff: Effect) -> None:
    for part in filter(None, (p.strip() for p in body.split(";"))):
        key, _, num = part.partition(" ")
        if key in PASSIVES and num.strip().isdigit():
            eff.passives[key] = eff.passives.get(key, 0) + int(num)
        else:
            eff.unknown.append(f"passive: {part}")


def _parse_step(text: str) -> Step | None:
    """One step, or None when any token is not part of the language."""
    tokens = text.split()
    opts: dict[str, Any] = {}
    while tokens and (tokens[0] == "may" or tokens[0].startswith(("if:", "per:"))):
        tok = tokens.pop(0)
        if tok == "may":
            opts["may"] = True
        elif tok == "if:done":
            opts["if_done"] = True
        elif (m := _COND.match(tok)):
            opts["cond"] = (m.group(1), int(m.group(2)))
        elif (m := _PER.match(tok)) and int(m.group(2)) > 0:
            opts["per"] = (m.group(1), int(m.group(2)))
        else:
            return None
    if not tokens or tokens[0] not in VERBS:
        return None
    verb, args = tokens[0], tokens[1:]
    if verb in COUNT_VERBS:
        if args and args[0].isdigit():
            opts["n"] = int(args.pop(0))
        if verb == "absolve" and args[:1] == ["upto"]:
            opts["upto"] = True
            args.pop(0)
        return Step(verb, **opts) if not args else None
    if verb in TYPED_VERBS:
        if len(args) != 1 or args[0] not in CARD_KINDS:
            return None
        return Step(verb, kind=args[0], **opts)
    if verb in TARGET_VERBS:
        allowed = LOCATION_FILTERS if verb == "destroy_location" else FOLLOWER_FILTERS
        for a in args:
            is_loc_filter = verb == "destroy_location" and (a.startswith(("not:", "is:")) or _GUARD.match(a))
            if a not in allowed and not is_loc_filter:
                return None
        return Step(verb, filters=tuple(args), **opts)
    return Step(verb, **opts) if not args else None


# ---- static card data ----------------------------------------------------------------

@dataclass(frozen=True)
class CardDef:
    """What the engine needs of one database card."""

    id: str
    name: str
    type: str
    cult: str
    symbols: tuple[str, ...]
    volume: int | None
    calamity: int | None
    guard: int
    location_type: str
    stardust: int | None
    garrison: int
    deconstruct: int
    requirements: tuple[str, ...]
    effect: Effect
    copies: int

    def steps(self, trigger: str) -> tuple[Step, ...] | None:
        return self.effect.sections.get(trigger)


def _int(card, name: str, required: bool = False) -> int | None:
    value = card.fields.get(name)
    if value is None:
        if required:
            raise PnpError(f"accusation card {card.id} ({card.name}): field '{name}' is required "
                           f"by the rules engine")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PnpError(f"accusation card {card.id} ({card.name}): field '{name}' must be an "
                       f"integer, got {value!r}")
    return value


def card_def(card) -> CardDef:
    """Build a CardDef from a model Card, refusing values the engine cannot use."""
    f = card.fields
    return CardDef(
        id=card.id, name=card.name, type=card.type, cult=f.get("cult") or "",
        symbols=tuple(f.get("symbols") or ()),
        volume=_int(card, "volume", required=card.type == "follower"),
        calamity=_int(card, "calamity"),
        guard=_int(card, "guard", required=card.type == "location") or 0,
        location_type=f.get("location_type") or "",
        stardust=_int(card, "stardust"),
        garrison=_int(card, "garrison") or 0,
        deconstruct=_int(card, "deconstruct") or 0,
        requirements=tuple(f.get("requirements") or ()),
        effect=parse_effect(f.get("effect")),
        copies=card.copies)


# ---- rules ---------------------------------------------------------------------------

DEFAULT_CULTS = {2: ("鴉教團", "白狐神社"), 4: ("鴉教團", "白狐神社", "白狐神社", "鴉教團")}


class AccusationRules(GameRules):
    """Cards and options of one configuration; makes initial states."""

    def __init__(self, cards: list, options: dict | None = None) -> None:
        options = dict(options or {})
        mode = str(options.get("mode", "duel")).lower()
        if mode not in ("duel", "2v2"):
            raise PnpError(f"accusation: option mode='{mode}' (allowed: duel, 2v2)")
        self.players = 4 if mode == "2v2" else 2
        self.defs = {c.id: card_def(c) for c in cards}
        cult_names = sorted({d.cult for d in self.defs.values() if d.cult})
        raw = options.get("cults")
        seat_cults = ([s.strip() for s in str(raw).replace("，", ",").split(",")] if raw
                      else list(DEFAULT_CULTS[self.players]))
        if len(seat_cults) != self.players:
            raise PnpError(f"accusation: option cults needs {self.players} cult names "
                           f"(one per seat), got {len(seat_cults)}")
        for c in seat_cults:
            if c not in cult_names:
                raise PnpError(f"accusation: unknown cult '{c}' (cults in the database: "
                               f"{', '.join(cult_names) or 'none'})")
        if self.players == 4 and (seat_cults[0] == seat_cults[2] or seat_cults[1] == seat_cults[3]):
            raise PnpError("accusation 2v2: team-mates (seats 0+2, 1+3) may not play the same cult")
        self.seat_cults = seat_cults
        self.info = GameInfo(slug=SLUG, players_min=self.players, players_max=self.players,
                             max_steps=6000 * self.players // 2,
                             options={"mode": mode, "cults": ",".join(seat_cults)})
        # Physical cards: each seat's deck is one box of its cult; a second deck of the same
        # cult is a second box, so its copies are numbered after the first's.
        self.instances: list[CardInstance] = []
        self.inst_def: list[CardDef] = []
        self.inst_owner: list[int] = []
        boxes: Counter = Counter()
        for seat, cult in enumerate(seat_cults):
            box = boxes[cult]
            boxes[cult] += 1
            members = [d for d in self.defs.values() if d.cult == cult and d.copies > 0]
            if not members:
                raise PnpError(f"accusation: cult '{cult}' has no cards with copies > 0")
            for d in members:
                for k in range(d.copies):
                    self.instances.append(CardInstance(d.id, box * d.copies + k))
                    self.inst_def.append(d)
                    self.inst_owner.append(seat)

    def deck(self) -> list[CardInstance]:
        return list(self.instances)

    def unknown_effects(self) -> list[UnknownEffect]:
        return [UnknownEffect(d.id, u) for d in self.defs.values() for u in d.effect.unknown]

    def new_initial_state(self, players: int, rng: random.Random | None = None) -> "AccusationState":
        if players != self.players:
            raise PnpError(f"accusation ({self.info.options['mode']}) is played by {self.players} "
                           f"players, not {players} (option mode=2v2 for four)")
        return AccusationState(self)


def make_rules(db, options: dict | None = None) -> AccusationRules:
    """The engine bound to the database's accusation cards (read now, so edits count)."""
    return AccusationRules(repo.list_cards(db, SLUG), options or {})


# ---- state ---------------------------------------------------------------------------

@dataclass
class Decision:
    """A pending choice: who chooses, what kind of choice, and the options."""

    seat: int
    kind: str
    options: list | Callable[[], list]
    context: dict = field(default_factory=dict)

    def actions(self) -> list:
        return sorted(self.options() if callable(self.options) else self.options)


class _GameOver(Exception):
    def __init__(self, winners: list[int], reason: str) -> None:
        super().__init__(reason)
        self.winners = winners
        self.reason = reason


ZONES = ("deck", "hand", "field", "discard", "conspiracy", "exile", "score", "aside", "under",
         "stack")
# Zones every seat may inspect (区域介紹: 公開資訊); deck, hand and sacrificed cards are hidden.
PUBLIC_ZONES = ("field", "discard", "conspiracy", "exile", "score", "aside", "stack")
# Choices that hurt the card's owner: the greedy hook prefers enemy cards for these.
HARMFUL = {"destroy_follower", "destroy_location", "make_guilty", "bounce",
           "each_destroy_own_follower"}


class AccusationState(State):
    """One position; advanced by sending actions into the `_game` generator."""

    def __init__(self, rules: AccusationRules) -> None:
        self.rules = rules
        self.n = rules.players
        self.z: list[dict[str, list[int]]] = [{name: [] for name in ZONES} for _ in range(self.n)]
        self.where: list[tuple[int, str]] = [(0, "deck")] * len(rules.instances)
        self.guilty: set[int] = set()
        self.garrison: dict[int, int] = {}      # follower -> location it garrisons
        self.decon: dict[int, int] = {}         # follower -> ritual it deconstructs
        self.sacrificed: dict[int, int] = {}    # card under a ritual -> that ritual
        self.turn_seat = 0
        self.first_seat = 0
        self.turn_number = 0
        self.actions_left = 0
        self.abilities_used: set[int] = set()
        self.history: list[Hashable] = []
        self.played: list[str] = []
        self.winners_: list[int] | None = None
        self.reason = ""
        for i, owner in enumerate(rules.inst_owner):
            kind = rules.inst_def[i].type
            zone = "conspiracy" if kind == "leader" else "hand" if kind == "ritual" else "deck"
            self.z[owner][zone].append(i)
            self.where[i] = (owner, zone)
        self._gen = self._game()
        self.decision: Decision | None = None
        self._advance(None)

    # ---- engine interface --------------------------------------------------------------

    def current_player(self) -> int:
        if self.decision is None:
            return TERMINAL
        return self.decision.seat

    def legal_actions(self) -> list[Hashable]:
        return [] if self.decision is None else self.decision.actions()

    def apply(self, action: Hashable) -> None:
        if self.decision is None:
            raise RuleViolation("the game is over")
        action = tuple(action)  # type: ignore[arg-type]
        if action not in self.decision.actions():
            raise RuleViolation(f"illegal action {action} at a '{self.decision.kind}' decision")
        self.history.append(action)
        if self.decision.kind == "main" and action[0] == PLAY:
            self.played.append(self.rules.inst_def[action[1]].id)
        self._advance(action)

    def _advance(self, action: Hashable | None) -> None:
        try:
            self.decision = self._gen.send(action) if action is not None else next(self._gen)
        except StopIteration:
            self.decision = None

    def is_terminal(self) -> bool:
        return self.decision is None

    def returns(self) -> list[float]:
        if self.winners_ is None:
            return [0.0] * self.n
        return [1.0 if s in self.winners_ else -1.0 for s in range(self.n)]

    def scores_from_rules(self) -> list[float]:
        """Recompute the result from the final zones: completed rituals, else the deck-out."""
        target = 2 if self.n == 2 else 4
        for team in range(2 if self.n == 4 else self.n):
            seats = self.team_seats(team)
            if sum(len(self.z[s]["score"]) for s in seats) >= target:
                return [1.0 if s in seats else -1.0 for s in range(self.n)]
        s = self.turn_seat
        if self.z[s]["deck"] or self.executable_rituals(s):
            return [0.0] * self.n  # neither ending applies: not a finished game
        losers = self.team_seats(self.team(s))
        return [-1.0 if x in losers else 1.0 for x in range(self.n)]

    def winners(self) -> list[int]:
        return list(self.winners_ or [])

    def end_reason(self) -> str:
        return self.reason or "terminal"

    def zones(self) -> dict[str, list[CardInstance]]:
        inst = self.rules.instances
        return {f"p{s}.{name}": [inst[i] for i in cards]
                for s in range(self.n) for name, cards in self.z[s].items()}

    def cards_played(self) -> list[str]:
        return list(self.played)

    def clone(self) -> "AccusationState":
        """A copy made by replaying the action history (generators cannot be copied)."""
        other = AccusationState(self.rules)
        for a in self.history:
            other.apply(a)
        return other

    def __deepcopy__(self, memo: dict) -> "AccusationState":
        return self.clone()

    # ---- teams and seats ------------------------------------------------------------------

    def team(self, seat: int) -> int:
        return seat % 2 if self.n == 4 else seat

    def team_seats(self, team: int) -> list[int]:
        return [s for s in range(self.n) if self.team(s) == team]

    def clockwise(self, start: int) -> list[int]:
        return [(start + k) % self.n for k in range(self.n)]

    def enemies(self, seat: int) -> list[int]:
        return [s for s in self.clockwise(seat) if self.team(s) != self.team(seat)]

    # ---- card helpers ------------------------------------------------------------------

    def d(self, i: int) -> CardDef:
        return self.rules.inst_def[i]

    def name(self, i: int) -> str:
        return f"{self.d(i).name}({self.rules.instances[i]})"

    def move(self, i: int, seat: int, zone: str) -> None:
        s0, z0 = self.where[i]
        self.z[s0][z0].remove(i)
        self.z[seat][zone].append(i)
        self.where[i] = (seat, zone)
        if zone != "field":
            self._clear_marks(i)

    def _clear_marks(self, i: int) -> None:
        """A card leaving the field stops being guilty, garrisoning or deconstructing."""
        self.guilty.discard(i)
        self.garrison.pop(i, None)
        self.decon.pop(i, None)
        if self.d(i).type == "location":
            for f in [f for f, loc in self.garrison.items() if loc == i]:
                del self.garrison[f]
        if self.d(i).type == "ritual":
            for f in [f for f, r in self.decon.items() if r == i]:
                del self.decon[f]
            for c in [c for c, r in self.sacrificed.items() if r == i]:
                del self.sacrificed[c]
                self.move(c, self.rules.inst_owner[c], "discard")
        self.sacrificed.pop(i, None)

    def make_guilty(self, f: int) -> None:
        """罪惡: the follower loses its effects and stops garrisoning / deconstructing."""
        self.guilty.add(f)
        self.garrison.pop(f, None)
        self.decon.pop(f, None)

    def field(self, seat: int, kind: str | None = None) -> list[int]:
        cards = self.z[seat]["field"]
        return [i for i in cards if kind is None or self.d(i).type == kind]

    def innocent_followers(self, seat: int) -> list[int]:
        return [i for i in self.field(seat, "follower") if i not in self.guilty]

    def passive(self, i: int, key: str) -> int:
        """A passive's value; a guilty follower has lost all its effects."""
        if i in self.guilty:
            return 0
        return self.d(i).effect.passives.get(key, 0)

    def symbols(self, seat: int) -> Counter:
        """Symbols on your field: followers (guilty too), locations, rituals, leader."""
        c: Counter = Counter()
        for i in self.z[seat]["field"]:
            c.update(self.d(i).symbols)
        return c

    def stardust(self, seat: int) -> int:
        return sum(1 + self.passive(f, "extra_stardust") for f in self.innocent_followers(seat))

    def guard(self, loc: int) -> int:
        seat = self.where[loc][0]
        bonus = sum(self.d(f).garrison for f, l in self.garrison.items() if l == loc)
        bonus += sum(self.passive(o, "guard_others") for o in self.field(seat, "location") if o != loc)
        return self.d(loc).guard + bonus

    def raid_value(self, f: int) -> int:
        return (self.d(f).volume or 0) + self.passive(f, "raid_bonus")

    def raiders(self, seat: int) -> list[int]:
        """聲量1以上的非罪惡信徒 can raid."""
        return [f for f in self.innocent_followers(seat) if (self.d(f).volume or 0) >= 1]

    def raid_bonus_all(self, seat: int) -> int:
        return sum(self.passive(o, "raid_bonus_all") for o in self.field(seat, "location"))

    def ritual_shortfall(self, seat: int, r: int) -> int:
        """Missing symbols after 解構 and 獻祭 reductions (≤ 0 means executable)."""
        have = self.symbols(seat)
        need = Counter(self.d(r).requirements)
        short = sum(max(0, k - have[s]) for s, k in need.items())
        reduce = sum(self.d(f).deconstruct for f, rr in self.decon.items() if rr == r)
        reduce += sum(1 for rr in self.sacrificed.values() if rr == r)
        return short - reduce

    def executable_rituals(self, seat: int) -> list[int]:
        return [r for r in self.field(seat, "ritual") if self.ritual_shortfall(seat, r) <= 0]

    def any_ritual_completed(self) -> bool:
        return any(self.z[s]["score"] for s in range(self.n))

    # ---- the game ------------------------------------------------------------------------

    def _game(self) -> Generator[Decision, Any, None]:
        try:
            a = yield Decision(CHANCE, "first", [(FIRST, s) for s in range(self.n)])
            self.first_seat = a[1]
            order = self.clockwise(self.first_seat)
            for seat in order:
                for _ in range(OPENING_DRAW):
                    yield from self._draw(seat)
            for seat in order:
                yield from self._mulligan(seat)
            seat = self.first_seat
            while True:
                self.turn_number += 1
                first = self.turn_number == 1
                yield from self._turn(seat, 1 if first else TURN_ACTIONS)
                seat = (seat + 1) % self.n
        except _GameOver as over:
            self.winners_ = sorted(over.winners)
            self.reason = over.reason

    def _draw(self, seat: int) -> Generator[Decision, Any, bool]:
        """Draw one card; False when the deck is empty (the effect cannot go on)."""
        deck = self.z[seat]["deck"]
        if not deck:
            return False
        if len(deck) == 1:
            i = deck[0]
        else:
            a = yield Decision(CHANCE, "draw", [(DRAW, i) for i in deck], {"seat": seat})
            i = a[1]
        self.move(i, seat, "hand")
        return True

    def _mulligan(self, seat: int) -> Generator[Decision, Any, None]:
        """Set any cards aside face up, refill to 6, then shuffle the set-aside cards back."""
        while True:
            opts = [(ASIDE, i) for i in self.z[seat]["hand"]] + [(KEEP,)]
            a = yield Decision(seat, "mulligan", opts)
            if a[0] == KEEP:
                break
            self.move(a[1], seat, "aside")
        if not self.z[seat]["aside"]:
            return
        while len(self.z[seat]["hand"]) < HAND_LIMIT:
            if not (yield from self._draw(seat)):
                break
        for i in list(self.z[seat]["aside"]):
            self.move(i, seat, "deck")

    def _turn(self, seat: int, actions: int) -> Generator[Decision, Any, None]:
        self.turn_seat = seat
        self.actions_left = actions
        self.abilities_used = set()
        while True:
            if self.main_options(seat) == [(END,)]:
                break
            a = yield Decision(seat, "main", lambda: self.main_options(seat))
            if a[0] == END:
                break
            yield from self._main_action(seat, a)
        yield from self._end_of_turn(seat)

    def main_options(self, seat: int) -> list[tuple]:
        """Every main-phase action open to `seat` now (END is always there)."""
        opts: list[tuple] = [(END,)]
        for i in self.z[seat]["field"]:
            if self.d(i).type == "leader" and i not in self.abilities_used and self.d(i).steps("ability"):
                opts.append((ABILITY, i))
        if self.actions_left <= 0:
            return sorted(opts)
        leader_ok = self.any_ritual_completed()
        for i in self.z[seat]["hand"] + self.z[seat]["conspiracy"]:
            if self.d(i).type != "leader" or leader_ok:
                opts.append((PLAY, i))
        available = sum(self.raid_value(f) for f in self.raiders(seat)) + self.raid_bonus_all(seat)
        for e in self.enemies(seat):
            for loc in self.field(e, "location"):
                if available >= self.guard(loc):
                    opts.append((RAID, loc))
        for loc in self.field(seat, "location"):
            if self.d(loc).steps("action"):
                opts.append((LOC_ACTION, loc))
        if self.actions_left >= REBUILD_COST:
            opts.extend((REBUILD, r) for r in self.z[seat]["discard"] if self.d(r).type == "ritual")
        return sorted(opts)

    def _main_action(self, seat: int, a: tuple) -> Generator[Decision, Any, None]:
        code = a[0]
        if code == ABILITY:
            self.abilities_used.add(a[1])
            yield from self._resolve(seat, a[1], self.d(a[1]).steps("ability") or ())
        elif code == PLAY:
            self.actions_left -= 1
            yield from self._play(seat, a[1])
        elif code == RAID:
            self.actions_left -= 1
            yield from self._raid(seat, a[1])
        elif code == LOC_ACTION:
            self.actions_left -= 1
            yield from self._execute(seat, a[1], self.d(a[1]).steps("action") or (), "action")
        elif code == REBUILD:
            self.actions_left -= REBUILD_COST
            self.move(a[1], seat, "field")

    # ---- playing cards ---------------------------------------------------------------------

    def _play(self, seat: int, i: int) -> Generator[Decision, Any, None]:
        d = self.d(i)
        if d.type == "magic":
            yield from self._play_magic(seat, i)
            return
        self.move(i, seat, "field")
        if d.type == "follower":
            yield from self._follower_enters(seat, i)

    def _follower_enters(self, seat: int, f: int) -> Generator[Decision, Any, None]:
        """Played with a turn action: may activate 駐守/解構, then 詠頌 executes."""
        d = self.d(f)
        if d.garrison and self.field(seat, "location"):
            opts = [(GARRISON, loc) for loc in self.field(seat, "location")] + [(DECLINE,)]
            a = yield Decision(seat, "garrison", opts, {"card": f})
            if a[0] == GARRISON:
                self.garrison[f] = a[1]
                if d.steps("on_garrison"):
                    yield from self._execute(seat, f, d.steps("on_garrison"), "garrison")
        if d.deconstruct and self.field(seat, "ritual") and f in self.z[seat]["field"] \
                and f not in self.guilty:
            opts = [(DECONSTRUCT, r) for r in self.field(seat, "ritual")] + [(DECLINE,)]
            a = yield Decision(seat, "deconstruct", opts, {"card": f})
            if a[0] == DECONSTRUCT:
                self.decon[f] = a[1]
                if d.steps("on_deconstruct"):
                    yield from self._execute(seat, f, d.steps("on_deconstruct"), "deconstruct")
        if d.steps("chant") and f in self.z[seat]["field"] and f not in self.guilty:
            yield from self._execute(seat, f, d.steps("chant"), "chant")

    def _play_magic(self, seat: int, i: int) -> Generator[Decision, Any, None]:
        """Stardust is checked as the card is played; accused magic has no effect at all."""
        d = self.d(i)
        self.move(i, seat, "stack")
        boosted = (d.stardust is not None and d.effect.has_stardust()
                   and self.stardust(seat) >= d.stardust)
        calamity = d.calamity
        if boosted and calamity is not None:
            calamity += d.effect.stardust_calamity
        steps = d.steps("play") or ()
        if boosted and d.steps("stardust_change") is not None:
            steps = d.steps("stardust_change")
        accused = yield from self._accusation(seat, i, calamity)
        if not accused:
            ok = yield from self._resolve(seat, i, steps)
            if ok and boosted and d.steps("stardust_extra"):
                yield from self._resolve(seat, i, d.steps("stardust_extra"))
        self.move(i, self.rules.inst_owner[i], "discard")

    def _raid(self, seat: int, loc: int) -> Generator[Decision, Any, None]:
        """Commit followers one by one until their volume reaches the guard; all turn guilty."""
        need = self.guard(loc)
        total = self.raid_bonus_all(seat)
        chosen: list[int] = []
        while total < need:
            opts = [(RAID_WITH, f) for f in self.raiders(seat) if f not in chosen]
            a = yield Decision(seat, "raid", opts, {"location": loc, "need": need - total})
            chosen.append(a[1])
            total += self.raid_value(a[1])
        for f in chosen:
            self.make_guilty(f)
        yield from self._destroy(loc)

    def _destroy(self, i: int) -> Generator[Decision, Any, None]:
        """Field -> owner's discard; attached followers stay on the field; 'on_destroyed' fires."""
        owner = self.rules.inst_owner[i]
        self.move(i, owner, "discard")
        steps = self.d(i).steps("on_destroyed")
        if steps:
            yield from self._resolve(owner, i, steps)

    # ---- accusation and execution ----------------------------------------------------------

    def _execute(self, seat: int, src: int, steps: Iterable[Step], kind: str) -> Generator[Decision, Any, bool]:
        """An executed effect: enemies may accuse it (災厄), otherwise it triggers."""
        accused = yield from self._accusation(seat, src, self.d(src).calamity)
        if accused:
            if kind == "chant":
                yield from self._after_chant_accused(seat)
            return False
        yield from self._resolve(seat, src, tuple(steps))
        return True

    def accusers(self, enemy: int, calamity: int) -> list[int]:
        return [f for f in self.z[enemy]["hand"]
                if self.d(f).type == "follower" and (self.d(f).volume or 0) >= calamity]

    def _accusation(self, seat: int, src: int, calamity: int | None) -> Generator[Decision, Any, bool]:
        """Ask each enemy clockwise; the first accuser cancels the effect."""
        if calamity is None:
            return False
        for enemy in self.enemies(seat):
            cands = self.accusers(enemy, calamity)
            if not cands:
                continue
            opts = [(ACCUSE, f) for f in cands] + [(NO_ACCUSE,)]
            a = yield Decision(enemy, "accuse", opts, {"source": src, "calamity": calamity})
            if a[0] == NO_ACCUSE:
                continue
            f = a[1]
            self.move(f, enemy, "stack")          # 1. revealed; the effect is cancelled
            steps = self.d(f).steps("on_accuse")  # 2. its 控訴時 effect (cannot be accused)
            if steps:
                yield from self._resolve(enemy, f, steps)
            self.move(f, enemy, "field")          # 3. onto the accuser's field, guilty
            self.make_guilty(f)
            return True
        return False

    def _after_chant_accused(self, seat: int) -> Generator[Decision, Any, None]:
        """「後」 triggers of your cards, e.g. a location that reacts to an accused 詠頌."""
        for i in list(self.field(seat)):
            steps = self.d(i).steps("after_chant_accused")
            if steps and i not in self.guilty:
                yield from self._resolve(seat, i, steps)

    def _resolve(self, seat: int, src: int, steps: tuple[Step, ...]) -> Generator[Decision, Any, bool]:
        """Resolve steps in order; the first one not carried out in full ends the effect."""
        have = self.symbols(seat)
        reps = [have[s.per[0]] // s.per[1] if s.per else 1 for s in steps]  # fixed at trigger
        done = True
        for step, count in zip(steps, reps):
            if step.if_done and not done:
                continue
            if step.cond and self.symbols(seat)[step.cond[0]] < step.cond[1]:
                continue
            for _ in range(count):
                if step.may:
                    if not self._possible(seat, step):
                        done = False
                        break
                    a = yield Decision(seat, "may", [(ACCEPT,), (DECLINE,)], {"step": step, "source": src})
                    if a[0] == DECLINE:
                        done = False
                        break
                ok = yield from self._verb(seat, src, step)
                if not ok:
                    return False
                done = True
        return True

    def _possible(self, seat: int, step: Step) -> bool:
        """Whether an optional step could be carried out at all (else it is not offered)."""
        v = step.verb
        if v == "draw":
            return bool(self.z[seat]["deck"])
        if v in ("discard", "sacrifice"):
            return bool(self.z[seat]["hand"]) and (v == "discard" or bool(self.field(seat, "ritual")))
        if v in ("search", "recover", "revive"):
            zone = "deck" if v == "search" else "discard"
            return bool(self._of_kind(self.z[seat][zone], step.kind))
        if v in TARGET_VERBS:
            return bool(self._targets(seat, step))
        if v == "absolve":
            return any(f in self.guilty for f in self.field(seat, "follower"))
        return True

    # ---- verbs ---------------------------------------------------------------------------

    def _verb(self, seat: int, src: int, step: Step) -> Generator[Decision, Any, bool]:
        v = step.verb
        if v == "draw":
            for _ in range(step.n):
                if not (yield from self._draw(seat)):
                    return False
            return True
        if v == "discard":
            return (yield from self._discard(seat, step.n, "effect"))
        if v in ("each_discard", "enemy_discard"):
            seats = self.clockwise(self.turn_seat) if v == "each_discard" else self.enemies(seat)
            results = []
            for s in seats:
                results.append((yield from self._discard(s, step.n, "effect")))
            return any(results)
        if v in TYPED_VERBS:
            return (yield from self._fetch(seat, step))
        if v in TARGET_VERBS:
            return (yield from self._target(seat, step))
        if v == "each_destroy_own_follower":
            results = []
            for s in self.clockwise(self.turn_seat):
                own = self.field(s, "follower")
                if not own:
                    results.append(False)
                    continue
                a = yield Decision(s, "choose", [(CHOOSE, f) for f in own], {"verb": v})
                yield from self._destroy(a[1])
                results.append(True)
            return any(results)
        if v == "absolve":
            return (yield from self._absolve(seat, step))
        if v == "sacrifice":
            return (yield from self._sacrifice(seat, step.n))
        if v == "rechant":
            cands = [f for f in self.innocent_followers(seat) if self.d(f).steps("chant")]
            if not cands:
                return False
            a = yield Decision(seat, "choose", [(CHOOSE, f) for f in cands], {"verb": v})
            yield from self._execute(seat, a[1], self.d(a[1]).steps("chant") or (), "chant")
            return True
        raise RuleViolation(f"verb '{v}' has no implementation")  # parse_effect admits no others

    def _discard(self, seat: int, n: int, why: str) -> Generator[Decision, Any, bool]:
        for _ in range(n):
            hand = self.z[seat]["hand"]
            if not hand:
                return False
            a = yield Decision(seat, "discard", [(DISCARD, i) for i in hand], {"why": why})
            self.move(a[1], seat, "discard")
        return True

    def _of_kind(self, cards: list[int], kind: str) -> list[int]:
        return [i for i in cards if kind == "any" or self.d(i).type == kind]

    def _fetch(self, seat: int, step: Step) -> Generator[Decision, Any, bool]:
        """search (deck→hand, revealed; the deck is reshuffled), recover (discard→hand), revive (discard→field)."""
        zone = "deck" if step.verb == "search" else "discard"
        cands = self._of_kind(self.z[seat][zone], step.kind)
        if not cands:
            return False
        a = yield Decision(seat, "choose", [(CHOOSE, i) for i in cands], {"verb": step.verb})
        self.move(a[1], seat, "field" if step.verb == "revive" else "hand")
        return True

    def _targets(self, seat: int, step: Step) -> list[int]:
        kind = "location" if step.verb == "destroy_location" else "follower"
        seats = range(self.n)
        if "own" in step.filters:
            seats = [seat]
        elif "enemy" in step.filters:
            seats = self.enemies(seat)
        out = []
        for s in seats:
            for i in self.field(s, kind):
                if self._matches(i, step):
                    out.append(i)
        return out

    def _matches(self, i: int, step: Step) -> bool:
        d = self.d(i)
        for flt in step.filters:
            if flt == "guilty" and i not in self.guilty:
                return False
            if flt == "innocent" and i in self.guilty:
                return False
            if flt == "chant" and not d.steps("chant"):
                return False
            if flt.startswith("not:") and d.location_type == flt[4:]:
                return False
            if flt.startswith("is:") and d.location_type != flt[3:]:
                return False
            if (m := _GUARD.match(flt)) and self.guard(i) > int(m.group(1)):
                return False
        if step.verb == "make_guilty" and i in self.guilty:
            return False
        return True

    def _target(self, seat: int, step: Step) -> Generator[Decision, Any, bool]:
        cands = self._targets(seat, step)
        if not cands:
            return False
        a = yield Decision(seat, "choose", [(CHOOSE, i) for i in cands], {"verb": step.verb})
        i = a[1]
        if step.verb in ("destroy_follower", "destroy_location"):
            yield from self._destroy(i)
        elif step.verb == "make_guilty":
            self.make_guilty(i)
        elif step.verb == "bounce":
            self.move(i, self.rules.inst_owner[i], "hand")
        return True

    def _absolve(self, seat: int, step: Step) -> Generator[Decision, Any, bool]:
        """解除罪惡 n followers ("upto": at most n, may stop); they do not resume 駐守/解構."""
        for _ in range(step.n):
            cands = [f for f in self.field(seat, "follower") if f in self.guilty]
            if not cands:
                return step.upto
            opts = [(CHOOSE, f) for f in cands] + ([(DECLINE,)] if step.upto else [])
            a = yield Decision(seat, "choose", opts, {"verb": "absolve"})
            if a[0] == DECLINE:
                return True
            self.guilty.discard(a[1])
        return True

    def _sacrifice(self, seat: int, n: int) -> Generator[Decision, Any, bool]:
        """獻祭: cards from hand go face down under one of your rituals (none: impossible)."""
        rituals = self.field(seat, "ritual")
        if not rituals:
            return False
        a = yield Decision(seat, "choose", [(CHOOSE, r) for r in rituals], {"verb": "sacrifice"})
        ritual = a[1]
        for _ in range(n):
            hand = self.z[seat]["hand"]
            if not hand:
                return False
            b = yield Decision(seat, "discard", [(DISCARD, i) for i in hand], {"why": "sacrifice"})
            self.move(b[1], seat, "under")
            self.sacrificed[b[1]] = ritual
        return True

    # ---- end of turn ------------------------------------------------------------------------

    def _end_of_turn(self, seat: int) -> Generator[Decision, Any, None]:
        yield from self._ritual_step(seat)
        while len(self.z[seat]["hand"]) > HAND_LIMIT:
            yield from self._discard(seat, 1, "hand limit")
        if len(self.z[seat]["hand"]) > HAND_LIMIT:
            raise RuleViolation("hand limit not enforced")
        for _ in range(END_DRAW):
            yield from self._draw(seat)

    def _ritual_step(self, seat: int) -> Generator[Decision, Any, None]:
        """May execute one ritual; with an empty deck must, or lose (accused: play goes on)."""
        execs = self.executable_rituals(seat)
        deck_empty = not self.z[seat]["deck"]
        if not execs:
            if deck_empty and not (self.n == 4 and len(self.z[seat]["score"]) >= 3):
                losers = self.team_seats(self.team(seat))
                raise _GameOver([s for s in range(self.n) if s not in losers], "deck out")
            return
        opts = [(RITUAL, r) for r in execs] + ([] if deck_empty else [(DECLINE,)])
        a = yield Decision(seat, "ritual", opts)
        if a[0] == DECLINE:
            return
        r = a[1]
        if (yield from self._accusation(seat, r, self.d(r).calamity)):
            return
        self.move(r, seat, "score")
        team = self.team_seats(self.team(seat))
        target = 2 if self.n == 2 else 4
        if sum(len(self.z[s]["score"]) for s in team) >= target:
            raise _GameOver(team, "rituals")

    # ---- checks, views, agents ---------------------------------------------------------------

    def check_invariants(self) -> None:
        for s in range(self.n):
            for zone, cards in self.z[s].items():
                for i in cards:
                    if self.where[i] != (s, zone):
                        raise RuleViolation(f"{self.name(i)} listed in p{s}.{zone} but tracked at {self.where[i]}")
                    kind = self.d(i).type
                    if kind == "leader" and zone not in ("conspiracy", "field", "hand"):
                        raise RuleViolation(f"leader {self.name(i)} left play to {zone}")
                    if kind == "magic" and zone in ("field", "score"):
                        raise RuleViolation(f"magic {self.name(i)} in {zone}")
                    if zone == "score" and kind != "ritual":
                        raise RuleViolation(f"{self.name(i)} in the score zone is not a ritual")
        for f in self.guilty:
            if self.where[f][1] != "field" or self.d(f).type != "follower":
                raise RuleViolation(f"{self.name(f)} is guilty but not a follower on the field")
        for marks, kind in ((self.garrison, "location"), (self.decon, "ritual")):
            for f, host in marks.items():
                if f in self.guilty or self.where[f][1] != "field":
                    raise RuleViolation(f"{self.name(f)} attached while guilty or off the field")
                if self.where[host] != (self.where[f][0], "field") or self.d(host).type != kind:
                    raise RuleViolation(f"{self.name(f)} attached to {self.name(host)}, not a {kind} on its field")
        for c, r in self.sacrificed.items():
            if self.where[c][1] != "under" or self.where[r] != (self.where[c][0], "field"):
                raise RuleViolation(f"sacrificed {self.name(c)} is not under a ritual of its seat")
        if sum(len(self.z[s]["under"]) for s in range(self.n)) != len(self.sacrificed):
            raise RuleViolation("a card is under a ritual without being sacrificed to it")
        if not 0 <= self.actions_left <= TURN_ACTIONS:
            raise RuleViolation(f"actions left {self.actions_left}")
        if self.decision is not None:
            target = 2 if self.n == 2 else 4
            for team in {self.team(s) for s in range(self.n)}:
                if sum(len(self.z[s]["score"]) for s in self.team_seats(team)) >= target:
                    raise RuleViolation("a side completed enough rituals but the game goes on")

    def hidden_view(self, seat: int) -> "AccusationView":
        return AccusationView(self, seat)

    def action_text(self, action: Hashable) -> str:
        a = tuple(action)  # type: ignore[arg-type]
        code = a[0]
        c = self.name(a[1]) if len(a) > 1 and code not in (FIRST,) else ""
        seat = self.decision.seat if self.decision else -1
        texts = {
            END: "end the action phase", PLAY: f"play {c}", RAID: f"raid {c}",
            RAID_WITH: f"raid with {c}", LOC_ACTION: f"location action of {c}",
            REBUILD: f"rebuild ritual {c} (2 actions)", ABILITY: f"leader ability of {c}",
            ASIDE: f"mulligan: set {c} aside", KEEP: "mulligan: done", ACCUSE: f"accuse with {c}",
            NO_ACCUSE: "do not accuse", CHOOSE: f"choose {c}", DECLINE: "decline",
            ACCEPT: "accept", RITUAL: f"execute ritual {c}", DISCARD: f"discard {c}",
            GARRISON: f"garrison {c}", DECONSTRUCT: f"deconstruct {c}",
            DRAW: f"draws {c}", FIRST: f"seat {a[-1]} goes first"}
        text = texts.get(code, str(a))
        dec = self.decision
        if dec is not None and code == DRAW:
            text = f"seat {dec.context.get('seat')} {text}"
        elif seat >= 0 and dec is not None and code in (CHOOSE, DECLINE, ACCEPT, DISCARD):
            what = dec.context.get("verb") or dec.context.get("why") or dec.kind
            text += f" ({what})"
        return text

    # ---- greedy heuristic (uses only what `seat` may see) -----------------------------------

    def card_value(self, i: int) -> float:
        d = self.d(i)
        base = {"ritual": 8.0, "leader": 6.0, "location": 4.0, "magic": 3.0}.get(d.type, 2.0)
        return base + (d.volume or 0) * 0.5 + len(d.symbols) * 0.5

    def greedy_value(self, action: Hashable) -> float:
        """One-step heuristic for the greedy agent: rituals first, accusations, tempo."""
        dec = self.decision
        if dec is None:
            return 0.0
        a = tuple(action)  # type: ignore[arg-type]
        code, seat = a[0], dec.seat
        if code == RITUAL:
            return 100.0
        if code == ACCUSE:
            return 40.0 - (self.d(a[1]).volume or 0)
        if code == PLAY:
            d = self.d(a[1])
            if d.type == "ritual":
                return 30.0
            if d.type == "magic":
                return 8.0 + (3.0 if d.stardust is not None and self.stardust(seat) >= d.stardust else 0.0)
            return 10.0 + len(d.symbols) + (d.volume or 0) * 0.3
        if code == RAID:
            return 18.0 + self.guard(a[1]) * 0.2
        if code == RAID_WITH:
            return -self.raid_value(a[1])
        if code in (ABILITY, REBUILD):
            return 20.0
        if code == LOC_ACTION:
            return 9.0
        if code == KEEP:
            return 1.0
        if code == ASIDE:
            return -5.0 if self.d(a[1]).type == "ritual" else 0.5 - self.card_value(a[1]) * 0.1
        if code == DISCARD:
            return -self.card_value(a[1])
        if code in (GARRISON, DECONSTRUCT, ACCEPT):
            return 2.0
        if code == CHOOSE:
            return self._choice_value(seat, a[1], dec.context.get("verb", ""))
        if code == DECLINE:
            return -50.0 if dec.kind == "ritual" else 0.0
        return 0.0

    def _choice_value(self, seat: int, i: int, verb: str) -> float:
        owner_is_me = self.team(self.rules.inst_owner[i]) == self.team(seat)
        if verb in HARMFUL and verb != "each_destroy_own_follower":
            return (-10.0 if owner_is_me else 10.0) + self.card_value(i) * (1 if not owner_is_me else -1)
        if verb == "each_destroy_own_follower":
            return -self.card_value(i)
        return self.card_value(i)


class AccusationView:
    """What one seat sees: its own hand and ritual sacrifices, public zones, hidden counts."""

    def __init__(self, state: AccusationState, seat: int) -> None:
        self.seat = seat
        self.turn_seat = state.turn_seat
        self.actions_left = state.actions_left
        self.decision_kind = state.decision.kind if state.decision else "terminal"
        self.hand = [state.rules.instances[i] for i in state.z[seat]["hand"]]
        self.public = {f"p{s}.{z}": [state.rules.instances[i] for i in state.z[s][z]]
                       for s in range(state.n) for z in PUBLIC_ZONES}
        self.hand_counts = [len(state.z[s]["hand"]) for s in range(state.n)]
        self.deck_counts = [len(state.z[s]["deck"]) for s in range(state.n)]
        self.under_counts = [len(state.z[s]["under"]) for s in range(state.n)]
        self.own_under = [state.rules.instances[i] for i in state.z[seat]["under"]]
        self.guilty = [state.rules.instances[i] for i in sorted(state.guilty)]
        self.greedy_value: Callable[[Hashable], float] = state.greedy_value
