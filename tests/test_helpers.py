"""Helper (player-aid) cards: content from the database, quantities, splitting, clean PDFs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pnpforge.docs import aid_flow, aid_style, helpers, markup
from pnpforge.errors import PnpError
from pnpforge.render import PrintOptions
from pnpforge.render.units import MM
from pnpforge.resources import shipped_templates
from pnpforge.store import repo
from pnpforge.store.db import open_db

GAMES = ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")


def _games(db_path: Path) -> list[str]:
    """The shipped games; one missing from the database fails, never shrinks a loop to nothing."""
    have = {g.slug for g in repo.list_games(open_db(db_path))}
    assert [g for g in GAMES if g not in have] == [], "a shipped game is missing from cards.db"
    return list(GAMES)


# ---- layout units ----------------------------------------------------------------------------


def _style(size: float = 7.0) -> helpers.Style:
    from pnpforge.render import text_atoms
    from pnpforge.render.fonts import ensure_fonts

    fonts = ensure_fonts("zh-Hant")
    return helpers.Style(
        fonts.regular, fonts.bold, "#33334d", size, text_atoms.Measure(fonts.regular, fonts.bold), "（續）"
    )


def test_paginate_never_overfills_and_keeps_order() -> None:
    st = _style()
    blocks: list[markup.Block] = [markup.Heading(2, "流程")]
    step = "抽一張牌，然後打出一張執行卡。"
    blocks += [markup.Item(f"第{i}步：" + step * (1 + i % 3), i) for i in range(1, 30)]
    width, height = helpers.body_box(63, 88)
    rows = helpers.build_rows(blocks, st, width, "test")
    pages = helpers.paginate(rows, height)
    assert len(pages) > 1
    for page in pages:
        used = sum(r.height + (r.space_before if k else 0.0) for k, r in enumerate(page))
        assert used <= height + 0.01
    # every row appears once, in order, apart from the repeated (continued) headings
    flat = [r for p in pages for r in p if "（續）" not in r.text]
    assert [r.text for r in flat] == [r.text for r in rows]
    assert all(p[0].text.startswith("流程") for p in pages)  # the section heading repeats


def test_tables_repeat_their_header_and_columns_fit() -> None:
    st = _style()
    t = markup.Table(
        ("號碼", "說明"), tuple((str(i), "很長的說明文字" * 4) for i in range(40)), ("right", "left")
    )
    width, height = helpers.body_box(63, 88)
    pages = helpers.paginate(helpers.build_rows([t], st, width, "test"), height)
    assert len(pages) > 1
    assert all(p[0].text.startswith("號碼") for p in pages)
    widths = aid_flow.fit_columns([30.0, 400.0], width, [12.0, 20.0])
    assert abs(sum(widths) - width) < 1e-6 and widths[0] == 30.0


def test_explicit_break_starts_a_new_card() -> None:
    from pnpforge.render.fonts import ensure_fonts

    blocks = markup.parse("## 一\n\n- 甲\n---\n## 二\n\n- 乙\n")
    width, height = helpers.body_box(63, 88)
    cards = helpers.layout_aid(blocks, ensure_fonts("zh-Hant"), "#333333", width, height, 7.0, "t")
    assert len(cards) == 2
    assert [r.text for r in cards[1][1]][:1] == ["二"]


def test_long_material_splits_instead_of_shrinking_below_the_floor() -> None:
    from pnpforge.render.fonts import ensure_fonts

    blocks: list[markup.Block] = [markup.Item("很長的規則說明，" * 12, None) for _ in range(25)]
    width, height = helpers.body_box(63, 88)
    cards = helpers.layout_aid(blocks, ensure_fonts("zh-Hant"), "#333333", width, height, 7.0, "t")
    assert len(cards) >= 3
    assert all(size >= aid_style.defaults()["card"]["min_size"] for size, _, _ in cards)


# ---- the declaration ---------------------------------------------------------------------------


def _templates_copy(tmp_path: Path) -> Path:
    root = tmp_path / "templates"
    shutil.copytree(shipped_templates(), root)
    return root


def test_helpers_toml_mistakes_are_reported(tmp_path: Path) -> None:
    root = _templates_copy(tmp_path)
    spec = root / "enforcer" / "helpers" / "helpers.toml"
    spec.write_text(
        '[[aid]]\nid = "x"\ntemplate = "missing.md.j2"\ncount = 1\ncolour = "red"\n', encoding="utf-8"
    )
    with pytest.raises(PnpError) as e:
        helpers.load_spec(root, "enforcer")
    msg = str(e.value)
    assert "helpers.toml" in msg and "unknown key(s) colour" in msg and "missing.md.j2" in msg
    spec.write_text(
        '[[aid]]\nid = "x"\ntemplate = "help-card.md.j2"\ncount = 1\ncomponent = "y"\n', encoding="utf-8"
    )
    with pytest.raises(PnpError, match="exactly one of component, card_type, count"):
        helpers.load_spec(root, "enforcer")


def test_unknown_component_is_named(shipped_db: Path, tmp_path: Path) -> None:
    game = _games(shipped_db)[0]
    root = _templates_copy(tmp_path)
    folder = root / game / "helpers"
    template = sorted(p.name for p in folder.glob("*.md.j2"))[0]
    (folder / "helpers.toml").write_text(
        f'[[aid]]\nid = "x"\ntemplate = "{template}"\ncomponent = "no-such"\n', encoding="utf-8"
    )
    with pytest.raises(PnpError, match="component 'no-such'"):
        helpers.plan_helpers(open_db(shipped_db), game, root=root)


# ---- quantities from the database -----------------------------------------------------------------


def test_rulebook_aids_come_in_the_rulebook_quantities(shipped_db: Path) -> None:
    db = open_db(shipped_db)
    for game in _games(shipped_db):
        hs = helpers.plan_helpers(db, game)
        comps = {c.slug: c for c in repo.components(db, game)}
        declared = {a.spec.component for a in hs.aids if a.spec.component}
        # every rulebook aid (component of kind aid) has a helper
        aids = {c.slug for c in comps.values() if c.kind == "aid"}
        assert aids <= declared, (game, aids - declared)
        for a in hs.aids:
            if a.spec.component:
                assert a.quantity == comps[a.spec.component].count
            assert a.cards_per_set >= 1 and a.size_pt >= aid_style.defaults()["card"]["min_size"]


def test_players_option_gives_one_per_player(shipped_db: Path, run) -> None:
    db = open_db(shipped_db)
    for game in _games(shipped_db):
        g = repo.get_game(db, game)
        hs = helpers.plan_helpers(db, game, players=g.players_min)
        for a in hs.aids:
            if a.spec.per_player:
                assert a.quantity == g.players_min
        with pytest.raises(PnpError, match="players"):
            helpers.plan_helpers(db, game, players=g.players_max + 1)


def test_villain_aid_quantity_follows_the_villain_cards(shipped_db: Path, run) -> None:
    db = open_db(shipped_db)
    before = {a.spec.id: a.quantity for a in helpers.plan_helpers(db, "dirty-money").aids}
    villains = repo.list_cards(db, "dirty-money", "villain")
    assert before["player-aid"] == sum(c.copies for c in villains)
    res = run("--db", shipped_db, "cards", "set", "dirty-money", villains[-1].id, "copies=0")
    assert res.exit_code == 0, res.output
    after = {a.spec.id: a.quantity for a in helpers.plan_helpers(open_db(shipped_db), "dirty-money").aids}
    assert after["player-aid"] == before["player-aid"] - villains[-1].copies


def test_content_comes_from_the_database(shipped_db: Path) -> None:
    """A changed rule section shows on the next helper cards that print it."""
    db = open_db(shipped_db)
    for game in _games(shipped_db):
        marker = "測試標記ＸＹＺ"
        with db.conn:
            db.conn.execute(
                "UPDATE rule_sections SET body = ? || char(10) || body WHERE game = ? AND kind = 'turn'",
                [f"- {marker}", game],
            )
        hs = helpers.plan_helpers(open_db(shipped_db), game)
        texts = [r.text for c in hs.cards for r in c.rows]
        assert any(marker in t for t in texts), game


# ---- the PDF ----------------------------------------------------------------------------------------


def _chars_by_page(path: Path) -> dict[int, list[tuple[str, tuple[float, float, float, float]]]]:
    import pypdfium2 as pdfium

    out: dict[int, list] = {}
    doc = pdfium.PdfDocument(str(path))
    for i in range(len(doc)):
        page = doc[i]
        tp = page.get_textpage()
        chars = []
        for k in range(tp.count_chars()):
            box = tp.get_charbox(k)
            ch = tp.get_text_range(k, 1)
            if box[2] > box[0] and ch.strip():
                chars.append((ch, box))
        out[i + 1] = chars
        tp.close()
        page.close()
    doc.close()
    return out


def test_helper_pdf_is_clean_for_every_game(shipped_db: Path, tmp_path: Path) -> None:
    from test_summary import _pdf_fonts

    db = open_db(shipped_db)
    for game in _games(shipped_db):
        out = tmp_path / f"{game}.pdf"
        manifest, hs = helpers.print_helpers(db, game, PrintOptions(output=str(out)))
        fonts = _pdf_fonts(out)
        assert fonts and all(emb for _, emb in fonts), fonts
        assert not any(base in name for name, _ in fonts for base in ("Helvetica", "Times", "Courier"))
        # placements: every card of every aid, in its quantity, faces and backs
        faces = [p for p in manifest.placements if p.side == "face"]
        for a in hs.aids:
            for k in range(1, a.cards_per_set + 1):
                assert sum(p.id == f"AID-{a.spec.id}-{k}" for p in faces) == a.quantity
        assert len([p for p in manifest.placements if p.side == "back"]) == len(faces)
        # text is extractable and every character on a face page lies inside a card's
        # safe area (or in the page-note band at the bottom): nothing overflows
        chars = _chars_by_page(out)
        face_pages = {p.page for p in faces}
        text = "".join(ch for pg in face_pages for ch, _ in chars[pg])
        for a in hs.aids:
            assert a.title[:4] in text
        for pg in face_pages:
            trims = [p.trim for p in faces if p.page == pg]
            for ch, (left, bottom, right, top) in chars[pg]:
                if top < 12 * MM:  # the print note below the cards
                    continue
                inside = any(
                    left >= (t.x + 2.5) * MM
                    and right <= (t.x1 - 2.5) * MM
                    and bottom >= (t.y + 1.5) * MM
                    and top <= (t.y1 - 1.5) * MM
                    for t in trims
                )
                assert inside, (game, pg, ch, left, bottom)


def test_helpers_command_json_and_players(shipped_db: Path, tmp_path: Path, run) -> None:
    game = "enforcer" if "enforcer" in _games(shipped_db) else _games(shipped_db)[0]
    g = repo.get_game(open_db(shipped_db), game)
    res = run("--db", shipped_db, "helpers", game, "--players", g.players_min, "-o", tmp_path, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    hs = helpers.load_spec(shipped_templates(), game)
    per_player = {a.id for a in hs.aids if a.per_player}
    for a in data["aids"]:
        if a["id"] in per_player:
            assert a["copies"] == g.players_min
    sheets = data["sheets"]
    assert Path(sheets["path"]).is_file() and sheets["pages"] >= 2
    assert sheets["cards"] == sum(a["copies"] * a["cards_per_copy"] for a in data["aids"])
    res = run("--db", shipped_db, "helpers", game, "--players", 99, "-o", tmp_path)
    assert res.exit_code == 2 and "players" in res.output
    res = run("--db", shipped_db, "helpers", game, "--paper", "a3", "-o", tmp_path)
    assert res.exit_code == 2 and "allowed" in res.output


# ---- a game with no aids of its own, and aids restyled in templates -------------------------------


def test_a_game_without_helpers_prints_the_default_reference_aid(mini_db: Path, tmp_path: Path) -> None:
    db = open_db(mini_db)
    hs = helpers.plan_helpers(db, "mini")
    assert [a.spec.id for a in hs.aids] == ["reference"]
    text = " ".join(r.text for c in hs.cards for r in c.rows)
    assert "英雄" in text and "法術" in text  # the decks, counted from the cards
    assert "準備" in text and "洗牌" in text  # the rule sections
    assert "矚目" in text and "須優先攻擊" in text  # the glossary
    manifest, _ = helpers.print_helpers(db, "mini", PrintOptions(output=str(tmp_path)))
    assert Path(manifest.path).is_file() and manifest.cards >= 1


def _project_style(db_path: Path, text: str) -> None:
    """A designer's own aid style beside the database (templates/mini/helpers/aid.toml)."""
    folder = db_path.parent / "templates" / "mini" / "helpers"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "aid.toml").write_text(text, encoding="utf-8")


