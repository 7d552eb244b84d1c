"""The engine kit: options, card-field readers, piles, player counts, events, observation purity."""

from __future__ import annotations

import copy
import pickle
from collections import Counter
from dataclasses import dataclass

import pytest

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.rules.engine import Observation, RuleViolation
from pnpforge.rules.kit import (
    EVENT_KINDS,
    CardInstance,
    DeckError,
    Event,
    EventLog,
    GameInfo,
    Option,
    Zones,
    bool_field,
    check_observation,
    check_players,
    conservation_error,
    enum_field,
    game_cards,
    game_info,
    int_field,
    list_field,
    load_game,
    observation_leak,
    option_args,
    parse_options,
    text_field,
)
from pnpforge.store.db import open_db

OPTIONS = (
    Option("rounds", int, 5, "rounds to play", min=1, max=9),
    Option("handicap", bool, False, "weaker first seat"),
    Option("mode", str, "duel", "table", choices=("duel", "team")),
)


# ---- options ---------------------------------------------------------------


def test_options_convert_cli_strings_and_fill_defaults():
    assert parse_options(OPTIONS, {"rounds": "3", "handicap": "true"}, game="hackers") == {
        "rounds": 3,
        "handicap": True,
        "mode": "duel",
    }
    assert parse_options(OPTIONS, {}, game="hackers") == {"rounds": 5, "handicap": False, "mode": "duel"}
    assert parse_options(OPTIONS, {"handicap": False, "rounds": 9}, game="g")["rounds"] == 9


@pytest.mark.parametrize(
    "given,fragment",
    [
        ({"rounds2": "1"}, "hackers: unknown option 'rounds2' (allowed: handicap, mode, rounds)"),
        ({"rounds": "three"}, "option 'rounds' got 'three' (allowed: an integer 1..9)"),
        ({"rounds": "0"}, "option 'rounds' is 0, below the minimum 1"),
        ({"rounds": 10}, "above the maximum 9"),
        ({"handicap": "maybe"}, "option 'handicap' got 'maybe' (allowed: true, false)"),
        ({"mode": "solo"}, "option 'mode' got 'solo' (allowed: duel, team)"),
    ],
)
def test_bad_options_name_the_game_and_what_is_allowed(given, fragment):
    with pytest.raises(PnpError) as err:
        parse_options(OPTIONS, given, game="hackers")
    assert fragment in str(err.value)


def test_engine_without_options_refuses_any():
    with pytest.raises(PnpError, match=r"unknown option 'x' \(allowed: none\)"):
        parse_options((), {"x": 1}, game="g")


def test_option_args_round_trip_through_parse():
    values = parse_options(OPTIONS, {"handicap": "yes", "mode": "team"}, game="g")
    args = option_args(values)
    given = dict(a.split("=", 1) for a in args[1::2])
    assert parse_options(OPTIONS, given, game="g") == values


# ---- fields ----------------------------------------------------------------


def card(**fields) -> Card:
    return Card(game="g", type="t", id="OB-12", name="n", copies=2, fields=fields)


def test_field_readers_return_typed_values():
    c = card(difficulty=8, epithet="騙子", traits=["矚目"], element="火", flying=True, raw_int="7", flag=0)
    assert int_field(c, "difficulty", min=0, max=30) == 8
    assert int_field(c, "raw_int") == 7
    assert int_field(c, "copies") == 2  # card attributes are readable too
    assert int_field(c, "missing", default=3) == 3
    assert text_field(c, "epithet") == "騙子"
    assert list_field(c, "traits") == ["矚目"] and list_field(c, "none", default=[]) == []
    assert enum_field(c, "element", {"火", "水"}) == "火"
    assert bool_field(c, "flying") is True and bool_field(c, "flag") is False


