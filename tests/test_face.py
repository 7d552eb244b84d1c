"""Card faces and backs: fitting, line breaking, errors, provisional marks, art, goldens.

Golden images: one card per card type of every game, rendered at 150 dpi and
compared with tests/golden/<game>/<type>.png with a small tolerance.  The card
itself is stored beside it (<type>.json), so editing the database's cards does
not move the goldens; only layout and drawing changes do.  Regenerate after an
intended change with:  PNP_UPDATE_GOLDEN=1 pytest tests/test_face.py -k golden
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_break, text_markup
from pnpforge.render.face import FaceRenderer, one_card_pdf, preview_png
from pnpforge.store import repo
from pnpforge.store.db import open_db

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
DATE = "2026-01-01"


@pytest.fixture(scope="module")
def db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import shutil

    path = tmp_path_factory.mktemp("db") / "cards.db"
    shutil.copy(ROOT / "cards.db", path)
    return path


@pytest.fixture(scope="module")
def db(db_path: Path):
    return open_db(db_path)


@pytest.fixture(scope="module")
def renderers(db) -> dict[str, FaceRenderer]:
    return {g.slug: FaceRenderer(db, g.slug, date=DATE) for g in repo.list_games(db)}


def pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def first_card(db, game: str, card_type: str | None = None, **want) -> Card:
    for c in repo.list_cards(db, game, card_type):
        if all(getattr(c, k) == v for k, v in want.items()):
            return c
    raise LookupError((game, card_type, want))


# ---- every shipped card draws --------------------------------------------------------------


def test_every_card_of_every_game_passes_check(db, renderers) -> None:
    count = 0
    for slug, r in renderers.items():
        for card in repo.list_cards(db, slug):
            r.check(card)
            count += 1
        assert not [w for w in r.warnings() if "no layout" in w]
    assert count > 100


def test_drawing_is_deterministic(db, renderers) -> None:
    card = repo.list_cards(db, "enforcer")[0]
    a = one_card_pdf(renderers["enforcer"], card)
    b = one_card_pdf(FaceRenderer(db, "enforcer", date=DATE), card)
    assert a == b


def test_stamp_shows_version_date_and_id(db, renderers) -> None:
    card = repo.list_cards(db, "hackers")[0]
    text = pdf_text(one_card_pdf(renderers["hackers"], card))
    game = repo.get_game(db, "hackers")
    assert f"v{game.version}" in text and DATE in text and card.id in text


# ---- errors -----------------------------------------------------------------------------------


def test_overflow_names_card_region_and_what_is_left(db, renderers) -> None:
    card = first_card(db, "enforcer", "execution")
    long = dataclasses.replace(card, text="本回合執行難度加二。" * 60)
    with pytest.raises(PnpError) as e:
        renderers["enforcer"].check(long)
    msg = str(e.value)
    assert card.id in msg and "region 'text'" in msg
    assert re.search(r"\d+ line\(s\) \(\d+ characters\) left over", msg)


def test_text_shrinks_before_it_overflows(db, renderers) -> None:
    card = first_card(db, "enforcer", "execution")
    r = renderers["enforcer"]
    # twice as much text as usual still fits: it is set smaller, not refused
    r.check(dataclasses.replace(card, text="對弱勢義務人執行時額外獲得1點執行力。" * 4))


def test_missing_glyph_names_card_region_and_character(db, renderers) -> None:
    card = first_card(db, "infiltraitors", "special")
    bad = dataclasses.replace(card, text="只提示花色 ✗ 好")
    with pytest.raises(PnpError) as e:
        renderers["infiltraitors"].check(bad)
    msg = str(e.value)
    assert card.id in msg and "region 'text'" in msg and "U+2717" in msg


def test_unknown_card_type_lists_the_types(db, renderers) -> None:
    with pytest.raises(PnpError, match="no card type 'nope'.*allowed"):
        renderers["hackers"].draw_back(None, "nope", 0, 0, 0)


# ---- provisional values -----------------------------------------------------------------------


def test_partly_provisional_card_marks_values_and_wears_a_badge(db, renderers) -> None:
    card = first_card(db, "enforcer", "obligor", provenance="rulebook")
    clean = dataclasses.replace(card, provisional_fields=[])
    text = pdf_text(one_card_pdf(renderers["enforcer"], clean))
    assert "†" not in text and "暫" not in text
    marked = dataclasses.replace(card, provisional_fields=["difficulty"])
    text = pdf_text(one_card_pdf(renderers["enforcer"], marked))
    assert f"{card.fields['difficulty']}†" in re.sub(r"\s", "", text)
    assert "暫" in text and "暫定值" in text


def test_wholly_provisional_card_has_badge_not_signs(db, renderers) -> None:
    card = dataclasses.replace(
        first_card(db, "enforcer", "execution"), provenance="provisional", provisional_fields=[]
    )
    text = pdf_text(one_card_pdf(renderers["enforcer"], card))
    assert "暫" in text and "†" not in text


def test_simplified_game_uses_simplified_words(db, renderers) -> None:
    card = dataclasses.replace(first_card(db, "dirty-money", "action"), provenance="provisional")
    assert "暂" in pdf_text(one_card_pdf(renderers["dirty-money"], card))


# ---- art -----------------------------------------------------------------------------------------


def test_missing_art_is_a_warning_and_a_placeholder(db) -> None:
    r = FaceRenderer(db, "accusation", date=DATE)
    card = dataclasses.replace(first_card(db, "accusation", "follower"), art="art/nowhere.png")
    text = pdf_text(one_card_pdf(r, card))
    assert "缺圖" in text
    assert any("nowhere.png" in w and "not found" in w for w in r.warnings())


def test_art_is_fitted_into_its_region(db, db_path: Path) -> None:
    from PIL import Image
    from pypdf import PdfReader

    art = db_path.parent / "art"
    art.mkdir(exist_ok=True)
    Image.new("RGB", (900, 300), (200, 30, 30)).save(art / "wide.jpg")
    r = FaceRenderer(db, "accusation", date=DATE)
    card = dataclasses.replace(first_card(db, "accusation", "follower"), art="art/wide.jpg")
    page = PdfReader(io.BytesIO(one_card_pdf(r, card))).pages[0]
    resources: Any = page["/Resources"]
    images = [x.get_object() for x in resources["/XObject"].values()]
    assert len(images) == 1
    # resampled to the region at 300 dpi (54 × 33 mm), cropped to cover it
    assert abs(images[0]["/Width"] - round(54 / 25.4 * 300)) <= 2
    assert abs(images[0]["/Height"] - round(31 / 25.4 * 300)) <= 30
    assert not r.warnings()


# ---- backs ----------------------------------------------------------------------------------------


def test_back_shows_title_and_is_mirror_symmetric_outside_its_text(db, renderers) -> None:
    from PIL import ImageChops, ImageOps

    for slug, r in renderers.items():
        for t in repo.card_types(db, slug):
            data = one_card_pdf(r, back=t.slug)
            title = (t.back.get("title") or repo.get_game(db, slug).title).split()[0]
            assert title in pdf_text(data).replace("\n", " ")
        t = repo.card_types(db, slug)[0]
        img = preview_png(r, back=t.slug, dpi=72).convert("L")
        diff = ImageChops.difference(img, ImageOps.mirror(img))
        w, h = img.size
        # the frame and pattern mirror onto themselves; only the lettering differs
        top = diff.crop((0, 0, w, int(h * 0.25)))
        extrema: Any = top.getextrema()  # (low, high) of the one-band difference
        assert max(extrema) < 60, slug


def test_back_titles_break_between_languages_never_inside_one(db, renderers) -> None:
    """ "駭客聯盟 League of Hackers" is one line or one line per language: the English words stay
    together (they once wrapped as "League of" / "Hackers")."""
    for slug, r in renderers.items():
        for t in repo.card_types(db, slug):
            title = t.back.get("title") or ""
            lines = [ln.strip() for ln in pdf_text(one_card_pdf(r, back=t.slug)).splitlines() if ln.strip()]
            latin = re.findall(r"[A-Za-z][A-Za-z ]*[A-Za-z]", title)
            for words in latin:
                assert words in lines or any(words in ln for ln in lines), (slug, t.slug, lines)


def test_back_band_and_footer_are_layout_options(db, renderers, tmp_path: Path) -> None:
    """A designer moves the back's band and resizes its footer in the layout, not in Python."""
    from pnpforge.render import layout as L

    own = tmp_path / "enforcer"
    own.mkdir()
    text = (ROOT / "templates" / "enforcer" / "obligor.toml").read_text(encoding="utf-8")
    (own / "obligor.toml").write_text(
        text + "\n[back]\nband_height = 0.6\nband_max_height = 60\nfooter_size = 4.5\n", encoding="utf-8"
    )
    restyled = FaceRenderer(db, "enforcer", templates_dir=tmp_path, date=DATE)
    assert restyled.layouts["obligor"].back["band_height"] == 0.6
    assert renderers["enforcer"].layouts["obligor"].back["band_height"] == 0.36  # the default
    assert one_card_pdf(restyled, back="obligor") != one_card_pdf(renderers["enforcer"], back="obligor")
    # the other types keep the shipped layout, file by file
    assert one_card_pdf(restyled, back="officer") == one_card_pdf(renderers["enforcer"], back="officer")
    (own / "obligor.toml").write_text(text + "\n[back]\nband_max_height = -3\n", encoding="utf-8")
    with pytest.raises(L.LayoutError) as err:
        FaceRenderer(db, "enforcer", templates_dir=tmp_path, date=DATE)
    assert "band_max_height" in str(err.value) and "obligor.toml" in str(err.value)


