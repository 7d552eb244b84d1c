"""Rulebook worked examples, run: each one recomputed from the cards as they are now.

A worked example is data (table `examples`): its set-up, the result the
rulebook prints, the rulebook line, and the engine options of the reading it
follows.  Two runners:

- `engine`: the game's engine computes it (`rules.run_example(setup)`), so the
  example exercises the same arithmetic as the sample games;
- `formula`: declared arithmetic over card values, for games or steps the
  engine does not expose.  `setup` is {"values": {NAME: EXPRESSION, …}},
  evaluated in order; an expression uses whole numbers, + - * //, parentheses,
  names computed before, `{CARD.field}` (a card's value: a field, `copies`…),
  and min(), max(), len(list), has(list, item) (1 or 0), count(list, item).

`expected` maps result names to the printed values.  An example whose result
differs is an error naming it.  When an example declares options (its reading)
and the engine's default reading gives another result, that is a known
conflict: reported, and a warning (an error under --strict) until the example
records it in `conflict` (and the cards' notes say so).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.store.declared import Example
from pnpforge.validate.constraints import value

_REF = re.compile(r"\{([A-Za-z0-9][A-Za-z0-9._-]*?)\.([a-z_][a-z0-9_]*)\}")


@dataclass(frozen=True)
class ExampleResult:
    """One example, run: what it expects, what the cards give now, and under the default reading."""

    example: Example
    actual: dict[str, Any] = field(default_factory=dict)
    default: dict[str, Any] | None = None  # under the engine's default options, when the example has its own
    error: str = ""  # why it could not run (a bad set-up, a missing card, no engine)
    cards: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.error and _matches(self.example.expected or {}, self.actual)

    @property
    def contradicted_by_default(self) -> bool:
        return self.default is not None and not _matches(self.example.expected or {}, self.default)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.example.to_dict(),
            "actual": self.actual,
            "default": self.default,
            "ok": self.ok,
            "error": self.error,
            "cards": list(self.cards),
        }


def _matches(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> bool:
    return all(actual.get(k) == v for k, v in expected.items())


def shown(values: Mapping[str, Any], keys: Mapping[str, Any]) -> str:
    """'power 15, difficulty 14' for the keys an example expects."""
    return ", ".join(f"{k} {values.get(k, '?')}" for k in keys)


# ---- formulas ------------------------------------------------------------------------------------

_FUNCTIONS: dict[str, Callable[..., int]] = {
    "min": min,
    "max": max,
    "len": lambda xs: len(xs) if isinstance(xs, (list, str)) else 0,
    "has": lambda xs, x: int(isinstance(xs, list) and x in xs),
    "count": lambda xs, x: xs.count(x) if isinstance(xs, list) else 0,
}
_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
}


def _eval(node: ast.AST, names: Mapping[str, Any]) -> Any:
    """A whitelisted expression: numbers, strings, names, + - * //, unary -, the few functions."""
    if isinstance(node, ast.Expression):
        return _eval(node.body, names)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, str))
        and not isinstance(node.value, bool)
    ):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _eval(node.left, names), _eval(node.right, names)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right)):
            raise PnpError(f"arithmetic on a value that is not a whole number ({left!r}, {right!r})")
        return _OPS[type(node.op)](left, right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        if node.keywords:
            raise PnpError("functions take no keyword arguments")
        return _FUNCTIONS[node.func.id](*(_eval(a, names) for a in node.args))
    raise PnpError(f"'{ast.unparse(node)}' is not allowed in a formula")


def _parse(
    name: str, text: Any, cards: Mapping[str, Card], used: list[str]
) -> tuple[ast.AST, dict[str, Any]]:
    """One formula parsed, its `{CARD.field}` references read into names `_ref0`, `_ref1` …"""
    refs: dict[str, Any] = {}

    def card_value(m: re.Match[str]) -> str:
        card = cards.get(m.group(1))
        if card is None:
            raise PnpError(f"{name}: names card '{m.group(1)}', which is not in the game")
        if m.group(1) not in used:
            used.append(m.group(1))
        key = f"_ref{len(refs)}"
        refs[key] = value(card, m.group(2))
        if refs[key] is None:
            raise PnpError(f"{name}: card {m.group(1)} has no value '{m.group(2)}'")
        return key

    try:
        return ast.parse(_REF.sub(card_value, str(text)), mode="eval"), refs
    except SyntaxError as exc:
        raise PnpError(f"{name}: not a formula ({exc.msg})") from None


def run_formula(
    setup: Mapping[str, Any], cards: Mapping[str, Card]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The results of a formula example, and the card ids it reads.

    Formulas may use each other's names in any order (the stored JSON keeps no
    order): each is computed once the names it uses are.
    """
    formulas = setup.get("values")
    if not isinstance(formulas, dict) or not formulas:
        raise PnpError('a formula example needs "values": {NAME: EXPRESSION, …} in its set-up')
    used: list[str] = []
    parsed = {name: _parse(name, text, cards, used) for name, text in formulas.items()}
    needs = {
        name: {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in formulas} - {name}
        for name, (tree, _) in parsed.items()
    }
    names: dict[str, Any] = {}
    while len(names) < len(parsed):
        ready = [n for n in parsed if n not in names and needs[n] <= set(names)]
        if not ready:
            stuck = sorted(n for n in parsed if n not in names)
            raise PnpError(f"the formulas {', '.join(stuck)} depend on each other in a circle")
        for name in ready:
            tree, refs = parsed[name]
            try:
                names[name] = _eval(tree, {**names, **refs})
            except (TypeError, ValueError, ZeroDivisionError) as exc:  # min() of nothing, // 0 …
                raise PnpError(f"{name}: {exc}") from None
    return names, tuple(used)


# ---- running ---------------------------------------------------------------------------------------


def run_examples(db: Any, game: str, cards: list[Card]) -> list[ExampleResult]:
    """Every worked example of `game`, run on the cards as they are now."""
    from pnpforge.store.declared import list_examples

    examples = list_examples(db, game)
    if not examples:
        return []
    by_id = {c.id: c for c in cards}
    engines: dict[str, Any] = {}
    return [_run(db, game, ex, by_id, engines) for ex in examples]


def _engine(db: Any, game: str, options: Mapping[str, Any], engines: dict[str, Any]) -> Any:
    from pnpforge.rules.games import has_engine, load_rules

    key = repr(sorted(options.items()))
    if key not in engines:
        if not has_engine(game, db):
            raise PnpError("the game has no rules engine to run it (declare it as a formula instead)")
        engines[key] = load_rules(db, game, dict(options))
    rules = engines[key]
    if not hasattr(rules, "run_example"):
        raise PnpError("the game's engine cannot run worked examples (it has no run_example)")
    return rules


def _run(db: Any, game: str, ex: Example, cards: dict[str, Card], engines: dict[str, Any]) -> ExampleResult:
    from pnpforge.rules.kit.fields import DeckError

    if ex.setup is None or ex.expected is None or ex.options is None:
        return ExampleResult(ex, error="its set-up, expected result or options are not JSON objects")
    try:
        if ex.runner == "formula":
            actual, used = run_formula(ex.setup, cards)
            return ExampleResult(ex, actual, cards=used)
        used = tuple(str(v) for v in _flat(ex.setup.values()) if isinstance(v, str) and v in cards)
        actual = _engine(db, game, ex.options, engines).run_example(ex.setup)
        default = _engine(db, game, {}, engines).run_example(ex.setup) if ex.options else None
        return ExampleResult(ex, actual, default, cards=used)
    except (PnpError, DeckError) as exc:
        return ExampleResult(ex, error=str(exc))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:  # a set-up of the wrong shape
        return ExampleResult(ex, error=f"its set-up does not fit the engine ({type(exc).__name__}: {exc})")


def _flat(values: Any) -> list[Any]:
    out: list[Any] = []
    for v in values:
        out += _flat(v) if isinstance(v, list) else [v]
    return out
