"""The effect language of Accusation cards: the `effect` field parsed into steps.

A card's text lives in the database as a small key language (see the package
docstring for the grammar) so a designer can change what a card does without
code; this module turns one field value into an `Effect`.  Anything it does not
understand is kept in `Effect.unknown` and reported by the checker, never
silently dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# Sections whose body is a list of steps.
STEP_TRIGGERS = (
    "chant",
    "on_garrison",
    "on_deconstruct",
    "action",
    "play",
    "ability",
    "on_accuse",
    "on_destroyed",
    "after_chant_accused",
    "stardust_change",
    "stardust_extra",
)
PASSIVES = ("extra_stardust", "raid_bonus", "raid_bonus_all", "guard_others")
COUNT_VERBS = ("draw", "discard", "each_discard", "enemy_discard", "absolve", "sacrifice")
TYPED_VERBS = ("search", "recover", "revive")
TARGET_VERBS = ("destroy_follower", "destroy_location", "make_guilty", "bounce")
PLAIN_VERBS = ("each_destroy_own_follower", "rechant")
VERBS = COUNT_VERBS + TYPED_VERBS + TARGET_VERBS + PLAIN_VERBS
CARD_KINDS = ("follower", "location", "ritual", "magic", "leader", "any")
FOLLOWER_FILTERS = ("guilty", "innocent", "chant", "own", "enemy")
LOCATION_FILTERS = ("own", "enemy")
CONDITION_PATTERN = re.compile(r"^if:(.+)>=(\d+)$")
PER_PATTERN = re.compile(r"^per:(.+)/(\d+)$")
GUARD_AT_MOST_PATTERN = re.compile(r"^guard<=(\d+)$")


@dataclass(frozen=True)
class Step:
    """One step of an effect: a verb with its count, card kind or target filters."""

    verb: str
    count: int = 1
    kind: str = ""
    filters: tuple[str, ...] = ()
    may: bool = False
    upto: bool = False
    condition: tuple[str, int] | None = None  # "若你擁有": tested once when reached
    if_done: bool = False  # "若你這麼做": the previous step was carried out
    per: tuple[str, int] | None = None  # "你每擁有": repeat count fixed at trigger


@dataclass
class Effect:
    """A card's parsed effect field."""

    sections: dict[str, tuple[Step, ...]] = field(default_factory=dict)
    passives: dict[str, int] = field(default_factory=dict)
    stardust_calamity: int = 0
    unknown: list[str] = field(default_factory=list)

    def has_stardust(self) -> bool:
        """Whether the card has any 星塵 part (the stardust threshold only matters then)."""
        return bool(
            self.stardust_calamity or "stardust_change" in self.sections or "stardust_extra" in self.sections
        )


def parse_effect(text: str | None) -> Effect:
    """Parse an effect key; what the engine does not know goes to `unknown`, not an error."""
    effect = Effect()
    for raw_section in (text or "").split("|"):
        raw_section = raw_section.strip()
        if not raw_section:
            continue
        trigger, separator, body = raw_section.partition(":")
        trigger, body = trigger.strip(), body.strip()
        if not separator:
            effect.unknown.append(raw_section)
        elif trigger == "passive":
            _parse_passives(body, effect)
        elif trigger == "stardust_calamity":
            if body.isdigit():
                effect.stardust_calamity = int(body)
            else:
                effect.unknown.append(raw_section)
        elif trigger in STEP_TRIGGERS:
            effect.sections[trigger] = _parse_steps(trigger, body, effect)
        else:
            effect.unknown.append(raw_section)
    return effect


def _parse_steps(trigger: str, body: str, effect: Effect) -> tuple[Step, ...]:
    steps = []
    for part in body.split(";"):
        step = _parse_step(part.strip())
        if step is None:
            effect.unknown.append(f"{trigger}: {part.strip()}")
        else:
            steps.append(step)
    return tuple(steps)


def _parse_passives(body: str, effect: Effect) -> None:
    for part in filter(None, (p.strip() for p in body.split(";"))):
        key, _, number = part.partition(" ")
        if key in PASSIVES and number.strip().isdigit():
            effect.passives[key] = effect.passives.get(key, 0) + int(number)
        else:
            effect.unknown.append(f"passive: {part}")


def _parse_prefixes(tokens: list[str]) -> dict[str, Any] | None:
    """Consume `may`, `if:` and `per:` prefixes from `tokens`; None on a malformed one."""
    prefixes: dict[str, Any] = {}
    while tokens and (tokens[0] == "may" or tokens[0].startswith(("if:", "per:"))):
        token = tokens.pop(0)
        if token == "may":
            prefixes["may"] = True
        elif token == "if:done":
            prefixes["if_done"] = True
        elif match := CONDITION_PATTERN.match(token):
            prefixes["condition"] = (match.group(1), int(match.group(2)))
        elif (match := PER_PATTERN.match(token)) and int(match.group(2)) > 0:
            prefixes["per"] = (match.group(1), int(match.group(2)))
        else:
            return None
    return prefixes


def _parse_step(text: str) -> Step | None:
    """One step, or None when any token is not part of the language."""
    tokens = text.split()
    prefixes = _parse_prefixes(tokens)
    if prefixes is None or not tokens or tokens[0] not in VERBS:
        return None
    verb, args = tokens[0], tokens[1:]
    if verb in COUNT_VERBS:
        if args and args[0].isdigit():
            prefixes["count"] = int(args.pop(0))
        if verb == "absolve" and args[:1] == ["upto"]:
            prefixes["upto"] = True
            args.pop(0)
        return Step(verb, **prefixes) if not args else None
    if verb in TYPED_VERBS:
        if len(args) != 1 or args[0] not in CARD_KINDS:
            return None
        return Step(verb, kind=args[0], **prefixes)
    if verb in TARGET_VERBS:
        if not all(_is_target_filter(verb, arg) for arg in args):
            return None
        return Step(verb, filters=tuple(args), **prefixes)
    return Step(verb, **prefixes) if not args else None


def _is_target_filter(verb: str, arg: str) -> bool:
    if verb != "destroy_location":
        return arg in FOLLOWER_FILTERS
    return (
        arg in LOCATION_FILTERS or arg.startswith(("not:", "is:")) or bool(GUARD_AT_MOST_PATTERN.match(arg))
    )