# ---- line breaking --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def measure() -> text_atoms.Measure:
    from pnpforge.render.fonts import ensure_fonts

    fs = ensure_fonts("zh-Hant")
    return text_atoms.Measure(fs.regular, fs.bold)


def lines_of(text: str, width_em: float, m: text_atoms.Measure) -> list[str]:
    atoms = text_atoms.atomize(text_markup.parse_markup(text), m)
    return ["".join(a.text for a in ln.atoms) for ln in text_break.break_lines(atoms, width_em, m)]


def test_no_line_starts_with_closing_or_ends_with_opening_punctuation(measure) -> None:
    text = "查封類（限制類）執行卡，對弱勢義務人無效。「矚目」須優先執行！"
    for width in range(3, 20):
        lines = lines_of(text, width, measure)
        assert "".join(lines) == text
        for ln in lines[1:]:
            assert ln[0] not in text_atoms.NO_START, (width, lines)
        for ln in lines:
            assert ln[-1] not in text_atoms.NO_END, (width, lines)


def test_latin_words_wrap_at_spaces(measure) -> None:
    lines = lines_of("Trojan Horse attacks the red server twice", 8, measure)
    assert all(not ln.startswith(" ") and not ln.endswith(" ") for ln in lines)
    words = " ".join(lines).split()
    assert words == "Trojan Horse attacks the red server twice".split()


