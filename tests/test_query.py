"""The card search language: parser, compiler, and results against a real database."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pnpforge.errors import PnpError
from pnpforge.model import FieldDef
from pnpforge.query import (
    And,
    Not,
    QueryError,
    Term,
    compile_query,
    count_copies,
    field_defs_of,
    parse,
    search,
)
from pnpforge.store import bundle, repo
from pnpforge.store.db import open_db, transaction

TRAITS = ["大戶", "矚目", "弱勢", "假弱勢"]
OBLIGOR_FIELDS: list[dict] = [
    {"name": "category", "type": "enum", "label": "類別", "allowed": ["稅", "健", "罰", "費"]},
    {"name": "difficulty", "type": "integer", "label": "難度"},
    {"name": "epithet", "type": "text", "label": "稱號"},
    {"name": "traits", "type": "list", "label": "特質", "allowed": TRAITS},
]
EXECUTION_FIELDS: list[dict] = [
    {"name": "power", "type": "integer", "label": "威力"},
    {"name": "instant", "type": "boolean", "label": "即時"},
    {"name": "difficulty", "type": "integer", "label": "難度"},
]
_CARDS = [  # id, type, name, name_en, copies, fields, text, provenance, provisional_fields
    (
        "O1",
        "obligor",
        "王大戶",
        "Tycoon Wang",
        1,
        {"category": "稅", "difficulty": 8, "epithet": "逃稅", "traits": ["大戶", "矚目"]},
        "查封類執行卡無效",
        "rulebook",
        [],
    ),
    (
        "O2",
        "obligor",
        "李小氣",
        "Stingy Li",
        2,
        {"category": "罰", "difficulty": 5, "epithet": "小氣", "traits": ["弱勢"]},
        "",
        "rulebook",
        ["difficulty"],
    ),
    (
        "O3",
        "obligor",
        "陳騙子",
        "Swindler Chen",
        1,
        {"category": "費", "difficulty": 10, "epithet": "騙子", "traits": []},
        "100% 騙",
        "reference",
        [],
    ),
    (
        "O4",
        "obligor",
        "林投機",
        "",
        3,
        {"category": "健", "difficulty": None, "epithet": "投機", "traits": ["假弱勢"]},
        "",
        "provisional",
        [],
    ),
    (
        "E1",
        "execution",
        "查封",
        "Seizure",
        4,
        {"power": 3, "instant": False, "difficulty": 8},
        "查封一件財產",
        "rulebook",
        [],
    ),
    (
        "E2",
        "execution",
        "限制出境",
        "Travel ban",
        2,
        {"power": 5, "instant": True},
        "Stop them_leaving",
        "rulebook",
        [],
    ),
]


def _bundle(slug: str, cards: list[tuple]) -> dict:
    def card_type(ts: str, name: str, fields: list[dict]) -> dict:
        return {
            "slug": ts,
            "name": name,
            "name_en": ts.title(),
            "width_mm": 63,
            "height_mm": 88,
            "fields": fields,
        }

    return {
        "format": bundle.FORMAT,
        "game": {
            "slug": slug,
            "title": "執行",
            "title_en": slug,
            "language": "zh-Hant",
            "players_min": 1,
            "players_max": 4,
        },
        "card_types": [
            card_type("obligor", "義務人卡", OBLIGOR_FIELDS),
            card_type("execution", "執行卡", EXECUTION_FIELDS),
        ],
        "cards": [
            {
                "id": i,
                "type": t,
                "name": n,
                "name_en": ne,
                "copies": cp,
                "fields": f,
                "text": tx,
                "provenance": pv,
                "provisional_fields": pf,
            }
            for i, t, n, ne, cp, f, tx, pv, pf in cards
        ],
    }


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    d = open_db(tmp_path_factory.mktemp("q") / "t.db", create=True)
    with transaction(d) as conn:
        bundle.write(conn, bundle.parse(_bundle("enforcer", _CARDS)), replace=False)
        bundle.write(conn, bundle.parse(_bundle("other", [_CARDS[0]])), replace=False)
    return d


@pytest.fixture(scope="module")
def defs(db):
    return field_defs_of(repo.card_types(db, "enforcer"))


def ids(db, query: str, game: str | None = "enforcer") -> list[str]:
    return [c.id for c in search(db, game, query)]


def oracle(db, pred) -> list[str]:
    """Ids of the game's cards that a Python predicate accepts, in deck order."""
    return [c.id for c in repo.list_cards(db, "enforcer") if pred(c)]


