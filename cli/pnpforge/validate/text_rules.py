"""Text rules: a card's printed text must say what its fields say.

Many cards restate a field in their rules text — a number (「額外獲得1點執行力」
and `effect_value` 1), a colour list (「漏洞：紅、黃」 and `holes` R, Y), a
keyword (「矚目」 and the trait 矚目), the name of the card a field names
(「弱點：查封土地」 and `weakness` EX-seize-land).  A game declares, per card
type, which part of the text restates which field (table `text_rules`, with
the rulebook line behind each), and `pnp validate` / `pnp check` report every
card whose text and field disagree.  The text stays the rulebook's words
(its provenance is the rulebook's); the rule only binds the restated part.

Kinds and their parameters (each also takes `query`, the search language,
to cover only some cards of the type):

- `number`  pattern (a regular expression with one group: the number, in
            digits or Chinese numerals), field; `absent` (the field's value
            when the text does not say it; without it, a card whose text
            lacks the pattern is a breach)
- `list`    pattern (one group: the list as printed), field, `map` (printed
            word → stored value), `separators` (default 、，,／/ and blanks),
            `ordered` (default false: compared as a multiset), `item` (a pattern
            reading each item: one group, the value; or two, count and value,
            so 「3個凋零」 is three 凋零); a text field is split the same way
- `phrase`  phrase, when (a query): the text holds the phrase exactly when
            the card matches `when`
- `name`    pattern (one group: a card name), field (a ref): the text names
            the card the field names, and only when the field names one
- `template` template ("第{level}級；漏洞：{holes}"), `map` (stored value →
            printed word), `join` (between list items, default 、): the whole
            text is generated from the fields.  Every write path (`cards
            add/set`, `import`) rewrites the text from it, so it cannot drift;
            the check still finds a text written around the editor.  (No
            `query`: it covers every card of the type.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.store.declared import TEXT_RULE_PARAMS as PARAMS
from pnpforge.store.declared import TextRule
from pnpforge.store.declared import check_text_rule_params as check_params
from pnpforge.validate.constraints import Breach, selector, value

__all__ = ["PARAMS", "check_params", "evaluate_text_rule", "parse_number", "text_rule_breaches"]

_DIGITS = {
    "零": 0,
    "一": 1,
    "二": 2,
    "兩": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_SEPARATORS = "、，,／/ "


def parse_number(text: str) -> int | None:
    """'3', '３', '三', '十二', '兩' as an integer; None for anything else."""
    text = text.strip()
    if not text:
        return None
    if text.isdigit():
        return int(text)  # also full-width digits
    if all(ch in _DIGITS or ch == "十" for ch in text):
        if "十" not in text:
            return int("".join(str(_DIGITS[ch]) for ch in text))
        tens, _, units = text.partition("十")
        return (_DIGITS[tens] if tens else 1) * 10 + (_DIGITS[units] if units else 0)
    return None


def _show(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return "none" if v is None else str(v)


def _number(card: Card, rule: dict[str, Any]) -> list[str]:
    field, now = rule["field"], value(card, rule["field"])
    found = [parse_number(m) for m in re.findall(rule["pattern"], card.text or "")]
    if not found:
        if "absent" in rule:
            absent = rule["absent"]
            return (
                []
                if now == absent or (now is None and absent in (0, None))
                else [
                    f"the text does not state {field}, so it must be {_show(absent)}, "
                    f"but {field} is {_show(now)}"
                ]
            )
        return [f"the text does not state {field} ({_show(now)}); expected /{rule['pattern']}/"]
    return [
        f"the text says {_show(n)} where {field} is {_show(now)}" for n in found if n is None or n != now
    ][:1]


def _split(text: str, rule: dict[str, Any]) -> list[str]:
    seps = rule.get("separators", _SEPARATORS)
    return [p.strip() for p in re.split("[" + re.escape(seps) + "]+", text) if p.strip()]


def _items(printed: str, rule: dict[str, Any]) -> list[Any]:
    """The printed list as stored values: split, each item read by `item` ('3個凋零' → 3 × 凋零), mapped."""
    mapping = rule.get("map") or {}
    out: list[Any] = []
    for part in _split(printed, rule):
        count, word = 1, part
        if rule.get("item"):
            m = re.search(rule["item"], part)
            if m is None:
                return [part]  # unreadable: compared as printed, so it differs
            count, word = (parse_number(m.group(1)) or 0, m.group(2)) if m.re.groups == 2 else (1, m.group(1))
        out += [mapping.get(word, word)] * count
    return out


def _list(card: Card, rule: dict[str, Any]) -> list[str]:
    field, now = rule["field"], value(card, rule["field"])
    if isinstance(now, list):
        stored = now
    elif isinstance(now, str):
        stored = _split(now, {"separators": ",，、/| "})
    else:
        stored = [] if now is None else [now]
    match = re.search(rule["pattern"], card.text or "")
    if match is None:
        return [f"the text does not list {field} ({_show(stored)}); expected /{rule['pattern']}/"]
    printed = _items(match.group(1), rule)
    same = printed == stored if rule.get("ordered") else sorted(map(str, printed)) == sorted(map(str, stored))
    return [] if same else [f"the text says {match.group(1)} where {field} is {_show(stored)}"]


def _name(card: Card, rule: dict[str, Any], by_id: dict[str, Card]) -> list[str]:
    field, named = rule["field"], value(card, rule["field"])
    match = re.search(rule["pattern"], card.text or "")
    if named in (None, ""):
        return [f"the text names {match.group(1)} but {field} is empty"] if match else []
    target = by_id.get(str(named))
    if match is None:
        return [f"the text does not name {field} {named} ({target.name if target else '?'})"]
    if target is None or target.name != match.group(1).strip():
        shown = f"{named} ({target.name})" if target else f"{named} (no such card)"
        return [f"the text names {match.group(1)} where {field} is {shown}"]
    return []


_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def render_template(card: Card, params: dict[str, Any]) -> str:
    """The text a `template` rule generates from `card`'s values."""
    mapping, join = params.get("map") or {}, params.get("join", "、")

    def shown(m: re.Match[str]) -> str:
        v = value(card, m.group(1))
        if isinstance(v, list):
            return join.join(str(mapping.get(str(x), x)) for x in v)
        return "" if v is None else str(mapping.get(str(v), v))

    return _FIELD.sub(shown, params["template"])