def test_markup_bold_icons_and_paragraphs(measure) -> None:
    spans = text_markup.parse_markup("**詠頌**：抽:R:1張\n\n第二段", icon_names=["R"])
    assert spans[0] == text_atoms.Span("詠頌", bold=True)
    assert any(s.icon == "R" for s in spans)
    atoms = text_atoms.atomize(spans, measure)
    lines = text_break.break_lines(atoms, 40, measure)
    assert len(lines) == 2 and lines[1].para_before


def test_keywords_are_styled_longest_first() -> None:
    spans = text_markup.apply_keywords(
        [text_atoms.Span("假弱勢視為弱勢")], {"弱勢": {"colour": "#00ff00"}, "假弱勢": {"colour": "#ff0000"}}
    )
    assert [(s.text, s.colour) for s in spans] == [("假弱勢", "#ff0000"), ("視為", None), ("弱勢", "#00ff00")]


def test_fit_reports_overflow_at_min_size(measure) -> None:
    atoms = text_atoms.atomize([text_atoms.Span("字" * 400)], measure)
    fitted = tx.fit(atoms[:20], 100, 40, 10, 5, 1.3, measure)
    assert fitted.size == 10
    with pytest.raises(tx.Overflow) as e:
        tx.fit(atoms, 100, 40, 10, 5, 1.3, measure)
    assert e.value.size == 5 and e.value.chars_over > 0