# ---- parser ----------------------------------------------------------------------


def shape(node) -> object:
    """The AST without positions, for readable expectations."""
    if isinstance(node, Term):
        return (node.field, node.op, node.value) if node.field else node.value
    if isinstance(node, Not):
        return ("not", shape(node.child))
    return ("and" if isinstance(node, And) else "or", *[shape(c) for c in node.children])


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a or b c", ("or", "a", ("and", "b", "c"))),  # AND binds tighter than OR
        ("a b or c", ("or", ("and", "a", "b"), "c")),
        ("a and b or c", ("or", ("and", "a", "b"), "c")),
        ("(a or b) c", ("and", ("or", "a", "b"), "c")),
        ("a OR b Or c", ("or", "a", "b", "c")),
        ("-a --b ---c", ("and", ("not", "a"), "b", ("not", "c"))),
        ("-(a or b)", ("not", ("or", "a", "b"))),
        ('"a or b" c', ("and", "a or b", "c")),
        ('name:"王 大戶"', ("name", ":", "王 大戶")),
        ('"or"', "or"),
        ("co-op", "co-op"),
    ],
)
def test_parse_structure(text, expected):
    assert shape(parse(text).root) == expected


@pytest.mark.parametrize("op", [":", "=", "!=", "<", "<=", ">", ">="])
def test_every_operator_is_read_whole(op):
    term = parse(f"difficulty{op}-3").root
    assert (term.field, term.op, term.value) == ("difficulty", op, "-3")


def test_fullwidth_punctuation_reads_as_ascii():
    assert shape(parse("難度：8 （a or b）").root) == ("and", ("難度", ":", "8"), ("or", "a", "b"))


def test_fullwidth_punctuation_in_values_is_kept():
    assert parse('"弱點：查封"').root.value == "弱點：查封"
    assert shape(parse("traits:弱點：查封").root) == ("traits", ":", "弱點：查封")
    assert shape(parse("traits：“弱點：查封”").root) == ("traits", ":", "弱點：查封")


def test_empty_query_matches_every_card(db, defs):
    assert parse("  ").root is None
    assert compile_query("", defs) == ("1", [])
    assert ids(db, "") == oracle(db, lambda c: True)


@pytest.mark.parametrize(
    "text, pos, fragment",
    [
        ("a or", 4, "'or' needs a term after it"),
        ("or a", 0, "'or' needs a term before it"),
        ("a and", 5, "'and' needs a term after it"),
        ("(a b", 0, "unclosed '('"),
        ("a b)", 3, "unmatched ')'"),
        ("a ()", 3, "empty parentheses"),
        ('name:"abc', 5, "unclosed quote"),
        ('a ""', 2, "empty quotes"),
        ("a - b", 2, "'-' must be followed"),
        ("a :x", 2, "missing field name"),
        ("difficulty>= 3", 12, "missing value after 'difficulty>='"),
        ("-or", 1, "expected a search term, found 'or'"),
        ("(" * 40 + "a" + ")" * 40, 32, "nested deeper"),
    ],
)
def test_syntax_errors_point_at_the_fault(text, pos, fragment):
    with pytest.raises(QueryError) as info:
        parse(text)
    err = info.value
    assert isinstance(err, PnpError)
    assert err.position == pos and fragment in str(err)
    *_, shown, caret = str(err).splitlines()
    assert shown == "  " + text and caret == " " * (pos + 2) + "^"


