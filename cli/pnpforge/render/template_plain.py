"""Templates and expressions that only read values, run without Jinja.

Most region templates are literal text with `{{ name }}` / `{{ name.attr }}`
placeholders, sometimes inside an `{% if name.attr %}` block (a card name, a
stamp line, a subtitle shown when an English name is set); most expressions
read one value or call a context function (`fields()`, `f.symbols`).  Running
one through Jinja builds a new context per call, which costs more than looking
the values up; a 10,000-card deck renders such templates tens of thousands of
times.

`plain_template` and `plain_expression` classify a source once.  The object
they return reads each value as the sandbox would (the card's views, the type's
dicts) and prints it through the environment's finalize (which must print a
plain str as itself), exactly as the compiled code does.  Whenever a lookup is
not one it can answer for certain (an unknown name, a dict key that is also a
dict method, a missing field, no card) it hands the call to the compiled Jinja
object, so the result is always the one Jinja gives.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from numbers import Number
from typing import Any

from pnpforge.render.face_values import CardView, FieldsView

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*\}\}")
_CARD_ATTRS = frozenset(CardView._PLAIN + CardView._MARKABLE)
_UNSURE = object()  # a lookup only Jinja can answer
_CONSTANTS = frozenset(("true", "false", "none", "True", "False", "None"))  # Jinja literals


Part = Any  # a literal str, a (root, attr) placeholder, Alternatives, or ("if", root, attr, parts)


class PlainTemplate:
    """A template of literal text, value placeholders and simple `if` blocks, rendered
    without Jinja."""

    __slots__ = ("parts", "finalize", "jinja")

    def __init__(self, parts: list[Part], finalize: Callable, jinja: Any) -> None:
        self.parts, self.finalize, self.jinja = parts, finalize, jinja

    def render(self, variables: dict[str, Any]) -> str:
        """What `jinja.render(variables)` returns."""
        out: list[str] = []
        if not _render_parts(self.parts, variables, self.finalize, out):
            return self.jinja.render(variables)
        return "".join(out)


def _render_parts(parts: list[Part], variables: dict[str, Any], finalize: Callable, out: list[str]) -> bool:
    """Append the output of `parts`; False as soon as a value needs Jinja to read it."""
    for part in parts:
        if type(part) is str:
            out.append(part)
        elif type(part) is Alternatives:
            value = part.value(variables)
            if value is _UNSURE:
                return False
            out.append(value if type(value) is str else str(finalize(value)))
        elif len(part) == 2:
            value = _lookup(variables, *part)
            if value is _UNSURE:
                return False
            # a plain str prints as itself (finalize marks only the provisional str subclass)
            out.append(value if type(value) is str else str(finalize(value)))
        else:
            value = _lookup(variables, part[1], part[2])
            if value is _UNSURE:
                return False
            if value and not _render_parts(part[3], variables, finalize, out):
                return False
    return True


def _lookup(variables: dict[str, Any], root: str, attr: str | None) -> Any:
    """`root.attr` as the sandbox reads it, or _UNSURE."""
    if root not in variables:
        return _UNSURE
    value = variables[root]
    if attr is None:
        return value
    kind = type(value)
    if kind is CardView:
        return getattr(value, attr) if attr in _CARD_ATTRS else _UNSURE
    if kind is FieldsView:
        if attr in value and not hasattr(FieldsView, attr) and not attr.startswith("_"):
            return value[attr]
        return _UNSURE
    if kind is dict:
        return value[attr] if attr in value and not hasattr(dict, attr) else _UNSURE
    return _UNSURE


_TOKEN = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}|\{|\}", re.S)
_PATH = re.compile(r"\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*")
_IF = re.compile(r"\s*if\s+([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*")
_ENDIF = re.compile(r"\s*endif\s*")


def plain_template(source: str, env: Any, finalize: Callable, jinja: Any) -> PlainTemplate | None:
    """A PlainTemplate for `source` when it is literal text, `{{ name }}` / `{{ name.attr }}`
    placeholders and unnested `{% if name.attr %} … {% endif %}` blocks only; None for
    anything else (filters, other tags, comments, whitespace control)."""
    if env.line_statement_prefix is not None or env.line_comment_prefix is not None:
        return None
    if (env.variable_start_string, env.variable_end_string) != ("{{", "}}"):
        return None
    if (env.block_start_string, env.block_end_string) != ("{%", "%}"):
        return None
    if "\r" in source or source.endswith("\n"):  # newline rules Jinja applies: not here
        return None
    parts = _parse(source, bool(env.trim_blocks), bool(env.lstrip_blocks))
    if parts is None or all(type(p) is str for p in parts):
        return None
    return PlainTemplate(parts, finalize, jinja)


def _parse(source: str, trim_blocks: bool, lstrip_blocks: bool) -> list[Part] | None:
    """The parts of a template source, or None when it is not one PlainTemplate renders."""
    top: list[Part] = []
    body = top  # where parts go: the template, or the open if block
    at, trim = 0, False
    for m in _TOKEN.finditer(source):
        literal = source[at : m.start()]
        if trim and literal.startswith("\n"):
            literal = literal[1:]  # trim_blocks: the newline after a block tag goes
        trim = False
        if literal:
            body.append(literal)
        at = m.end()
        if m.group(1) is not None:
            placeholder = _placeholder(m.group(1))
            if placeholder is None:
                return None
            body.append(placeholder)
            continue
        if m.group(2) is None:
            return None  # a stray brace or a comment
        line = source[source.rfind("\n", 0, m.start()) + 1 : m.start()]
        if lstrip_blocks and line and not line.strip(" \t"):
            return None  # lstrip_blocks would remove the indent before the tag
        opening, closing = _IF.fullmatch(m.group(2)), _ENDIF.fullmatch(m.group(2))
        if opening is not None and body is top and opening.group(1) not in _CONSTANTS:
            block: list[Part] = []
            top.append(("if", opening.group(1), opening.group(2), block))
            body = block
        elif closing is not None and body is not top:
            body = top
        else:
            return None
        trim = trim_blocks
    if body is not top:
        return None
    tail = source[at:]
    if trim and tail.startswith("\n"):
        tail = tail[1:]
    if tail:
        top.append(tail)
    return top


def _placeholder(inner: str) -> Part | None:
    """A `{{ … }}` placeholder's part: (root, attr) for a value, Alternatives for operands
    joined by `or`; None for anything else."""
    path = _PATH.fullmatch(inner)
    if path is not None:
        return None if path.group(1) in _KEYWORDS else (path.group(1), path.group(2))
    operands: list[tuple[Any, ...]] = []
    at = 0
    while True:
        m = _OPERAND.match(inner, at)
        if m is None:
            return None
        name, attr, call, arg1, arg2, lit1, lit2 = m.groups()
        if name is not None and name in _KEYWORDS:
            return None
        if name is None:
            operands.append(("literal", lit1 if lit1 is not None else lit2))
        elif call is not None:
            arg = arg1 if arg1 is not None else arg2
            operands.append(("call", name, () if arg is None else (arg,)))
        else:
            operands.append(("path", name, attr))
        at = m.end()
        if at == len(inner):
            return Alternatives(tuple(operands))
        joined = _OR.match(inner, at)
        if joined is None:
            return None
        at = joined.end()


# an operand: name, name.attr, name() or name('text'), or 'text' ("text"), without escapes
_OPERAND = re.compile(
    r"\s*(?:([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*)|(\(\s*(?:'([^'\\]*)'|\"([^\"\\]*)\")?\s*\)))?"
    r"|'([^'\\]*)'|\"([^\"\\]*)\")\s*"
)
_OR = re.compile(r"or\b")
# Jinja's literals and operator words: never a variable's name
_KEYWORDS = _CONSTANTS | {"and", "or", "not", "in", "is", "if", "else"}


class Alternatives:
    """`a or b or …` of values, text literals and context-function calls: the first true
    operand (else the last), each read only when the ones before it were false, as Jinja
    reads them (a read of a provisional value is noted)."""

    __slots__ = ("operands",)

    def __init__(self, operands: tuple[tuple[Any, ...], ...]) -> None:
        self.operands = operands

    def value(self, variables: dict[str, Any]) -> Any:
        """The expression's value, or _UNSURE when an operand needs Jinja to read it."""
        value: Any = _UNSURE
        for operand in self.operands:
            value = _operand(operand, variables)
            if value is _UNSURE or value:
                return value
        return value