def with_generated_text(conn: Any, card: Card) -> Card:
    """`card` with its text generated by its type's `template` rule, if the type has one.

    Every write path calls this inside its transaction, before the edition
    rules, so a generated text that changes a rulebook text is the designer's.
    """
    import copy

    from pnpforge.store.declared import list_text_rules

    for rule in list_text_rules(conn, card.game):
        if rule.kind == "template" and rule.card_type == card.type and rule.params:
            text = render_template(card, rule.params)
            if text != card.text:
                card = copy.deepcopy(card)
                card.text = text
    return card


def evaluate_text_rule(rule: TextRule, select: Callable[[str], list[Card]]) -> list[Breach]:
    """The cards whose text breaks `rule`; PnpError when the rule itself is malformed."""
    check_params(rule.kind, rule.params)
    params = rule.params or {}
    scope = f"type:{rule.card_type}" + (f" ({params['query']})" if params.get("query") else "")
    cards = select(scope)
    out: list[Breach] = []
    if rule.kind == "phrase":
        matching = {c.id for c in select(f"type:{rule.card_type} ({params['when']})")}
        for c in cards:
            says = params["phrase"] in (c.text or "")
            if says != (c.id in matching):
                why = (
                    f"the text says {params['phrase']} but the card does not match '{params['when']}'"
                    if says
                    else f"the card matches '{params['when']}' but the text does not say {params['phrase']}"
                )
                out.append(Breach(f"{c.id}: {why}", (c.id,)))
        return out
    by_id = {c.id: c for c in select("")} if rule.kind == "name" else {}
    for c in cards:
        if rule.kind == "template":
            expected = render_template(c, params)
            whys = (
                [] if c.text == expected else [f"the text is not the one its fields generate: '{expected}'"]
            )
        elif rule.kind == "number":
            whys = _number(c, params)
        elif rule.kind == "list":
            whys = _list(c, params)
        else:
            whys = _name(c, params, by_id)
        out += [Breach(f"{c.id}: {why}", (c.id,)) for why in whys]
    return out


def text_rule_breaches(db: Any, game: str, cards: list[Card]) -> list[tuple[TextRule, list[Breach]]]:
    """Every text rule of `game` with its breaches; a malformed rule is one breach saying why."""
    from pnpforge.store.declared import list_text_rules

    select = selector(db, game, cards)
    out = []
    for rule in list_text_rules(db, game):
        try:
            breaches = evaluate_text_rule(rule, select)
        except PnpError as exc:
            breaches = [Breach(f"the text rule itself is invalid: {exc}")]
        out.append((rule, breaches))
    return out