def test_caret_counts_wide_characters_twice(defs):
    with pytest.raises(QueryError) as info:
        compile_query("特質:大戶 難度>高", defs)
    caret = str(info.value).splitlines()[-1]
    width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in "特質:大戶 難度>")
    assert caret == " " * (2 + width) + "^"


def test_too_many_terms_is_an_error_not_a_crash():
    with pytest.raises(QueryError, match="too many terms"):
        parse(" ".join(["x"] * 101))


# ---- compile errors --------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fragment, pos",
    [
        ("foo:1", "unknown field 'foo'", 0),
        ("difficulty>=eight", "takes a whole number", 12),
        ("difficulty>=99999999999999999999", "takes a whole number", 12),
        ("name>3", "'>' does not apply to text", 4),
        ("epithet<x", "'<' does not apply to epithet (text)", 7),
        ("traits>=2", "'>=' does not apply to traits (list)", 6),
        ("category:稅務", "category is one of: 稅, 健, 罰, 費", 9),
        ("instant:maybe", "takes true/false", 8),
        ("provenance:guess", "provenance is one of", 11),
        ("is:difficulty", "is: takes 'provisional' or a yes/no field", 3),
        ("has:nothing", "unknown field 'nothing'", 4),
        ("is>x", "'>' does not apply to is:", 2),
    ],
)
def test_compile_errors_point_at_the_fault(defs, text, fragment, pos):
    with pytest.raises(QueryError) as info:
        compile_query(text, defs)
    assert fragment in str(info.value) and info.value.position == pos


def test_unknown_field_lists_allowed_fields(defs):
    with pytest.raises(QueryError) as info:
        compile_query("type:obligor powr>=3", defs)
    message = str(info.value)
    for name in ("difficulty (難度)", "traits (特質)", "power (威力)", "copies", "name", "is"):
        assert name in message


def test_unknown_card_type_lists_types(db):
    with pytest.raises(QueryError, match="types: execution, obligor"):
        search(db, "enforcer", "type:dragon")


def test_unknown_game_is_a_pnp_error(db):
    with pytest.raises(PnpError, match="unknown game"):
        search(db, "nope", "a")


# ---- results -----------------------------------------------------------------------


def test_integer_operators_match_python(db):
    def diff(c):
        return c.fields.get("difficulty")

    cases = {
        "=": lambda v: v == 8,
        ":": lambda v: v == 8,
        "!=": lambda v: v != 8,
        "<": lambda v: v < 8,
        "<=": lambda v: v <= 8,
        ">": lambda v: v > 8,
        ">=": lambda v: v >= 8,
    }
    for op, test in cases.items():
        expected = oracle(db, lambda c, test=test: diff(c) is not None and test(diff(c)))
        assert ids(db, f"difficulty{op}8") == expected, op
        assert ids(db, f"-difficulty{op}8") == oracle(
            db, lambda c, expected=expected: c.id not in expected
        ), op
    assert set(ids(db, "difficulty>=8")) == {"O1", "O3", "E1"}  # across both card types


def test_label_resolves_like_the_name(db):
    assert ids(db, "難度>=8") == ids(db, "difficulty>=8")
    assert ids(db, "特質:大戶") == ids(db, "traits:大戶") == ["O1"]


def test_list_contains_and_negation_includes_types_without_the_field(db):
    assert ids(db, "traits:弱勢") == ["O2"]  # whole element: 假弱勢 is not 弱勢
    assert ids(db, "-traits:大戶") == oracle(db, lambda c: "大戶" not in c.fields.get("traits", []))
    assert "E1" in ids(db, "-traits:大戶")
    assert ids(db, "traits!=大戶") == ["O2", "O3", "O4"]  # != needs the field


def test_issue_example(db):
    expected = oracle(
        db,
        lambda c: (
            c.type == "obligor" and (c.fields["difficulty"] or 0) >= 8 and "大戶" not in c.fields["traits"]
        ),
    )
    assert ids(db, "type:obligor difficulty>=8 -traits:大戶") == expected == ["O3"]


