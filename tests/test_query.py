"""The card search language: parser, compiler, and results against a real database."""

from __future__ import annotations

import unicodedata

import pytest

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
from pnpforge.store import repo
from query_world import ids, make_db, oracle


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return make_db(tmp_path_factory.mktemp("q") / "t.db")


@pytest.fixture(scope="module")
def defs(db):
    return field_defs_of(repo.card_types(db, "enforcer"))


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
