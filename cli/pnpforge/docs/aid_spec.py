"""Which player aids a game prints: helpers/helpers.toml, read and checked, and their quantities.

What a game prints is declared in templates/GAME/helpers/helpers.toml:

    size = "villain"          # card type whose size the aids take (default: largest deck card)
    [[aid]]
    id = "player-aid"         # stable id, [a-z0-9-]
    template = "player-aid.md.j2"   # in templates/GAME/helpers/
    title = "玩家輔助"         # optional; else the template's "# " heading, else the component name
    component = "help-card"   # quantity: a component's count (the rulebook's own aid) …
    card_type = "villain"     # … or as many as the cards of a type (one aid per villain card) …
    count = 1                 # … or a fixed number (an aid pnpforge adds)
    per_player = true         # with --players N: N copies (the rulebook gives one per player)
    body_pt = 7.5             # preferred text size (default: the aid style's body_size)

A game without its own helpers.toml prints the shipped `_shared/helpers/helpers.toml`:
one reference aid of its components, rule sections and glossary, so a new game
prints helper cards at once.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpforge.docs import context, markup
from pnpforge.errors import PnpError

if TYPE_CHECKING:
    from pnpforge.docs.aid_flow import Row

BODY_PT = 7.0  # an aid's default body size (the style's body_size when it sets none)
DEFAULT_FOLDER = "_shared/helpers"  # the aids of a game that declares none
MIN_PT = 6.0  # the smallest body_pt an aid may ask for
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,30}$")
_AID_KEYS = {
    "id",
    "template",
    "title",
    "title_en",
    "component",
    "card_type",
    "count",
    "per_player",
    "body_pt",
}
_TOP_KEYS = {"size", "aid"}


# ---- the declaration ------------------------------------------------------------------


@dataclass(frozen=True)
class AidSpec:
    """One player aid a game's kit prints (see the module docstring)."""

    id: str
    template: str
    title: str = ""
    title_en: str = ""
    component: str | None = None
    card_type: str | None = None
    count: int | None = None
    per_player: bool = False
    body_pt: float | None = None  # None: the aid style's body_size


@dataclass(frozen=True)
class HelperSpec:
    """A game's helpers.toml, checked: where it is, the size its aids take, the aids."""

    path: Path
    size_type: str | None
    aids: tuple[AidSpec, ...]
    folder: str = DEFAULT_FOLDER  # templates/FOLDER holds the aids' templates


def spec_folder(root: Path | None, game: str) -> str:
    """'GAME/helpers' when the game declares its aids, else the shipped default's folder."""
    own = f"{game}/helpers"
    return own if context.find(root, f"{own}/helpers.toml").is_file() else DEFAULT_FOLDER


def spec_path(root: Path | None, game: str) -> Path:
    """The helpers.toml a game's aids come from (its own, else the shipped default)."""
    return context.find(root, f"{spec_folder(root, game)}/helpers.toml")


def load_spec(root: Path | None, game: str) -> HelperSpec:
    """Read and check helpers.toml; every problem is reported with the file and the aid."""
    folder = spec_folder(root, game)
    path = context.find(root, f"{folder}/helpers.toml")
    if not path.is_file():
        raise PnpError(
            f"game '{game}' declares no helper cards and the default {path} "
            "does not exist (see pnpforge.docs.aid_spec for its format)"
        )
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise PnpError(f"{path}: not valid TOML: {e}") from e
    problems: list[str] = []
    for key in sorted(set(data) - _TOP_KEYS):
        problems.append(f"unknown key '{key}' (allowed: {', '.join(sorted(_TOP_KEYS))})")
    size = data.get("size")
    if size is not None and not isinstance(size, str):
        problems.append("'size' must be a card type slug")
    raw = data.get("aid", [])
    if not isinstance(raw, list) or not raw:
        problems.append("declare at least one [[aid]]")
        raw = []
    aids: list[AidSpec] = []
    for i, a in enumerate(raw, 1):
        aid = _aid(a, i, path.parent, problems)
        if aid:
            if any(x.id == aid.id for x in aids):
                problems.append(f"aid {i}: id '{aid.id}' is used twice")
            aids.append(aid)
    if problems:
        raise PnpError(f"{path}: " + "; ".join(problems))
    return HelperSpec(path, size, tuple(aids), folder)