def test_chinese_substrings_and_bare_words(db):
    assert ids(db, "查封") == ["O1", "E1"]  # name of E1, rules text of O1
    assert ids(db, "name:查封") == ["E1"]
    assert ids(db, "text:財產") == ["E1"]
    assert ids(db, "epithet:騙") == ["O3"]
    assert ids(db, "epithet=騙") == []  # = is the whole value
    assert ids(db, "epithet=騙子") == ["O3"]
    assert ids(db, "tycoon") == ids(db, "name:TYCOON") == ["O1"]  # English name, any case


def test_like_wildcards_are_plain_characters(db):
    assert ids(db, "%") == ["O3"]
    assert ids(db, "_") == ["E2"]
    assert ids(db, '"them_leaving"') == ["E2"]


def test_quoted_phrase_keeps_spaces(db):
    assert ids(db, '"travel ban"') == ["E2"]
    assert ids(db, "travel ban") == ["E2"]
    assert ids(db, '"ban travel"') == []


def test_or_and_parentheses(db):
    assert ids(db, "category:稅 or category:罰") == ["O1", "O2"]
    assert ids(db, "(type:execution or category:稅) difficulty=8") == ["O1", "E1"]
    assert ids(db, "type:execution or category:稅 difficulty=8") == ["O1", "E1", "E2"]


def test_enum_boolean_and_attributes(db):
    assert ids(db, "category=費") == ["O3"]
    assert ids(db, "instant:yes") == ids(db, "即時:1") == ids(db, "is:instant") == ["E2"]
    assert ids(db, "instant:no") == ["E1"]
    assert ids(db, "-is:instant") == oracle(db, lambda c: c.fields.get("instant") is not True)
    assert ids(db, "id:o2") == ["O2"]
    assert ids(db, "type:義務人卡") == ids(db, "type:OBLIGOR") == ["O1", "O2", "O3", "O4"]
    assert ids(db, "copies>=2") == oracle(db, lambda c: c.copies >= 2)
    assert ids(db, "provenance:reference") == ["O3"]
    assert ids(db, "is:provisional") == oracle(db, lambda c: c.is_provisional) == ["O2", "O4"]
    assert ids(db, "has:difficulty") == ["O1", "O2", "O3", "E1"]  # O4's is null
    assert ids(db, "has:name_en") == oracle(db, lambda c: c.name_en != "")


def test_game_filter_across_games(db):
    assert [(c.game, c.id) for c in search(db, None, "id:O1")] == [("enforcer", "O1"), ("other", "O1")]
    assert [c.game for c in search(db, None, "game:other")] == ["other"]
    assert ids(db, "game:other") == []


def test_count_copies(db):
    assert count_copies(db, "enforcer", "obligor", "") == 1 + 2 + 1 + 3
    assert count_copies(db, "enforcer", "obligor", "difficulty>=8") == 2
    assert count_copies(db, "enforcer", None, "difficulty>=8") == 2 + 4
    assert count_copies(db, "enforcer", "execution", "traits:大戶") == 0


def test_field_with_different_types_across_card_types():
    defs = {"cost": [FieldDef("cost", "integer"), FieldDef("cost", "text")]}
    sql, params = compile_query("cost:3", defs)
    assert sql.count("json_extract") == 2 and params == ['$."cost"', 3, '$."cost"', "3"]
    sql, params = compile_query("cost:x", defs)  # integer side can't take 'x'
    assert params == ['$."cost"', "x"]


# ---- properties --------------------------------------------------------------------

QUERY_CHARS = st.sampled_from(list(' ()"-:=<>!or and 難度大戶 \tdifficultytraitsname'))


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(QUERY_CHARS, max_size=30), st.text(max_size=30)))
def test_random_text_raises_only_query_error(defs, text):
    try:
        compile_query(text, defs)
    except QueryError as err:
        assert err.position is None or 0 <= err.position <= len(text)


MARK = "Ω"  # appears in no SQL this compiler writes
VALUES = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters='"“”'), min_size=1, max_size=8
).map(lambda s: MARK + s)
TEMPLATES = [
    'name:"{}"',
    'text:"{}"',
    '"{}"',
    'traits:"{}"',
    'epithet="{}"',
    'epithet!="{}"',
    'name_en:"{}"',
    'id:"{}"',
    '-"{}"',
    'game:"{}"',
    '類別:"{}"',
]