@pytest.mark.parametrize(
    "read,message",
    [
        (lambda c: int_field(c, "gone"), "card OB-12: field 'gone' is missing"),
        (
            lambda c: int_field(c, "difficulty", max=30),
            "card OB-12: field 'difficulty' is 40, above the maximum 30",
        ),
        (lambda c: int_field(c, "difficulty", min=50), "is 40, below the minimum 50"),
        (lambda c: int_field(c, "word"), "field 'word' must be an integer, got 'abc'"),
        (lambda c: int_field(c, "flag"), "field 'flag' must be an integer, got True"),
        (lambda c: text_field(c, "difficulty"), "field 'difficulty' must be text, got 40"),
        (lambda c: list_field(c, "word"), "field 'word' must be a list"),
        (lambda c: enum_field(c, "word", ["x", "y"]), "field 'word' is 'abc' (allowed: x, y)"),
        (lambda c: bool_field(c, "word"), "field 'word' must be true or false"),
        (lambda c: text_field(c, "empty"), "field 'empty' is missing"),
    ],
)
def test_field_readers_refuse_bad_data_naming_card_and_field(read, message):
    with pytest.raises(DeckError) as err:
        read(card(difficulty=40, word="abc", flag=True, empty=""))
    assert message in str(err.value)
    assert isinstance(err.value, PnpError)


# ---- zones -----------------------------------------------------------------

A, B, C = CardInstance("A"), CardInstance("B"), CardInstance("C", 1)


def test_zones_move_draw_and_report_every_card_once():
    z = Zones(["deck", "hand", "discard"])
    z.deal([A, B, C], "deck")
    assert z.draw("deck", "hand") == C  # index -1 is the top
    z.move(A, "deck", "discard")
    z.move(B, "deck", "discard", top=False)
    assert z.pile("discard") == (B, A) and z.where(B) == "discard" and z.count("deck") == 0
    z.move_all("discard", "hand")
    assert z.pile("hand") == (C, B, A)
    assert conservation_error(z.as_dict(), Counter([A, B, C])) is None


def test_zones_refuse_moves_of_absent_cards_and_double_deals():
    z = Zones(["deck", "hand"])
    z.deal([A], "deck")
    with pytest.raises(RuleViolation, match=r"card B#0 is not in 'deck' \(it is in 'no pile'\)"):
        z.move(B, "deck", "hand")
    z.move(A, "deck", "hand")
    with pytest.raises(RuleViolation, match="is not in 'deck' \\(it is in 'hand'\\)"):
        z.move(A, "deck", "hand")
    with pytest.raises(RuleViolation, match="dealt twice"):
        z.deal([A], "deck")
    with pytest.raises(RuleViolation, match="empty pile 'deck'"):
        z.draw("deck", "hand")
    with pytest.raises(RuleViolation, match="unknown pile 'void'"):
        z.count("void")


def test_zones_views_and_copies_are_independent():
    z = Zones(["deck", "hand"])
    z.deal([A, B], "deck")
    snapshot, listed, other = z.pile("deck"), z.as_dict(), z.copy()
    listed["deck"].clear()
    other.draw("deck", "hand")
    assert z.pile("deck") == snapshot == (A, B) and isinstance(snapshot, tuple)
    assert other.pile("hand") == (B,) and z.count("hand") == 0


def test_card_instances_are_interned_immutable_values():
    same = CardInstance("C", 1)
    assert same is C and same == C and hash(same) == hash(C) and CardInstance("C", 2) != C
    assert copy.copy(C) is C and copy.deepcopy([C])[0] is C and pickle.loads(pickle.dumps(C)) is C
    assert sorted([C, B, A, CardInstance("A", 1)]) == [A, CardInstance("A", 1), B, C]
    assert str(C) == "C#1" and repr(C) == "CardInstance(card='C', copy=1)"
    assert C != ("C", 1) and {A: 1}.get(CardInstance("A")) == 1
    with pytest.raises(AttributeError, match="immutable"):
        C.copy = 3


def test_zones_move_any_position_keeps_the_order_of_the_others():
    cards = [CardInstance("M", i) for i in range(5)]
    z = Zones(["deck", "out"])
    z.deal(cards, "deck")
    z.move(cards[2], "deck", "out")  # from the middle
    z.move(cards[0], "deck", "out")  # the bottom
    z.move(cards[4], "deck", "out", top=False)  # the top, onto the bottom of "out"
    assert z.pile("deck") == (cards[1], cards[3]) and z.pile("out") == (cards[4], cards[2], cards[0])
    assert conservation_error(z.as_dict(), Counter(cards)) is None


