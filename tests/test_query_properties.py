"""Properties of the card search language: random text never crashes the compiler, no user
text reaches the SQL, and SQLite agrees with a Python reading of random queries."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pnpforge.model import FieldDef
from pnpforge.query import And, Not, QueryError, Term, compile_query, field_defs_of, parse
from pnpforge.store import repo
from query_world import TRAITS, ids, make_db


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return make_db(tmp_path_factory.mktemp("q") / "t.db")


@pytest.fixture(scope="module")
def defs(db):
    return field_defs_of(repo.card_types(db, "enforcer"))


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
        assert v in params  # (a bare word also travels as its FTS phrase)
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
        return any(v.lower() in s.lower() for s in (card.name, card.name_en, card.text, card.notes))
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
    assert sorted(ids(db, text)) == sorted(expected)  # the order is relevance when words rank


def test_no_user_text_reaches_sql_even_for_field_names(defs):
    sql, params = compile_query('難度>=8 name:"x\') OR 1=1 --"', defs)
    assert "OR 1=1" not in sql and re.search(r"'\$", sql) is None
    assert '$."difficulty"' in params