def _aid(a: Any, i: int, folder: Path, problems: list[str]) -> AidSpec | None:
    where = f"aid {i}"
    if not isinstance(a, dict):
        problems.append(f"{where}: must be a table ([[aid]])")
        return None
    unknown = sorted(set(a) - _AID_KEYS)
    if unknown:
        problems.append(
            f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(_AID_KEYS))})"
        )
    aid_id = a.get("id")
    if not isinstance(aid_id, str) or not _ID.match(aid_id):
        problems.append(f"{where}: 'id' must be lower-case letters, digits and '-' (got {aid_id!r})")
        return None
    where = f"aid '{aid_id}'"
    template = a.get("template")
    if not isinstance(template, str) or not (folder / template).is_file():
        problems.append(f"{where}: template {template!r} is not a file in {folder}")
    sources = [k for k in ("component", "card_type", "count") if k in a]
    if len(sources) != 1:
        problems.append(
            f"{where}: give exactly one of component, card_type, count (got {', '.join(sources) or 'none'})"
        )
    count = a.get("count")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
        problems.append(f"{where}: 'count' must be a whole number ≥ 1 (got {count!r})")
    body = a.get("body_pt")  # None: the aid style's body_size
    if body is not None and (
        not isinstance(body, (int, float)) or isinstance(body, bool) or not MIN_PT <= body <= 14
    ):
        problems.append(f"{where}: 'body_pt' must be between {MIN_PT:g} and 14 (got {body!r})")
        body = None
    per = a.get("per_player", False)
    if not isinstance(per, bool):
        problems.append(f"{where}: 'per_player' must be true or false")
        per = False
    title, title_en = a.get("title", ""), a.get("title_en", "")
    if not isinstance(title, str) or not isinstance(title_en, str):
        problems.append(f"{where}: 'title' and 'title_en' must be strings")
        title = title_en = ""
    return AidSpec(
        aid_id,
        str(template),
        title,
        title_en,
        a.get("component"),
        a.get("card_type"),
        count,
        per,
        None if body is None else float(body),
    )


# ---- quantities ------------------------------------------------------------------------


@dataclass
class AidPlan:
    """One aid, resolved: its title, how many copies, and its content as blocks."""

    spec: AidSpec
    title: str
    title_en: str
    quantity: int
    source: str  # where the quantity comes from, for the manifest
    blocks: list[markup.Block]
    pages: list[list[Row]] = field(default_factory=list)
    size_pt: float = BODY_PT

    @property
    def cards_per_set(self) -> int:
        return len(self.pages)


def quantity(
    aid: AidSpec,
    game: Any,
    components: dict[str, Any],
    type_counts: dict[str, int],
    players: int | None,
    spec_file: Path,
) -> tuple[int, str]:
    """Copies of one aid and the reason, e.g. (4, 'one per player (--players 4)')."""
    if aid.component is not None:
        comp = components.get(aid.component)
        if comp is None:
            raise PnpError(
                f"{spec_file}: aid '{aid.id}' names component '{aid.component}', which "
                f"game '{game.slug}' does not have (components: "
                f"{', '.join(components) or 'none'})"
            )
        base, why = comp.count, f"component {comp.slug} ×{comp.count}"
    elif aid.card_type is not None:
        if aid.card_type not in type_counts:
            raise PnpError(
                f"{spec_file}: aid '{aid.id}' names card type '{aid.card_type}', which "
                f"game '{game.slug}' does not have (types: {', '.join(type_counts)})"
            )
        base, why = type_counts[aid.card_type], f"as many as the {aid.card_type} cards"
    else:
        base, why = int(aid.count or 1), "fixed count"
    if aid.per_player and players is not None:
        return players, f"one per player (--players {players})"
    return base, why


# ---- content -------------------------------------------------------------------------------


def aid_blocks(aid: AidSpec, ctx: dict[str, Any], root: Path | None, folder: str) -> tuple[str, list]:
    """Render an aid's template (in templates/FOLDER); a leading '# ' heading becomes the card title."""
    text = context.render(f"{folder}/{aid.template}", {**ctx, "aid": aid}, root)
    blocks = markup.parse(text)
    title = aid.title
    if blocks and isinstance(blocks[0], markup.Heading) and blocks[0].level == 1:
        title = title or markup.plain(blocks[0].text)
        blocks = blocks[1:]
    if not any(not isinstance(b, markup.Break) for b in blocks):
        raise PnpError(f"templates/{folder}/{aid.template} gives aid '{aid.id}' no content")
    return title, blocks