def test_zones_cached_ids_and_texts_follow_every_kind_of_change():
    z = Zones(["deck", "hand", "discard"])
    z.deal([A, B], "deck")
    assert z.ids("deck") == ("A", "B") and z.texts("deck") == ("A#0", "B#0") and z.ids("hand") == ()
    z.draw("deck", "hand")
    assert z.ids("deck") == ("A",) and z.ids("hand") == ("B",) and z.texts("hand") == ("B#0",)
    z.move(A, "deck", "hand")
    assert z.ids("deck") == () and z.ids("hand") == ("B", "A")
    z.shuffle_order("hand", [1, 0])
    assert z.ids("hand") == ("A", "B") and z.texts("hand") == ("A#0", "B#0")
    z.move_all("hand", "discard")
    assert z.ids("hand") == () and z.ids("discard") == ("A", "B")
    z.deal([C], "hand")
    assert z.texts("hand") == ("C#1",)
    assert z.view("discard") == [A, B] and z.all_views()["hand"] == [C]


def test_counted_piles_keep_per_id_counts_through_every_move():
    twins = [CardInstance("T", 0), CardInstance("T", 1), CardInstance("U", 0)]
    z = Zones(["deck", "hand", "discard"], counted=["deck", "discard"])
    z.deal(twins, "deck")
    assert z.id_counts("deck") == Counter({"T": 2, "U": 1})
    z.draw("deck", "hand")  # U
    z.move(twins[0], "deck", "discard")
    assert z.id_counts("deck") == Counter({"T": 1}) and "U" not in z.id_counts("deck")
    z.move_all("hand", "discard")
    assert z.id_counts("discard") == Counter({"T": 1, "U": 1})
    z.move_all("discard", "deck")
    assert z.id_counts("deck") == Counter({"T": 2, "U": 1}) and not z.id_counts("discard")
    assert z.copy().id_counts("deck") == z.id_counts("deck")
    with pytest.raises(RuleViolation, match="pile 'hand' is not counted"):
        z.id_counts("hand")


def _slots_match(z: Zones, name: str) -> bool:
    """An unordered pile's index of its cards agrees with the pile itself."""
    return z._slots[name] == {card: index for index, card in enumerate(z.view(name))}


def test_unordered_piles_lose_a_middle_card_in_place_and_keep_every_card():
    cards = [CardInstance("W", n) for n in range(6)]
    z = Zones(["deck", "hand", "discard"], counted=["deck"], unordered=["deck"])
    z.deal(cards, "deck")
    z.move(cards[2], "deck", "hand")
    assert z.view("deck") == [cards[0], cards[1], cards[5], cards[3], cards[4]]  # the last took its place
    assert _slots_match(z, "deck") and z.where(cards[5]) == "deck"
    z.move(cards[5], "deck", "discard")
    z.move(cards[4], "deck", "discard")  # the last card itself
    assert sorted(z.view("deck")) == [cards[0], cards[1], cards[3]] and _slots_match(z, "deck")
    z.move(cards[2], "hand", "deck", top=False)  # joins it: an unordered pile has no bottom
    z.move_all("discard", "deck")
    assert sorted(z.view("deck")) == [cards[0], cards[1], cards[2], cards[3], cards[4], cards[5]]
    assert _slots_match(z, "deck") and z.id_counts("deck") == Counter({"W": 6})
    z.shuffle_order("deck", [5, 4, 3, 2, 1, 0])
    assert _slots_match(z, "deck")
    twin = z.copy()
    twin.move(cards[0], "deck", "hand")
    assert _slots_match(twin, "deck") and _slots_match(z, "deck") and z.where(cards[0]) == "deck"
    z.move_all("deck", "discard")
    assert z._slots["deck"] == {} and len(z.view("discard")) == 6
    with pytest.raises(RuleViolation, match="card W#0 is not in 'deck'"):
        z.move(cards[0], "deck", "hand")


def test_unordered_piles_have_no_top_to_draw():
    z = Zones(["deck", "hand"], unordered=["deck"])
    z.deal([A, B], "deck")
    with pytest.raises(RuleViolation, match="pile 'deck' is unordered: it has no top card to draw"):
        z.draw("deck", "hand")
    with pytest.raises(RuleViolation, match="pile 'deck' is unordered: it has no top card"):
        z.top("deck")
    z.move(A, "deck", "hand")
    z.draw("hand", "deck")  # drawing onto one is fine
    assert _slots_match(z, "deck") and sorted(z.view("deck")) == [A, B]


