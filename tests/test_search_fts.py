"""Word search through the FTS5 trigram index: relevance order, CJK substrings, index in step."""

from __future__ import annotations

from pathlib import Path

from pnpforge.api import Project


def _ids(project: Project, query: str, game: str | None = "mini") -> list[str]:
    return [c.id for c in project.search(query, game)]


def test_a_chinese_word_of_three_characters_finds_the_cards_holding_it(mini_db: Path) -> None:
    project = Project.open(mini_db)
    assert _ids(project, "抽一張") == ["H-01"]
    assert _ids(project, "火龍騎") == ["H-01"]  # a substring of a name, not a whole word


def test_a_word_shorter_than_a_trigram_still_matches_as_a_substring(mini_db: Path) -> None:
    project = Project.open(mini_db)
    assert _ids(project, "龍") == ["H-01"]
    assert _ids(project, "攻擊") == ["H-01", "S-01"]  # in deck order, as before


def test_a_match_in_the_name_ranks_above_one_in_the_rules_text(mini_db: Path) -> None:
    project = Project.open(mini_db)
    project.set_card("mini", "S-01", {"text": "目標的水之巫女本回合不能攻擊。"})
    # H-02 holds the words in its name, S-01 only in its text: relevance, not deck order
    assert _ids(project, "水之巫女") == ["H-02", "S-01"]
    assert _ids(project, "水之巫女 or 冰凍術")[0] in {"H-02", "S-01"}


def test_notes_are_searched_and_the_index_follows_every_edit(mini_db: Path) -> None:
    project = Project.open(mini_db)
    assert _ids(project, "playtest-note") == []
    project.set_card("mini", "H-02", {"notes": "playtest-note: too strong"})
    assert _ids(project, "playtest-note") == ["H-02"]
    project.set_card("mini", "H-02", {"notes": ""})
    assert _ids(project, "playtest-note") == []
    project.add_card("mini", "spell", "S-09", {"name": "烈焰風暴", "text": "全體攻擊。"})
    assert _ids(project, "烈焰風暴") == ["S-09"]
    project.remove_card("mini", "S-09")
    assert _ids(project, "烈焰風暴") == []


def test_words_under_a_negation_filter_without_ranking(mini_db: Path) -> None:
    project = Project.open(mini_db)
    assert _ids(project, "-抽一張") == ["H-02", "S-01"]
    assert _ids(project, '"火龍騎士" type:hero') == ["H-01"]


def test_fts_syntax_in_a_word_is_searched_literally(mini_db: Path) -> None:
    project = Project.open(mini_db)
    project.set_card("mini", "H-01", {"text": "Says roar* AND NEAR(loudly)"})
    assert _ids(project, '"roar* AND"') == ["H-01"]
    assert _ids(project, '"NEAR(loudly"') == ["H-01"]
    assert _ids(project, "roar*x") == []


def test_a_word_holding_a_nul_is_scanned_not_sent_to_the_index(mini_db: Path) -> None:
    project = Project.open(mini_db)
    assert isinstance(_ids(project, "000\x00"), list)  # an FTS5 query cannot carry NUL: never an error