def test_a_designer_restyles_aids_without_python(mini_db: Path, tmp_path: Path) -> None:
    db = open_db(mini_db)
    before, _ = helpers.print_helpers(db, "mini", PrintOptions(output=str(tmp_path / "a")))
    default = helpers.plan_helpers(db, "mini").look
    _project_style(
        mini_db,
        'extends = "../../_shared/helpers/aid"\n'
        '[card]\npaper = "#ffeedd"\nheader_height = 14\n'
        '[back]\ncolour = "#224466"\npattern = "none"\n',
    )
    hs = helpers.plan_helpers(db, "mini")
    assert hs.look.card["paper"] == "#ffeedd" and hs.look.card["header_height"] == 14
    assert hs.look.back["colour"] == "#224466" and hs.look.back["pattern"] == "none"
    # what the game's file does not set comes from the shipped file it extends
    assert hs.look.card["ink"] == default.card["ink"] and hs.look.back["frame"] is True
    after, _ = helpers.print_helpers(db, "mini", PrintOptions(output=str(tmp_path / "b")))
    assert Path(before.path).read_bytes() != Path(after.path).read_bytes()


@pytest.mark.parametrize(
    "style, words",
    [
        ("[card]\npapr = '#fff'\n", ["unknown option 'papr'", "paper", "aid.toml"]),
        ("[back]\npattern = 'zigzag'\n", ["'zigzag' is not allowed", "lattice, none"]),
        ("[front]\nink = '#000'\n", ["unknown table [front]", "card, back"]),
        ("[card]\nink = 'category'\n", ["ink", "not a colour", "accent"]),
    ],
)
def test_aid_style_mistakes_name_the_file_and_what_is_allowed(
    mini_db: Path, style: str, words: list[str]
) -> None:
    _project_style(mini_db, style)
    with pytest.raises(PnpError) as err:
        helpers.plan_helpers(open_db(mini_db), "mini")
    assert all(w in str(err.value) for w in words), str(err.value)


