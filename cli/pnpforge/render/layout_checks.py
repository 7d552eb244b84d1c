"""Checking layout values: colours, numbers, choices, Jinja templates and expressions.

Every check appends a message naming the file, the place and what is allowed
to a list of problems, so one run reports every mistake of a layout at once
(Squib style) instead of stopping at the first.
"""

from __future__ import annotations

import copy
import math
from functools import lru_cache
from typing import Any

from jinja2 import TemplateSyntaxError, nodes

from pnpforge.render import units
from pnpforge.render.layout_options import CARD, Inherit, Opt
from pnpforge.render.templating import sandboxed_environment

# Bounds of every length in a layout: a card is at most 400 mm a side (the schema's limit), so no
# size, margin or offset is larger, and a text size above the card's height is a typo (1e9 would
# have every text fitter and the PDF try it).
MAX_MM = 400.0
MAX_PT = 400.0 / 25.4 * 72


def check_palette(where: str, palette: dict[str, Any], problems: list[str]) -> dict[str, str]:
    out = {}
    for key, value in palette.items():
        if not isinstance(value, str) or not units.is_hex_colour(value):
            problems.append(f"{where}: [palette] '{key}' = {value!r} is not a colour (use #rgb or #rrggbb)")
        elif key in ("category", "category2"):
            problems.append(f"{where}: [palette] '{key}' is reserved for the card's category colour")
        else:
            out[key] = value
    return out


class ColourCheck:
    """Checks colour values that do not depend on the card."""

    def __init__(self, palette: dict[str, str]) -> None:
        self.palette = palette

    def check(self, where: str, value: Any, problems: list[str]) -> None:
        if not isinstance(value, str):
            problems.append(f"{where}: colour must be a string, got {value!r}")
            return
        if (
            value == ""
            or "{{" in value
            or units.is_hex_colour(value)
            or value in ("category", "category2")
            or value in self.palette
        ):
            if "{{" in value:
                _check_template(where, value, problems)
            return
        names = ", ".join(sorted(self.palette)) or "none"
        problems.append(
            f"{where}: '{value}' is not a colour (allowed: #rgb, #rrggbb, category, "
            f"category2, a {{{{ template }}}}, or a palette name: {names})"
        )


def apply_options(
    where: str,
    opts: list[Opt],
    values: dict[str, Any],
    problems: list[str],
    colours: ColourCheck,
    inherit: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Check `values` against `opts` and return every option with its value or default."""
    table = {o.name: o for o in opts}
    for key in values:
        if key not in table:
            problems.append(f"{where}: unknown option '{key}' (allowed: {', '.join(table)})")
    out: dict[str, Any] = {}
    for o in opts:
        if o.name in values:
            out[o.name] = _check_value(where, o, values[o.name], problems, colours)
        elif o.required:
            problems.append(f"{where}: option '{o.name}' is required ({o.doc})")
            out[o.name] = o.default
        elif isinstance(o.default, Inherit):
            out[o.name] = (inherit or {}).get(
                o.default.key, next(c.default for c in CARD if c.name == o.default.key)
            )
        else:
            out[o.name] = copy.deepcopy(o.default)
    return out


def _check_value(where: str, o: Opt, v: Any, problems: list[str], colours: ColourCheck) -> Any:
    bad = f"{where}: option '{o.name}'"
    k = o.kind
    if k in ("text", "template", "expr"):
        if not isinstance(v, str):
            problems.append(f"{bad} must be a string, got {v!r}")
        elif k == "template":
            _check_template(bad, v, problems)
        elif k == "expr" and v:
            _check_expr(bad, v, problems)
        return v
    if k == "colour":
        colours.check(bad, v, problems)
        return v
    if k == "choice":
        v = str(v) if isinstance(v, int) and not isinstance(v, bool) else v
        if v not in o.choices:
            problems.append(f"{bad}: {v!r} is not allowed (allowed: {', '.join(o.choices)})")
        return v
    if k == "bool":
        if not isinstance(v, bool):
            problems.append(f"{bad} must be true or false, got {v!r}")
        return v
    if k == "int":
        if not isinstance(v, int) or isinstance(v, bool):
            problems.append(f"{bad} must be a whole number, got {v!r}")
        return v
    if k in ("number", "mm", "pt"):
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            problems.append(f"{bad} must be a number, got {v!r}")
            return v
        if not math.isfinite(v):
            problems.append(f"{bad} must be a finite number, got {v}")
            return v
        if k == "pt" and not 0 < v <= MAX_PT:
            problems.append(f"{bad} must be a size above 0 pt and at most {MAX_PT:g} pt, got {v:g}")
        if k == "mm" and not 0 <= v <= MAX_MM:
            problems.append(f"{bad} must be from 0 to {MAX_MM:g} mm, got {v:g}")
        return float(v)
    if k == "length":
        try:
            units.eval_length(v, 63.0, 88.0)
        except ValueError as e:
            problems.append(f"{bad}: {e}")
        return v
    if k == "map":
        if not isinstance(v, dict):
            problems.append(f"{bad} must be a table")
        return v
    raise AssertionError(f"unknown option kind {k}")  # pragma: no cover - table bug


# ---- Jinja2 ----------------------------------------------------------------------------

_ENV = None


def jinja_env():
    """The sandboxed environment layout templates and expressions are checked in."""
    global _ENV
    if _ENV is None:
        _ENV = sandboxed_environment()  # the same rules the faces render with
    return _ENV


def _check_template(where: str, text: str, problems: list[str]) -> None:
    error = _template_error(text)
    if error:
        problems.append(f"{where}: {error}")


def _template_error(text: str) -> str:
    """The syntax error of a template, or "" (parsed once: base layouts are checked once
    per card type that extends them, and field_names_used reads the same tree)."""
    try:
        _parse_template(text)
    except TemplateSyntaxError as e:
        return f"template error on line {e.lineno}: {e.message}"
    return ""


@lru_cache(maxsize=2048)
def _parse_template(text: str) -> Any:
    """The template's syntax tree (read-only; a syntax error raises and is not cached)."""
    return jinja_env().parse(text)


def _check_expr(where: str, text: str, problems: list[str]) -> None:
    error = _expr_error(text)
    if error:
        problems.append(f"{where}: {error}")


@lru_cache(maxsize=2048)
def _expr_error(text: str) -> str:
    try:
        jinja_env().compile_expression(text)
    except TemplateSyntaxError as e:
        return f"expression error: {e.message}"
    return ""


def field_names_used(source: str, expression: bool = False) -> set[str]:
    """Names read as `f.NAME`, `f['NAME']` or `card.fields.NAME` in a template or expression."""
    return set(_field_names_used(source, expression))


@lru_cache(maxsize=2048)
def _field_names_used(source: str, expression: bool) -> frozenset[str]:
    tree = _parse_template("{{ " + source + " }}" if expression else source)
    used: set[str] = set()

    def is_fields(node: nodes.Node) -> bool:
        if isinstance(node, nodes.Name) and node.name == "f":
            return True
        return (
            isinstance(node, nodes.Getattr)
            and node.attr == "fields"
            and isinstance(node.node, nodes.Name)
            and node.node.name == "card"
        )

    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Getattr) and is_fields(node.node):
            used.add(node.attr)
        elif (
            isinstance(node, nodes.Getitem)
            and is_fields(node.node)
            and isinstance(node.arg, nodes.Const)
            and isinstance(node.arg.value, str)
        ):
            used.add(node.arg.value)
    return frozenset(used)
