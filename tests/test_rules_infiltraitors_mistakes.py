"""Infiltraitors (滲透因子): a designer's realistic mistakes, made on a copy of the shipped
database, must show — as an engine error naming the card, a failed sample game, a card
no game uses, or a mission no team wins."""

from __future__ import annotations

from collections import Counter

import pytest

from pnpforge.rules.check import CheckOptions, iter_plan
from pnpforge.rules.games.infiltraitors import make_rules
from pnpforge.rules.kit import DeckError, load_game
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import transaction
from test_rules_infiltraitors_helpers import copy_db

GAME = "infiltraitors"


def edit(db, card_id: str, **fields) -> None:
    card = repo.get_card(db, GAME, card_id)
    card.fields.update(fields)
    with transaction(db) as conn:
        repo.update_card(conn, card)


def sample(db, missions: list[str], games: int = 4):
    """Greedy teams, every player count: (completed results, cards used, wins per mission)."""
    used: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    failures = []
    for mission in missions:
        rules = make_rules(load_game(db, "infiltraitors"), {"mission": mission})
        for seed in range(games):
            players = 2 + seed % 4
            result = play_game(rules, players, seed, ["greedy"] * players)
            if not result.completed:
                failures.append((mission, result.failure))
                continue
            used.update(result.used)
            wins[mission] += bool(result.winners)
    return failures, used, wins


def test_a_default_check_run_uses_every_card_and_wins_every_mission(tmp_path):
    """The plan `pnp check infiltraitors` plays by default: 100 games, greedy teams, every mission."""
    _, db = copy_db(tmp_path)
    first = make_rules(load_game(db, "infiltraitors"), {})
    rules = {m: make_rules(load_game(db, "infiltraitors"), {"mission": m}) for m in first.scenarios()}
    used: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for game in iter_plan(first.info, list(first.scenarios()), CheckOptions()):
        result = play_game(rules[game.scenario], game.players, game.seed, list(game.agents))
        assert result.completed, (game, result.failure)
        assert set(game.agents) == {"greedy"}
        used.update(result.used)
        wins[game.scenario] += bool(result.winners)
    expected = {c.id for c in repo.list_cards(db, GAME) if c.copies > 0 and c.type in first.USED}
    assert len(expected) == 98 and expected <= set(used), sorted(expected - set(used))
    assert all(wins[m] for m in first.scenarios()), wins


def test_two_red_eights_and_no_red_seven_is_refused(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "R07", number=8, relates=["2", "4"])
    with pytest.raises(DeckError, match=r"suit 紅 has number 8 on 2 cards \(R07, R08\)"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M01"})


def test_a_number_moved_to_another_suit_is_refused(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "K07", suit="紅")  # 紅 now has two 7s, 黑 none
    with pytest.raises(DeckError, match=r"suit 紅 has number 7 on 2 cards"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M01"})


def test_a_wrong_printed_relation_names_the_card(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "B12", relates=["2", "3", "4", "6", "8"])
    with pytest.raises(DeckError, match=r"card B12: printed related numbers"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M01"})


def test_a_special_card_moved_to_another_suit_is_refused(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "SP-K", suit="紅")
    with pytest.raises(DeckError, match=r"suit 紅 has 2 special cards \(SP-R, SP-K\) instead of one"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M01"})


def test_a_suit_no_mission_uses_leaves_its_cards_never_used(tmp_path):
    _, db = copy_db(tmp_path)
    missions = [c for c in repo.list_cards(db, GAME, "mission") if "綠" in c.fields["suits"]]
    for card in missions:
        suits = [s for s in card.fields["suits"] if s != "綠"]
        edit(db, card.id, suits=suits, suit_count=len(suits))
    failures, used, _ = sample(db, ["M05", "M15"], games=2)
    assert not failures
    green = [c.id for c in repo.list_cards(db, GAME) if c.fields.get("suit") == "綠"]
    assert len(green) == 15 and not set(green) & set(used)
    assert {"R02", "B15"} & set(used)


def test_too_few_bullets_makes_the_mission_never_won(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "M05", bullets=4)  # 9 suspects
    failures, _, wins = sample(db, ["M05", "M01"])
    assert not failures and wins["M05"] == 0 and wins["M01"] > 0


def test_too_many_suspects_for_the_deck_fails_the_games(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "M01", suspects=60)
    failures, _, _ = sample(db, ["M01"], games=2)
    assert len(failures) == 2
    assert "mission M01: 2 agents need 70 cards" in failures[0][1]


def test_a_hand_limit_of_zero_names_the_mission(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "M09", hand_limit=0)
    with pytest.raises(DeckError, match=r"card M09: field 'hand_limit' is 0, below the minimum 1"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M09"})


def test_a_broken_mission_stops_the_engine_whichever_mission_is_played(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "M03", number_tiles=7)
    with pytest.raises(DeckError, match=r"card M03: 7 number tiles for 8 suspects"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M01"})


def test_a_mission_dealing_more_than_its_hand_limit_is_refused(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "M09", hand_size=5)
    with pytest.raises(DeckError, match=r"card M09: deals 5 cards, more than its hand limit 3"):
        make_rules(load_game(db, "infiltraitors"), {})


def test_a_mission_naming_a_suit_no_card_has_is_refused(tmp_path):
    _, db = copy_db(tmp_path)
    edit(db, "M01", suits=["紅", "黑", "黃", "紫"])
    with pytest.raises(DeckError, match=r"card M01: the mission uses suit 紫, which no card has"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M02"})