CJK = st.sampled_from(list("執行官義務人稅健罰費查封限制難度分數"))
PUNCT = st.sampled_from(list("，。、；：！？）」』》（「『《"))
WORD = st.text(alphabet="abcdefgXYZ0123", min_size=1, max_size=7)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(CJK, CJK, PUNCT, WORD.map(lambda w: f" {w} ")), min_size=1, max_size=40),
    st.integers(min_value=4, max_value=30),
)
def test_breaking_keeps_every_character_and_the_rules(measure, parts, width) -> None:
    text = "".join(parts).strip()
    if not text:
        return
    atoms = text_atoms.atomize([text_atoms.Span(text)], measure)
    lines = text_break.break_lines(atoms, width, measure)
    joined = "".join("".join(a.text for a in ln.atoms) for ln in lines)
    assert joined.replace(" ", "") == text.replace(" ", "")
    for prev, ln in zip(lines, lines[1:], strict=False):
        if not ln.atoms or not prev.atoms:
            continue
        first, last = ln.atoms[0], prev.atoms[-1]
        if first.first in text_atoms.NO_START or last.last in text_atoms.NO_END:
            # a rule may only give way when the line could not have ended anywhere else
            seq = prev.atoms + ln.atoms[:1]
            assert not any(text_break.break_allowed(seq, k) for k in range(1, len(prev.atoms))), (
                [a.text for a in prev.atoms],
                [a.text for a in ln.atoms],
            )


# ---- golden images --------------------------------------------------------------------------------


def _golden_cards(db) -> list[tuple[str, str, Card]]:
    out = []
    for game in repo.list_games(db):
        for t in repo.card_types(db, game.slug):
            cards = repo.list_cards(db, game.slug, t.slug)
            if cards:
                out.append((game.slug, t.slug, cards[0]))
    return out


def _card_from_json(path: Path) -> Card:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("created_at", None)
    data.pop("updated_at", None)
    return Card(**data)


def _compare(img, golden_path: Path) -> tuple[float, float]:
    from PIL import Image, ImageChops

    golden = Image.open(golden_path).convert("RGB")
    if golden.size != img.size:
        return 255.0, 1.0
    diff = ImageChops.difference(img, golden).convert("L")
    hist = diff.histogram()
    total = img.size[0] * img.size[1]
    mean = sum(i * n for i, n in enumerate(hist)) / total
    big = sum(hist[48:]) / total
    return mean, big


