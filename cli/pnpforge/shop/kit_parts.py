"""The print-shop and cutting-machine parts of `pnp build --shop P --cut M`.

Each is one independent build part (see pnpforge.build): it writes into the
game's staging folder, under `shop/PROFILE/` or `cut/MACHINE/`, exactly what
`pnp shop` or `pnp cut` writes, and tells the kit manifest what each file is.
The shop part runs the preflight first, as `pnp shop` does, so a kit never holds
shop files the shop would refuse; its warnings join the kit's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError

Facts = dict[str, dict[str, Any]]  # kit path -> what the manifest says of it
Progress = Callable[[str, str], None]


def check_extras(shop_profile: str | None, cut_machine: str | None, paper: str) -> None:
    """Refuse an unknown profile or machine (or a paper the machine lacks) before any work."""
    if shop_profile is not None:
        from pnpforge.shop.profiles import get_profile

        get_profile(shop_profile)
    if cut_machine is not None:
        from pnpforge.shop.cut_geometry import machine

        machine(cut_machine, paper)


def _rel(path: str | Path, work: Path) -> str:
    return Path(path).resolve().relative_to(work.resolve()).as_posix()


def _preflight_or_refuse(db: Any, game: str, profile: str) -> list[str]:
    """The preflight's warnings; PnpError naming the first error (and how many) when it has any."""
    from pnpforge.shop.preflight import preflight

    report = preflight(db, game, profile)
    if report.errors:
        first = report.errors[0]
        more = f" (and {len(report.errors) - 1} more)" if len(report.errors) > 1 else ""
        raise PnpError(
            f"preflight for {profile} refused {first.subject}: {first.message}{more}; "
            f"see pnp preflight {game} --profile {profile}"
        )
    return [f"preflight {profile}: {p.subject}: {p.message}" for p in report.warnings]


def _shop_fact(entry: dict) -> dict[str, Any]:
    if "pages" in entry:  # a PDF deck: back and face page per copy
        return {"kind": "shop-pdf", "pages": entry["pages"], "cards": entry["cards"]}
    if entry["side"] == "back":
        return {"kind": "shop-back"}
    return {"kind": "shop-image", "cards": entry["copies"]}


def shop_part(
    db: Any, game: str, work: Path, opts: Any, facts: Facts, warnings: list[str], progress: Progress
) -> None:
    """The shop's files for `opts.shop` in work/shop/PROFILE/, after a clean preflight."""
    from pnpforge.shop.export import shop

    warnings += _preflight_or_refuse(db, game, opts.shop)
    out = work / "shop" / opts.shop
    result = shop(db, game, opts.shop, output=str(out))
    kinds = {entry["file"]: _shop_fact(entry) for entry in result.entries}
    for f in result.files:
        name = Path(f).name
        facts[_rel(f, work)] = kinds.get(name, {"kind": "shop-manifest"})
    warnings += result.warnings
    progress(game, "shop")


def cut_part(
    db: Any, game: str, work: Path, opts: Any, facts: Facts, warnings: list[str], progress: Progress
) -> None:
    """The marked print PDF and cut files for `opts.cut` in work/cut/MACHINE/, on the kit's paper."""
    from pnpforge.shop.cut import cut

    out = work / "cut" / opts.cut
    result = cut(db, game, opts.cut, paper=opts.paper, output=str(out))
    per_page: dict[int, int] = {}
    for p in result.placements:
        per_page[p["page"]] = per_page.get(p["page"], 0) + 1
    for f in result.files:
        path = Path(f)
        if f == result.pdf:
            fact = {"kind": "cut-sheets", "pages": len(per_page), "cards": len(result.placements)}
        elif path.suffix in (".svg", ".dxf"):
            page = int(path.stem.rsplit("-", 1)[-1])
            fact = {"kind": f"cut-file-{path.suffix[1:]}", "cards": per_page.get(page, 0)}
        else:
            fact = {"kind": "cut-manifest"}
        facts[_rel(f, work)] = fact
    warnings += result.warnings
    progress(game, "cut")