def test_aid_cards_are_planned_as_data(shipped_db: Path) -> None:
    """An aid card's face and back are plans (render.face_ops) the one PDF backend draws and
    preflight's reader (render.plan_read) reads: the aid's accent and fonts show in its inks,
    and every op of the body lies within the card's safe margins."""
    from pnpforge.docs import context
    from pnpforge.docs.aid_plan import HelperRenderer
    from pnpforge.render import plan_pdf, plan_read
    from pnpforge.render.face_ops import CardPlan, TextAt
    from pnpforge.render.fonts import ensure_fonts

    db = open_db(shipped_db)
    for game in _games(shipped_db):
        hs = helpers.plan_helpers(db, game)
        fonts = ensure_fonts(hs.game.language)
        labels = context.labels(hs.game.language, context.templates_dir(db))
        r = HelperRenderer(hs, fonts, "2026-01-01", labels)
        look = hs.look.card
        W, safe = hs.width_mm * MM, look["safe_margin"] * MM
        for card in hs.cards:
            plan = r.plan_face(card)
            assert isinstance(plan, CardPlan) and r.plan_face(card) is plan  # copies share one plan
            assert all(type(op) in plan_pdf.CARD_OPS for op in plan.ops)
            got = plan_read.inks(plan)
            assert look["accent"] in got.colours and look["paper"] in got.colours, game
            assert {fonts.regular, fonts.bold} <= got.fonts, game
            for op in plan.ops:
                if isinstance(op, TextAt):
                    assert op.x >= safe - 1e-6 and op.x + op.w <= W - safe + 1e-6, (game, card.id)
        back = r.plan_back()
        assert hs.look.back["colour"] in plan_read.inks(back).colours