def _golden_failures(db, renderers, root: Path, update: bool) -> list[str]:
    """One line per card type whose face differs from its golden, or has none."""
    failures = []
    for game, slug, card in _golden_cards(db):
        folder = root / game
        png, js = folder / f"{slug}.png", folder / f"{slug}.json"
        r = renderers[game]
        r.game.version = "0.1"  # the stamp must not move with the game's version
        if not update and not (js.exists() and png.exists()):
            failures.append(f"{game}/{slug}: no golden (PNP_UPDATE_GOLDEN=1 writes it)")
            continue
        if update:
            folder.mkdir(parents=True, exist_ok=True)
            d = card.to_dict()
            d["game"] = game
            d.pop("created_at", None)
            d.pop("updated_at", None)
            js.write_text(
                json.dumps(d, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
            )
        stored = _card_from_json(js)
        img = preview_png(r, stored, dpi=150)
        if update:
            img.quantize(colors=96, dither=0).save(png, optimize=True)
            continue
        mean, big = _compare(img, png)
        if mean > 2.0 or big > 0.01:
            failures.append(f"{game}/{slug}: mean diff {mean:.2f}, {big:.2%} pixels differ")
    return failures


def test_golden_images_one_card_per_type(db, renderers) -> None:
    update = os.environ.get("PNP_UPDATE_GOLDEN") == "1"
    failures = _golden_failures(db, renderers, GOLDEN, update)
    assert not failures, (
        "faces changed (PNP_UPDATE_GOLDEN=1 regenerates after an intended change):\n" + "\n".join(failures)
    )


def test_a_missing_golden_fails_and_is_not_written(db, renderers, tmp_path) -> None:
    failures = _golden_failures(db, renderers, tmp_path, update=False)
    assert failures and all("no golden" in f for f in failures)
    assert not any(tmp_path.iterdir())


# ---- the drawing fast paths write what reportlab would ------------------------------------


def _canvas() -> Any:
    from reportlab.pdfgen.canvas import Canvas

    return Canvas(io.BytesIO(), invariant=1)


_STRINGS = ["執行官查封土地", "Unit 12 (x) \\ back", "", "混合 mixed 文字 123", "†"]


def test_template_code_is_cached_on_disk_and_survives_a_bad_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnpforge.render import code_cache
    from pnpforge.render.templating import sandboxed_environment

    monkeypatch.setattr(code_cache, "_folder", tmp_path)
    source = "{{ card.name }} · {{ '%02d' % n }}{% if n > 3 %}!{% endif %}"
    first = sandboxed_environment().from_string(source).render(card={"name": "卡"}, n=7)
    [entry] = list(tmp_path.glob("*-tmpl-*"))  # Jinja's bytecode for this text
    assert first == "卡 · 07!"
    compiled: list[str] = []
    real_compile = jinja2.Environment.compile

    def counting_compile(self: Any, *a: Any, **k: Any) -> Any:
        compiled.append("compiled")
        return real_compile(self, *a, **k)

    monkeypatch.setattr(jinja2.Environment, "compile", counting_compile)
    assert sandboxed_environment().from_string(source).render(card={"name": "卡"}, n=7) == first
    assert compiled == []  # read from the cache: neither parsed, generated nor compiled
    # another environment (a finalize changes the generated code): its own entry
    assert sandboxed_environment(finalize=str).from_string(source).render(card={"name": "卡"}, n=7) == first
    assert len(list(tmp_path.glob("*-tmpl-*"))) == 2 and len(compiled) == 1
    entry.write_bytes(b"not code")
    assert sandboxed_environment().from_string(source).render(card={"name": "卡"}, n=2) == "卡 · 02"
    assert entry.read_bytes() != b"not code" and len(compiled) == 2  # compiled again, rewritten


def test_templates_loaded_by_name_use_the_same_bytecode_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnpforge.render import code_cache
    from pnpforge.render.templating import sandboxed_environment

    monkeypatch.setattr(code_cache, "_folder", tmp_path / "cache")
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "aid.j2").write_text("{{ title }}: {{ n * 2 }}", encoding="utf-8")
    assert sandboxed_environment(folders=[folder]).get_template("aid.j2").render(title="甲", n=2) == "甲: 4"
    assert len(list((tmp_path / "cache").glob("*-tmpl-*"))) == 1
    (folder / "aid.j2").write_text("{{ title }}! {{ n * 3 }}", encoding="utf-8")  # an edit: a new entry
    assert sandboxed_environment(folders=[folder]).get_template("aid.j2").render(title="甲", n=2) == "甲! 6"
    assert len(list((tmp_path / "cache").glob("*-tmpl-*"))) == 2


# ---- short paths: the same answers and bytes as the general ones -----------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["執", "行", "官", " ", "Unit", "12", "·", "（", "）", "，", "ab", "—", "x"]),
        min_size=1,
        max_size=14,
    ),
    st.floats(min_value=15.0, max_value=260.0),
    st.booleans(),
)
def test_one_line_fit_equals_the_general_fit(measure, parts, width, bold) -> None:
    from pnpforge.render.text_line import fit_one_line

    text = "".join(parts)
    spans = [text_atoms.Span(text, bold, "#123456")]
    fast = fit_one_line(spans, width, 12.0, 7.0, 1.2, measure)
    try:
        general = tx.fit(
            text_atoms.atomize(spans, measure), width, 12.0, 7.0, 4.0, 1.2, measure
        ).for_drawing()
    except tx.Overflow:
        general = None
    one_line = general is not None and general.size == 7.0 and len(general.lines) == 1
    if fast is None:  # declined: the general path decides (edge spaces, breaks, shrinking)
        assert not one_line or text != text.strip(" ")
        return
    assert general is not None and one_line
    assert (fast.size, fast.leading, fast.height) == (general.size, general.leading, general.height)
    assert [(ln.para_before, ln.width(), ln.runs()) for ln in fast.lines] == [
        (ln.para_before, ln.width(), ln.runs()) for ln in general.lines
    ]


