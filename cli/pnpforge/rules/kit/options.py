"""Engine options declared once: the CLI, the report's replay line and the engine read the same list.

An engine lists its `Option`s in `GameRules.OPTIONS`; `parse_options` turns what a
user typed (always strings from the command line) into typed values, so a typo
is one clear message naming the game and the allowed names or values instead of
a silently ignored setting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pnpforge.errors import PnpError

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Option:
    """One engine option: its type, default, help and the values it allows."""

    name: str
    kind: type  # int, str or bool
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None

    def allowed_text(self) -> str:
        """What a user may give, in words, for error messages and help."""
        if self.choices is not None:
            return ", ".join(str(c) for c in self.choices)
        if self.kind is bool:
            return "true, false"
        if self.kind is int:
            low = "" if self.min is None else str(self.min)
            high = "" if self.max is None else str(self.max)
            return f"an integer {low}..{high}" if (low or high) else "an integer"
        return "any text"


def _convert(option: Option, raw: Any, game: str) -> Any:
    """`raw` as `option.kind`, or PnpError naming the option and what it allows."""
    bad = PnpError(f"{game}: option '{option.name}' got {raw!r} (allowed: {option.allowed_text()})")
    if option.kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise bad
    if option.kind is int:
        if isinstance(raw, bool):
            raise bad
        if isinstance(raw, int):
            return raw
        try:
            return int(str(raw).strip())
        except ValueError:
            raise bad from None
    if option.kind is str:
        return str(raw)
    raise PnpError(f"{game}: option '{option.name}' declares an unsupported kind {option.kind.__name__}")


def _check_value(option: Option, value: Any, raw: Any, game: str) -> None:
    """Refuse a value outside the option's choices or integer range."""
    allowed = option.allowed_text()
    if option.choices is not None and value not in option.choices:
        raise PnpError(f"{game}: option '{option.name}' got {raw!r} (allowed: {allowed})")
    if option.min is not None and value < option.min:
        raise PnpError(f"{game}: option '{option.name}' is {value}, below the minimum {option.min}")
    if option.max is not None and value > option.max:
        raise PnpError(f"{game}: option '{option.name}' is {value}, above the maximum {option.max}")


def parse_options(declared: Sequence[Option], given: Mapping[str, Any], *, game: str) -> dict[str, Any]:
    """Every declared option with its value: CLI strings converted to `kind`, defaults filled.

    Unknown names and bad values raise PnpError listing what is allowed, e.g.
    "GAME: unknown option 'rounds2' (allowed: handicap, rounds)".
    """
    by_name = {o.name: o for o in declared}
    for name in given:
        if name not in by_name:
            names = ", ".join(sorted(by_name)) or "none"
            raise PnpError(f"{game}: unknown option '{name}' (allowed: {names})")
    out: dict[str, Any] = {}
    for option in declared:
        if option.name in given:
            raw = given[option.name]
            value = _convert(option, raw, game)
            _check_value(option, value, raw, game)
        else:
            value = option.default
        out[option.name] = value
    return out


def option_args(values: Mapping[str, Any]) -> list[str]:
    """`-o name=value` arguments that give these options back to `pnp check` (for replay lines)."""
    args: list[str] = []
    for name, value in sorted(values.items()):
        text = str(value).lower() if isinstance(value, bool) else str(value)
        args += ["-o", f"{name}={text}"]
    return args
