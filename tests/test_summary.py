"""Rulebook summaries: counts follow the database, PDFs are clean, Markdown says the same."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pnpforge.docs import context, counts, markup, summary
from pnpforge.errors import PnpError
from pnpforge.render.text_atoms import NO_START
from pnpforge.resources import shipped_templates
from pnpforge.store import repo
from pnpforge.store.db import open_db

GAMES = ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")


def _games(db_path: Path) -> list[str]:
    """The five games, or those of them the database holds (others are being imported)."""
    have = {g.slug for g in repo.list_games(open_db(db_path))}
    return [g for g in GAMES if g in have]


def _row_count(md: str, label_start: str) -> str:
    """The count cell of the table row whose first cell starts with `label_start`."""
    for line in md.splitlines():
        if line.startswith("| ") and markup.split_row(line)[0].startswith(label_start):
            return markup.split_row(line)[1]
    raise AssertionError(f"no row for {label_start!r} in:\n{md}")


# ---- markup -------------------------------------------------------------------------------


def test_markup_parses_the_subset() -> None:
    text = (
        "# Title\n\nintro line\ncontinued\n\n1. first\n2. second\n  - nested\n"
        "| a | b |\n|---|--:|\n| x \\| y | 2 |\n\n> note\n---\n"
    )
    blocks = markup.parse(text)
    kinds = [type(b).__name__ for b in blocks]
    assert kinds == ["Heading", "Para", "Item", "Item", "Item", "Table", "Note", "Break"]
    assert blocks[1] == markup.Para("intro line continued")
    first, nested, table = blocks[2], blocks[4], blocks[5]
    assert isinstance(first, markup.Item) and isinstance(nested, markup.Item)
    assert isinstance(table, markup.Table)
    assert first.number == 1 and nested.depth == 1 and not nested.ordered
    assert table.header == ("a", "b") and table.align == ("left", "right")
    assert markup.plain(table.rows[0][0]) == "x | y"
    # CJK lines join without a space
    assert markup.parse("中文\n續行")[0] == markup.Para("中文續行")


def test_markup_round_trips_through_markdown() -> None:
    src = "## 標題\n\n- **粗體**：說明\n- 第二\n\n| 名稱 | 數量 |\n|---|---:|\n| 卡 | 3 |\n"
    blocks = markup.parse(src)
    assert markup.parse(markup.to_markdown(blocks)) == blocks


def test_clean_label_drops_the_rulebook_count() -> None:
    assert counts.clean_label("義務人卡—稅×6") == "義務人卡—稅"
    assert counts.clean_label("卡牌×70（5 種花色）") == "卡牌（5 種花色）"
    assert counts.clean_label("D-01 Thin Provision×4") == "D-01 Thin Provision"


# ---- counts follow the database --------------------------------------------------------------


def test_summary_counts_follow_the_database(shipped_db: Path, run) -> None:
    db = open_db(shipped_db)
    game = "hackers" if "hackers" in _games(shipped_db) else _games(shipped_db)[0]
    card = repo.list_cards(db, game)[0]
    ctype = repo.get_card_type(db, game, card.type)
    before_md = summary.summary_markdown(db, game)
    before = int(_row_count(before_md, ctype.name).rstrip(context.MARK))
    res = run("--db", shipped_db, "cards", "set", game, card.id, f"copies={card.copies + 3}")
    assert res.exit_code == 0, res.output
    after_md = summary.summary_markdown(open_db(shipped_db), game)
    after = int(_row_count(after_md, ctype.name).rstrip(context.MARK))
    assert after == before + 3
    # the composition breakdown counts the cards too, and says what the rulebook expects
    assert "規則書為" in after_md or "规则书为" in after_md
    assert before_md != after_md


def test_composition_tree_counts_copies(shipped_db: Path) -> None:
    db = open_db(shipped_db)
    for game in _games(shipped_db):
        cards = repo.list_cards(db, game)
        for t in counts.type_counts(db, game):
            assert t.count == sum(c.copies for c in cards if c.type == t.slug)
        # every counted rule agrees with the query engine's own copy count
        from pnpforge.query.search import count_copies

        rules = {r.id: r for r in repo.composition(db, game)}
        stack = list(counts.composition_tree(db, game))
        while stack:
            node = stack.pop()
            r = rules[node.id]
            assert node.count == count_copies(db, game, r.card_type, r.query), node.id
            stack.extend(node.children)


def test_other_components_listed_with_counts(shipped_db: Path) -> None:
    db = open_db(shipped_db)
    for game in _games(shipped_db):
        md = summary.summary_markdown(db, game)
        for c in repo.components(db, game):
            assert _row_count(md, c.name).rstrip(context.MARK) == str(c.count)


# ---- Markdown ------------------------------------------------------------------------------------


def test_markdown_has_every_rule_section_and_the_facts(shipped_db: Path, run) -> None:
    for game in _games(shipped_db):
        res = run("--db", shipped_db, "rules", game, "--format", "md", "-o", "-")
        assert res.exit_code == 0, res.output
        md = res.stdout
        g = repo.get_game(open_db(shipped_db), game)
        assert md.startswith(f"# {g.title}")
        assert g.version in md and context.stamp_date(open_db(shipped_db), game)[:10] in md
        headings = [b.text for b in markup.parse(md) if isinstance(b, markup.Heading)]
        for s in repo.rule_sections(open_db(shipped_db), game):
            assert any(h.startswith(s.title) for h in headings), s.title


def test_script_of_the_added_words_follows_the_language(shipped_db: Path) -> None:
    db = open_db(shipped_db)
    langs = {g: repo.get_game(db, g).language for g in _games(shipped_db)}
    for game, lang in langs.items():
        md = summary.summary_markdown(db, game)
        if lang == "zh-Hant":
            assert "遊戲配件" in md and "游戏组件" not in md
        elif lang == "zh-Hans":
            assert "游戏组件" in md and "遊戲配件" not in md


def test_markdown_file_output(shipped_db: Path, tmp_path: Path, run) -> None:
    game = _games(shipped_db)[0]
    res = run("--db", shipped_db, "rules", game, "--format", "md", "-o", tmp_path)
    assert res.exit_code == 0, res.output
    written = tmp_path / f"{game}-rules.md"
    assert written.read_text(encoding="utf-8") == summary.summary_markdown(open_db(shipped_db), game)


# ---- PDF ------------------------------------------------------------------------------------------


def _pdf_fonts(path: Path) -> set[tuple[str, bool]]:
    from pypdf import PdfReader

    fonts = set()
    for page in PdfReader(str(path)).pages:
        resources: Any = page["/Resources"]
        for ref in resources.get("/Font", {}).values():
            f = ref.get_object()
            desc = f.get("/FontDescriptor")
            embedded = bool(
                desc and any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            )
            fonts.add((str(f["/BaseFont"]), embedded))
    return fonts


def _chars_outside(path: Path, margin_pt: float) -> list[str]:
    """Characters drawn closer than margin_pt to a page edge (nothing may overflow)."""
    import pypdfium2 as pdfium

    bad = []
    doc = pdfium.PdfDocument(str(path))
    for i in range(len(doc)):
        page = doc[i]
        w, h = page.get_size()
        tp = page.get_textpage()
        for k in range(tp.count_chars()):
            left, bottom, right, top = tp.get_charbox(k)
            if right <= left:
                continue
            if left < margin_pt or bottom < margin_pt or right > w - margin_pt or top > h - margin_pt:
                bad.append(f"page {i + 1}: {tp.get_text_range(k, 1)!r} at {left:.0f},{bottom:.0f}")
        tp.close()
        page.close()
    doc.close()
    return bad


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdf_fonts_text_pages_and_footer(shipped_db: Path, tmp_path: Path, paper: str) -> None:
    from pypdf import PdfReader

    db = open_db(shipped_db)
    for game in _games(shipped_db):
        res = summary.write_summary(db, game, fmt="pdf", paper=paper, output=tmp_path / f"{game}.pdf")
        assert 1 <= res.pages <= summary.MAX_PAGES, (game, res.pages)
        fonts = _pdf_fonts(res.path)
        assert fonts and all(embedded for _, embedded in fonts), fonts
        assert not any("Helvetica" in name or "Times" in name or "Courier" in name for name, _ in fonts), (
            fonts
        )
        lang = repo.get_game(db, game).language
        family = "NotoSansTC" if lang == "zh-Hant" else "NotoSansSC"
        assert all(family in name for name, _ in fonts), fonts
        reader = PdfReader(str(res.path))
        assert len(reader.pages) == res.pages
        text = "\n".join(p.extract_text() for p in reader.pages)
        g = repo.get_game(db, game)
        assert g.title in text
        for s in repo.rule_sections(db, game):
            assert s.title in text.replace("\n", ""), s.title
        last = reader.pages[-1].extract_text()
        assert str(res.pages) in last and f"v{g.version}" in last
        # page size and no text outside the margins
        box = reader.pages[0].mediabox
        expect = summary.PAPERS_MM[paper]
        assert abs(float(box.width) - expect[0] * summary.MM) < 0.5
        assert _chars_outside(res.path, 8 * summary.MM) == []
        # the card faces' line-breaking rules: no line starts with closing punctuation
        starts = [ln.lstrip()[:1] for p in reader.pages for ln in p.extract_text().splitlines() if ln.strip()]
        assert not set(starts) & set(NO_START), (game, sorted(set(starts) & set(NO_START)))


def test_pdf_is_deterministic_and_dated_from_the_cards(shipped_db: Path, tmp_path: Path) -> None:
    db = open_db(shipped_db)
    game = _games(shipped_db)[0]
    a = summary.write_summary(db, game, output=tmp_path / "a.pdf")
    b = summary.write_summary(db, game, output=tmp_path / "b.pdf")
    assert a.path.read_bytes() == b.path.read_bytes()
    stamp = context.stamp_date(db, game)
    digits = re.sub(r"\D", "", stamp)[:14]
    assert f"D:{digits}".encode() in a.path.read_bytes()


def test_bad_format_and_paper_are_refused(shipped_db: Path, tmp_path: Path, run) -> None:
    game = _games(shipped_db)[0]
    res = run("--db", shipped_db, "rules", game, "--format", "docx", "-o", tmp_path)
    assert res.exit_code == 2 and "allowed: pdf, md" in res.output
    with pytest.raises(PnpError, match="allowed: a4, letter"):
        summary.write_summary(open_db(shipped_db), game, paper="a3", output=tmp_path)
    res = run("--db", shipped_db, "rules", "no-such-game")
    assert res.exit_code == 2 and "unknown game" in res.output


def test_template_error_names_file_and_line(shipped_db: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "templates"
    shutil.copytree(shipped_templates() / "_shared", root / "_shared")
    game = _games(shipped_db)[0]
    (root / game).mkdir()
    (root / game / "summary.md.j2").write_text("# x\n\n{{ no_such_thing.title }}\n", encoding="utf-8")
    with pytest.raises(PnpError, match=r"summary\.md\.j2, line 3"):
        summary.summary_markdown(open_db(shipped_db), game, root=root)