def _operand(operand: tuple[Any, ...], variables: dict[str, Any]) -> Any:
    kind = operand[0]
    if kind == "literal":
        return operand[1]
    if kind == "path":
        return _lookup(variables, operand[1], operand[2])
    func = variables.get(operand[1])
    if type(func) is not types.FunctionType or (func.__dict__ and _special_callable(func)):
        return _UNSURE
    return func(*operand[2])


_EXPRESSION = re.compile(r"\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*)|(\(\s*\)))?\s*")


class PlainExpression:
    """An expression that reads one value, negates it (`not x.y`), tests it for a number
    (`x.y is number`) or calls one of the context's own functions."""

    __slots__ = ("root", "attr", "call", "jinja", "form")

    def __init__(self, root: str, attr: str | None, call: bool, jinja: Any, form: str = "") -> None:
        self.root, self.attr, self.call, self.jinja, self.form = root, attr, call, jinja, form

    def __call__(self, **variables: Any) -> Any:
        """What `jinja(**variables)` returns (undefined values as None)."""
        if self.call:
            func = variables.get(self.root)
            if type(func) is not types.FunctionType or (func.__dict__ and _special_callable(func)):
                return self.jinja(**variables)
            return func()
        value = _lookup(variables, self.root, self.attr)
        if value is _UNSURE:
            return self.jinja(**variables)
        if not self.form:
            return value
        return not value if self.form == "not" else isinstance(value, Number)


def _special_callable(func: Any) -> bool:
    """A function Jinja would treat specially (context-passing, or refused by the sandbox)."""
    return any(hasattr(func, a) for a in ("jinja_pass_arg", "unsafe_callable", "alters_data"))


def plain_expression(source: str, jinja: Any) -> PlainExpression | None:
    """A PlainExpression for `name`, `name.attr`, `name()`, `not name.attr` or
    `name.attr is number` (when the environment's `number` test is Jinja's); None otherwise."""
    m = _EXPRESSION.fullmatch(source)
    if m is not None:
        if m.group(1) in _KEYWORDS:
            return None
        return PlainExpression(m.group(1), m.group(2), m.group(3) is not None, jinja)
    for form, pattern in (("not", _NOT), ("number", _IS_NUMBER)):
        m = pattern.fullmatch(source)
        if m is not None and m.group(1) not in _KEYWORDS:
            if form == "number" and not _jinja_number_test(jinja):
                return None
            return PlainExpression(m.group(1), m.group(2), False, jinja, form)
    return None


_NOT = re.compile(r"\s*not\s+([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*")
_IS_NUMBER = re.compile(r"\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s+is\s+number\s*")


def _jinja_number_test(jinja: Any) -> bool:
    """Is `number` in the expression's environment Jinja's own test (isinstance of Number)?"""
    from jinja2.tests import test_number

    env = getattr(getattr(jinja, "_template", None), "environment", None)
    return env is not None and env.tests.get("number") is test_number