def test_one_line_fit_leaves_markup_breaks_and_missing_glyphs_to_the_general_path(measure) -> None:
    from pnpforge.render.text_line import fit_one_line

    assert fit_one_line([text_atoms.Span("費用 3")], 200, 20, 7, 1.2, measure) is not None
    for spans in (
        [text_atoms.Span("一行\n兩行")],
        [text_atoms.Span(" 前後空白 ")],
        [text_atoms.Span("甲"), text_atoms.Span("乙", True)],
        [text_atoms.Span(icon="x")],
        [text_atoms.Span("\U0001f600")],  # no glyph: the general path names it
        [text_atoms.Span("很長的一段文字" * 6)],  # needs two lines at this width
    ):
        assert fit_one_line(spans, 60, 20, 7, 1.2, measure) is None


def test_expressions_are_cached_like_templates_and_fail_as_jinja_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jinja2.sandbox import SandboxedEnvironment

    from pnpforge.render import code_cache
    from pnpforge.render.templating import sandboxed_environment

    monkeypatch.setattr(code_cache, "_folder", tmp_path)
    source = "(f.tags or []) | length > 1 and f.cost is number"
    values = {"f": {"tags": ["甲", "乙"], "cost": 3}}
    assert sandboxed_environment().compile_expression(source)(**values) is True
    assert len(list(tmp_path.glob("*-tmpl-*"))) == 1
    compiled: list[str] = []
    real_compile = jinja2.Environment.compile

    def counting_compile(self: Any, *a: Any, **k: Any) -> Any:
        compiled.append("compiled")
        return real_compile(self, *a, **k)

    monkeypatch.setattr(jinja2.Environment, "compile", counting_compile)
    again = sandboxed_environment().compile_expression(source)
    assert again(**values) is True and again(f={"tags": []}) is False and compiled == []
    for bad in ("1 +", "a b", "x("):
        errors = []
        for env in (sandboxed_environment(), SandboxedEnvironment()):
            with pytest.raises(jinja2.TemplateSyntaxError) as e:
                env.compile_expression(bad)
            errors.append((e.value.message, e.value.lineno))
        assert errors[0] == errors[1], bad


def test_card_views_are_read_through_the_full_sandbox() -> None:
    """Templates see a card through Jinja's sandbox with no short cut: private state and
    Python internals stay out of reach."""
    from pnpforge.model import Card
    from pnpforge.render.face_values import CardView, ReadTracker
    from pnpforge.render.templating import sandboxed_environment

    card = Card(id="A-1", game="g", type="unit", name="卡", fields={"cost": 3})
    view = CardView(card, set(), ReadTracker())
    env = sandboxed_environment()
    source = "{{ card.name }}|{{ card.fields.cost }}|{{ card._card }}|{{ card.__class__ }}|"
    source += "{{ card.fields._values }}"
    assert env.from_string(source).render(card=view) == "卡|3|||"


def test_the_art_cache_keeps_the_newest_within_its_byte_budget() -> None:
    from pnpforge.render.face_cache import MISSING, SizedLRU

    cache = SizedLRU(100)
    for n in range(5):
        cache.store(n, f"art{n}", 30)
    assert cache.used <= 100 and [k for k in cache] == [2, 3, 4]
    assert cache.lookup(2) == "art2" and cache.lookup(0) is MISSING
    cache.store(5, "art5", 30)  # 2 was used last: 3 goes first
    assert list(cache) == [4, 2, 5] and cache.used == 90
    cache.store(6, "huge", 500)  # larger than the budget: kept alone until the next one
    assert list(cache) == [6]