@st.composite
def queries(draw, values=VALUES):
    """A random query over text-valued terms, with its values, joined by and/or/(...)."""
    terms = draw(st.lists(st.tuples(st.sampled_from(TEMPLATES), values), min_size=1, max_size=6))
    parts = [tpl.format(v) for tpl, v in terms]
    joiners = draw(
        st.lists(st.sampled_from([" ", " or ", " and "]), min_size=len(parts) - 1, max_size=len(parts) - 1)
    )
    text = parts[0] + "".join(j + p for j, p in zip(joiners, parts[1:], strict=False))
    if draw(st.booleans()):
        text = f"-({text}) difficulty>=3"
    return text, [v for _, v in terms]


def _enum_free(defs):
    """category is an enum: random values would be rejected, so search it as text here."""
    return {**defs, "category": [FieldDef("category", "text", label="類別")]}


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(queries(), st.data())
def test_sql_never_contains_user_literals(defs, query, data):
    text, values = query
    sql, params = compile_query(text, _enum_free(defs))
    for v in values:
        assert v not in sql and MARK not in sql
        assert v in params
    # The SQL depends on the query's shape only: other values, same SQL.
    others = data.draw(st.lists(VALUES, min_size=len(values), max_size=len(values)))
    swapped = text
    for old, new in zip(values, others, strict=False):
        swapped = swapped.replace(f'"{old}"', f'"{new}"', 1)
    assume(swapped.count('"') == text.count('"'))
    assert compile_query(swapped, _enum_free(defs))[0] == sql


def _matches(card, term: Term) -> bool:
    """Python meaning of the terms random_queries() draws, for comparing with SQLite."""
    field, v = term.field, term.value
    if field is None:
        return any(v.lower() in s.lower() for s in (card.name, card.name_en, card.text))
    if field == "name":
        return v.lower() in card.name.lower() or v.lower() in card.name_en.lower()
    if field == "traits":
        return v in card.fields.get("traits", [])
    value = card.fields.get("difficulty")
    ops = {
        ":": value == int(v) if value is not None else False,
        "!=": value is not None and value != int(v),
        "<": value is not None and value < int(v),
        ">=": value is not None and value >= int(v),
    }
    return ops[term.op]


def _evaluate(card, node) -> bool:
    if isinstance(node, Term):
        return _matches(card, node)
    if isinstance(node, Not):
        return not _evaluate(card, node.child)
    results = [_evaluate(card, c) for c in node.children]
    return all(results) if isinstance(node, And) else any(results)


ATOMS = st.one_of(
    st.sampled_from(["查封", "大", "tycoon", "Li", "騙", "ban", "%", "zz"]),
    st.sampled_from(TRAITS).map(lambda v: f"traits:{v}"),
    st.sampled_from(["王", "小", "Chen", "查封"]).map(lambda v: f"name:{v}"),
    st.tuples(st.sampled_from([":", "!=", "<", ">="]), st.integers(0, 11)).map(
        lambda p: f"difficulty{p[0]}{p[1]}"
    ),
)
EXPRS = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        inner.map(lambda e: f"-({e})"),
        st.tuples(inner, st.sampled_from([" ", " or ", " and "]), inner).map(
            lambda p: f"({p[0]}{p[1]}{p[2]})"
        ),
    ),
    max_leaves=8,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(EXPRS)
def test_sqlite_agrees_with_python(db, text):
    expected = [c.id for c in repo.list_cards(db, "enforcer") if _evaluate(c, parse(text).root)]
    assert ids(db, text) == expected


def test_no_user_text_reaches_sql_even_for_field_names(defs):
    sql, params = compile_query('難度>=8 name:"x\') OR 1=1 --"', defs)
    assert "OR 1=1" not in sql and re.search(r"'\$", sql) is None
    assert '$."difficulty"' in params
