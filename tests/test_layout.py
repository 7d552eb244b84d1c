"""Layouts: TOML with extends, every option declared, validated with helpful messages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnpforge.model import CardType, FieldDef
from pnpforge.render import layout as L
from pnpforge.render import layout_game as G
from pnpforge.render import layout_options as LO
from pnpforge.render import layout_options_doc
from pnpforge.store import repo
from pnpforge.store.db import open_db

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


TEXT_REGION = """
[[regions]]
name = "title"
kind = "text"
x = 4
y = 4
w = "W - 8"
h = 8
text = "{{ card.name }}"
"""


def ctype(fields: list[str], w: float = 63, h: float = 88) -> CardType:
    return CardType(
        game="g",
        slug="t",
        name="T",
        name_en="T",
        width_mm=w,
        height_mm=h,
        fields=[FieldDef(name=n, type="text") for n in fields],
    )


# ---- validation messages ------------------------------------------------------------------


def test_unknown_option_lists_the_allowed_ones(tmp_path: Path) -> None:
    path = write(tmp_path / "g", "t", TEXT_REGION + 'colr = "#ff0000"\n')
    with pytest.raises(L.LayoutError) as e:
        L.load_layout(path, tmp_path)
    msg = str(e.value)
    assert "region 'title'" in msg and "unknown option 'colr'" in msg
    assert "allowed:" in msg and "colour" in msg and "valign" in msg


def test_unknown_table_option_and_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path / "g", "t", '[card]\nbackgrund = "#fff"\n[cards]\nx = 1\n')
    with pytest.raises(L.LayoutError) as e:
        L.load_layout(path, tmp_path)
    msg = str(e.value)
    assert "[card]: unknown option 'backgrund' (allowed: background" in msg
    assert "unknown top-level key 'cards'" in msg
    assert "2 problem(s)" in msg  # every problem at once, not the first only


def test_bad_choice_lists_the_choices(tmp_path: Path) -> None:
    path = write(tmp_path / "g", "t", TEXT_REGION + 'align = "middle"\n')
    with pytest.raises(L.LayoutError, match=r"'middle' is not allowed \(allowed: left, center, right\)"):
        L.load_layout(path, tmp_path)


def test_kind_and_required_options(tmp_path: Path) -> None:
    path = write(
        tmp_path / "g", "t", '[[regions]]\nname = "a"\nkind = "txt"\n[[regions]]\nname = "b"\nkind = "text"\n'
    )
    with pytest.raises(L.LayoutError) as e:
        L.load_layout(path, tmp_path)
    msg = str(e.value)
    assert "kind 'txt' is not allowed (allowed: text, image, shape, icon, icons, rows)" in msg
    assert "region 'b' (kind text): option 'text' is required" in msg


def test_wrong_value_types(tmp_path: Path) -> None:
    path = write(
        tmp_path / "g",
        "t",
        TEXT_REGION.replace("x = 4", 'x = "W -"') + 'size = "big"\nlayer = 1.5\nfill = "reddish"\n',
    )
    with pytest.raises(L.LayoutError) as e:
        L.load_layout(path, tmp_path)
    msg = str(e.value)
    assert "option 'size' must be a number" in msg
    assert "option 'layer' must be a whole number" in msg
    assert "is not arithmetic over numbers, W and H" in msg
    assert "'reddish' is not a colour" in msg and "palette name" in msg


@pytest.mark.parametrize(
    ("setting", "fragment"),
    [
        ("size = 1e9", "option 'size' must be a size above 0 pt and at most"),
        ("size = nan", "option 'size' must be a finite number"),
        ("size = 0", "option 'size' must be a size above 0 pt"),
        ("padding = 1e9", "option 'padding' must be from 0 to 400 mm"),
    ],
)
def test_sizes_are_bounded_by_the_card(tmp_path: Path, setting: str, fragment: str) -> None:
    """A size no card can hold is a typo: refused on load, never handed to the text fitter."""
    path = write(tmp_path / "g", "t", TEXT_REGION + setting + "\n")
    with pytest.raises(L.LayoutError) as e:
        L.load_layout(path, tmp_path)
    assert fragment in str(e.value)


def test_template_syntax_error_is_reported_on_load(tmp_path: Path) -> None:
    path = write(tmp_path / "g", "t", TEXT_REGION.replace("{{ card.name }}", "{{ card.name }"))
    with pytest.raises(L.LayoutError, match="option 'text': template error"):
        L.load_layout(path, tmp_path)


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "g", "t", "[card\n")
    with pytest.raises(L.LayoutError, match=r"t\.toml: not valid TOML"):
        L.load_layout(path, tmp_path)


# ---- extends -------------------------------------------------------------------------------


def test_extends_chain_merges_tables_and_regions_by_name(tmp_path: Path) -> None:
    g = tmp_path / "g"
    write(
        g,
        "base",
        '[card]\nbackground = "#111111"\ncolour = "#222222"\n'
        '[palette]\nink = "#333333"\n'
        + TEXT_REGION
        + '\n[[regions]]\nname = "art"\nkind = "image"\nx = 4\ny = 20\nw = 20\nh = 20\n',
    )
    write(g, "mid", 'extends = "base"\n[card]\ncolour = "#444444"\n[[regions]]\nname = "title"\nsize = 12\n')
    path = write(
        g,
        "t",
        'extends = "mid"\n[[regions]]\nname = "art"\nenabled = false\n'
        '[[regions]]\nname = "note"\nkind = "text"\nx = 4\ny = 50\nw = 20\n'
        'h = 10\ntext = "x"\ncolour = "ink"\n',
    )
    lay = L.load_layout(path, tmp_path)
    assert [Path(f).stem for f in lay.files] == ["t", "mid", "base"]
    assert lay.card["background"] == "#111111" and lay.card["colour"] == "#444444"
    names = [r.name for r in lay.regions]
    assert names == ["title", "note"]  # art removed, note appended
    title = lay.regions[0]
    assert title.opts["size"] == 12.0 and title.opts["text"] == "{{ card.name }}"
    assert title.opts["colour"] == "#444444"  # inherits card.colour
    assert lay.regions[1].opts["colour"] == "ink"  # palette from the base


def test_extends_cycle_shows_the_chain(tmp_path: Path) -> None:
    g = tmp_path / "g"
    write(g, "a", 'extends = "b"\n')
    write(g, "b", 'extends = "c"\n')
    path = write(g, "c", 'extends = "a"\n')
    with pytest.raises(L.LayoutError, match="extends cycle: c -> a -> b -> c"):
        L.load_layout(path, tmp_path)


def test_extends_missing_file_lists_the_layouts_there(tmp_path: Path) -> None:
    g = tmp_path / "g"
    write(g, "base", "")
    path = write(g, "t", 'extends = "bsae"\n')
    with pytest.raises(L.LayoutError, match=r"bsae.toml does not exist \(layouts here: base\)"):
        L.load_layout(path, tmp_path)


def test_extends_cannot_leave_the_templates_folder(tmp_path: Path) -> None:
    write(tmp_path, "outside", "")
    path = write(tmp_path / "root" / "g", "t", 'extends = "../../outside"\n')
    with pytest.raises(L.LayoutError, match="leaves the templates folder"):
        L.load_layout(path, tmp_path / "root")


# ---- checks against a card type -------------------------------------------------------------


def test_unknown_field_is_refused_with_the_type_fields(tmp_path: Path) -> None:
    path = write(tmp_path / "g", "t", TEXT_REGION.replace("card.name", "f.scroe"))
    lay = L.load_layout(path, tmp_path)
    with pytest.raises(L.LayoutError, match=r"reads field 'scroe'.*\(fields: score, name\)"):
        G.check_fields(lay, ["score", "name"], "t")
    G.check_fields(
        L.load_layout(
            write(tmp_path / "g", "u", TEXT_REGION.replace("card.name", "card.fields['score']")), tmp_path
        ),
        ["score"],
        "u",
    )


def test_field_names_used_finds_attribute_and_item_reads() -> None:
    used = G.field_names_used("{{ f.a }}{% if card.fields.b %}{{ f['c'] }}{% endif %}{{ card.name }}")
    assert used == {"a", "b", "c"}
    assert G.field_names_used("f.x > 3 and not f.y", expression=True) == {"x", "y"}


def test_text_must_keep_inside_the_safe_area_and_off_the_stamp(tmp_path: Path) -> None:
    g = tmp_path / "g"
    lay = L.load_layout(write(g, "t", TEXT_REGION.replace("x = 4", "x = 1")), tmp_path)
    with pytest.raises(L.LayoutError, match="reaches 2.00 mm into the 3 mm safe margin"):
        G.check_geometry(lay, 63, 88, "t")
    low = TEXT_REGION.replace("y = 4", "y = 76")
    with pytest.raises(L.LayoutError, match="covers the stamp line"):
        G.check_geometry(L.load_layout(write(g, "u", low), tmp_path), 63, 88, "u")
    # a shape may run to the edge (and into the bleed)
    shape = '[[regions]]\nname = "band"\nkind = "shape"\nx = 0\ny = 0\nw = "W"\nh = 10\nfill = "#000"\n'
    G.check_geometry(L.load_layout(write(g, "v", shape), tmp_path), 63, 88, "v")


def test_region_off_the_card_is_refused(tmp_path: Path) -> None:
    lay = L.load_layout(write(tmp_path / "g", "t", TEXT_REGION.replace('w = "W - 8"', "w = 70")), tmp_path)
    with pytest.raises(L.LayoutError, match="leaves the 63×88 mm card"):
        G.check_geometry(lay, 63, 88, "t")


def test_lengths_use_card_size() -> None:
    from pnpforge.render.units import eval_length

    assert eval_length("W - 8", 63, 88) == 55
    assert eval_length("(H - 23) / 2", 63, 88) == 32.5
    with pytest.raises(ValueError):
        eval_length("__import__('os')", 63, 88)


def test_generic_layout_fits_any_card_type() -> None:
    lay = L.generic_layout()
    for w, h in ((63, 88), (44, 67), (70, 70), (70, 120)):
        G.check_geometry(lay, w, h, "x")
        G.check_fields(lay, [], "x")


def test_missing_layout_falls_back_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "g").mkdir()
    write(tmp_path / "g", "obligr", "")
    layouts, warnings = G.load_game_layouts(tmp_path, "g", [ctype(["a"])])
    assert layouts["t"].name == "generic"
    assert any("has no layout" in w for w in warnings)
    assert any("obligr.toml matches no card type" in w for w in warnings)


# ---- the docs and the code agree --------------------------------------------------------------


def _readme_tables() -> dict[str, dict[str, tuple[str, str]]]:
    """{section: {option: (default, allowed)}} from templates/README.md."""
    text = (TEMPLATES / "README.md").read_text(encoding="utf-8")
    sections: dict[str, dict[str, tuple[str, str]]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^### `([^`]+)`", line)
        if m:
            current = m.group(1)
            sections[current] = {}
            continue
        m = re.match(r"^\| `([a-z_0-9]+)` \| (.+?) \| (.+?) \|", line)
        if m and current is not None:
            sections[current][m.group(1)] = (m.group(2), m.group(3))
    return sections


def _documented_sections() -> dict[str, list[LO.Opt]]:
    """Every option table the README documents: card layouts, then player-aid styles (aid.*)."""
    from pnpforge.docs import aid_style

    return {**LO.SECTIONS, **{f"aid.{k}": v for k, v in aid_style.SECTIONS.items()}}


def test_readme_documents_every_option_with_its_default() -> None:
    docs = _readme_tables()
    sections = _documented_sections()
    assert set(docs) == set(sections), "README sections differ from the option tables"
    for section, opts in sections.items():
        documented = docs[section]
        assert list(documented) == [o.name for o in opts], section
        for o in opts:
            default, allowed = documented[o.name]
            want = "—" if o.required else f"`{layout_options_doc.format_default(o).replace('|', '&#124;')}`"
            assert default == want, (section, o.name, default, want)
            if o.choices:
                assert allowed == ", ".join(f"`{c}`" for c in o.choices), (section, o.name)


# ---- the shipped layouts -----------------------------------------------------------------------


def test_every_card_type_of_every_game_has_a_real_layout() -> None:
    db = open_db(ROOT / "cards.db")
    games = repo.list_games(db)
    assert games
    for game in games:
        types = repo.card_types(db, game.slug)
        layouts, warnings = G.load_game_layouts(TEMPLATES, game.slug, types)
        for t in types:
            assert (TEMPLATES / game.slug / f"{t.slug}.toml").is_file(), (game.slug, t.slug)
            assert layouts[t.slug].name == t.slug
        assert not warnings, warnings


def test_a_template_error_is_placed_on_its_line_of_the_layout_file(tmp_path) -> None:
    from pnpforge.render.layout_game import source_line
    from pnpforge.resources import template_roots

    folder = tmp_path / "templates" / "demo"
    folder.mkdir(parents=True)
    (folder / "card.toml").write_text(
        '[[regions]]\nname = "text"\nkind = "text"\ntext = "{{ card.text }}{{ 1/0 }}"\n', encoding="utf-8"
    )
    roots = template_roots(tmp_path / "templates")
    where = "card C1 (demo/card), region 'text' in templates/demo/card.toml option 'text'"
    assert source_line(roots, where, "{{ card.text }}{{ 1/0 }}") == ", line 4"
    assert source_line(roots, where, "{{ nowhere }}") == ""
    assert source_line(roots, "card C1, region 'text'", "{{ card.text }}") == ""


# ---- validated layouts kept on disk --------------------------------------------------------------


def test_cached_layouts_equal_built_ones_and_follow_edits(tmp_path: Path, monkeypatch) -> None:
    from pnpforge.render import code_cache

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(code_cache, "_folder", None)
    templates = tmp_path / "templates"
    write(templates / "g", "base", "[card]\nsafe_margin = 3\n" + TEXT_REGION)
    path = write(templates / "g", "t", 'extends = "base"\n[card]\nbackground = "#abcdef"\n')
    types = [ctype(["score"])]
    cold, _ = G.load_game_layouts(templates, "g", types)
    assert list((tmp_path / "cache" / "layouts").glob("*.pickle"))
    warm, _ = G.load_game_layouts(templates, "g", types)
    assert warm == cold and warm["t"] is not cold["t"]
    assert warm["t"] == L.load_layout(path, templates)
    # an edit of the base file is seen, and a broken file is reported as before
    write(templates / "g", "base", "[card]\nsafe_margin = 3\n" + TEXT_REGION.replace("title", "name"))
    edited, _ = G.load_game_layouts(templates, "g", types)
    assert [r.name for r in edited["t"].regions] == ["name"]
    write(templates / "g", "base", TEXT_REGION.replace("card.name", "f.scroe"))
    with pytest.raises(L.LayoutError, match=r"base\.toml: region 'title' option 'text' reads field 'scroe'"):
        G.load_game_layouts(templates, "g", types)
    # a field the type lost is refused even though the same files were cached before
    write(templates / "g", "base", "[card]\nsafe_margin = 3\n" + TEXT_REGION.replace("card.name", "f.score"))
    G.load_game_layouts(templates, "g", types)
    with pytest.raises(L.LayoutError, match=r"reads field 'score'"):
        G.load_game_layouts(templates, "g", [ctype(["points"])])


def test_an_unreadable_cache_entry_is_built_again(tmp_path: Path, monkeypatch) -> None:
    from pnpforge.render import code_cache

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(code_cache, "_folder", None)
    write(tmp_path / "g", "t", TEXT_REGION)
    cold, _ = G.load_game_layouts(tmp_path, "g", [ctype([])])
    for entry in (tmp_path / "cache" / "layouts").glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    warm, _ = G.load_game_layouts(tmp_path, "g", [ctype([])])
    assert warm == cold