def test_copies_by_id_is_the_live_mapping_of_a_counted_pile():
    twins = [CardInstance("T", 0), CardInstance("T", 1), CardInstance("U", 0)]
    z = Zones(["deck", "hand"], counted=["deck"], unordered=["deck"])
    z.deal(twins, "deck")
    by_id = z.copies_by_id("deck")
    assert list(by_id["T"]) == twins[:2] and list(by_id["U"]) == [twins[2]]
    z.move(twins[0], "deck", "hand")
    assert list(by_id["T"]) == [twins[1]]  # the same mapping, kept up to date by the move
    z.move_all("deck", "hand")
    assert not any(by_id.values()) and z.copies_by_id("deck") is by_id
    with pytest.raises(RuleViolation, match="pile 'hand' is not counted"):
        z.copies_by_id("hand")


def test_conservation_names_missing_and_duplicated_cards():
    problem = conservation_error({"a": [A, A], "b": []}, Counter([A, B]))
    assert problem is not None and "missing ['B#0']" in problem and "duplicated ['A#0']" in problem


# ---- players ---------------------------------------------------------------


def test_player_counts_come_from_the_games_table(mini_db):
    game = load_game(open_db(mini_db), "mini")
    spells = game_cards(game, card_type="spell")
    assert spells and {card.type for card in spells} == {"spell"}
    assert {card.type for card in game_cards(game)} == {"hero", "spell"}
    info = game_info(game, max_steps=50, cooperative=True)
    assert (info.players_min, info.players_max, info.max_steps, info.cooperative) == (2, 4, 50, True)
    check_players(info, 4)
    with pytest.raises(PnpError, match="^mini is for 2–4 players, got 5$"):
        check_players(info, 5)
    with pytest.raises(PnpError, match="^solo is for 1 players, got 2$"):
        check_players(GameInfo("solo", 1, 1, 10), 2)


# ---- events ----------------------------------------------------------------


def test_event_log_records_the_standard_kinds():
    class Log(EventLog):
        pass

    log = Log()
    log.used(0, "OB-12", "executes OB-12")
    log.outcome(1, "attack fails: 3 damage", "AT-01")
    log.score(0, 7, "OB-12 executed", "OB-12")
    log.eliminated(1, "no cards left")
    log.round("round 1 scored")
    log.end("deck exhausted")
    log.faction(0, "red cult")
    assert [e.kind for e in log.events] == list(EVENT_KINDS)
    assert log.events[2] == Event("score", 0, "OB-12", "OB-12 executed", 7.0)
    assert log.events[2].describe() == "score: seat 0 OB-12 executed (+7)"
    assert log.events[6].describe() == "seat 0 plays as red cult"
    log.events = []
    assert Log().events == [] and log.events == []


# ---- observation purity ----------------------------------------------------


@dataclass(frozen=True)
class GoodObs(Observation):
    hand: tuple[CardInstance, ...]
    seen: frozenset[str]
    note: str | None = None


@dataclass(frozen=True)
class BadObs(Observation):
    stuff: object


@dataclass
class Mutable:
    x: int


def test_pure_observation_passes():
    obs = GoodObs(1, (A, B), frozenset({"x"}))
    assert observation_leak(obs) is None
    check_observation(obs, 1)


@pytest.mark.parametrize(
    "stuff,where",
    [
        ([1, 2], "observation.stuff is a list"),
        ((1, {"a": 1}), "observation.stuff[1] is a dict"),
        (Zones(["deck"]), "observation.stuff is a Zones"),
        (Mutable(1), "observation.stuff is a mutable Mutable"),
        ((GoodObs(0, (), frozenset()), {1}), "observation.stuff[1] is a set"),
        (frozenset({(1, (2, Zones(["deck"])))}), "observation.stuff{…}[1][1] is a Zones"),
        (
            (GoodObs(0, ((1, 2), bytearray(b"x")), frozenset()),),  # type: ignore[arg-type]
            "observation.stuff[0].hand[1] is a bytearray",
        ),
    ],
)
def test_observation_leaking_a_mutable_object_fails(stuff, where):
    leak = observation_leak(BadObs(0, stuff))
    assert leak is not None and leak.startswith(where)
    with pytest.raises(RuleViolation, match="observation of seat 0 leaks"):
        check_observation(BadObs(0, stuff), 0)


def test_observation_of_another_seat_fails():
    with pytest.raises(RuleViolation, match="says it is seat 1's"):
        check_observation(GoodObs(1, (), frozenset()), 0)
