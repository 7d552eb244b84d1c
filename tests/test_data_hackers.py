"""League of Hackers data in the committed cards.db, checked against the rulebook.

Rulebook: seeds/002_183d6240ceadc125.txt (駭客聯盟).  Values the rulebook states are
compared one by one; everything else must be marked provisional.
"""

from __future__ import annotations

from pnpforge.store import repo
from pnpforge.validate.deck import composition

SLUG = "hackers"

# 卡片效果: number -> (printed English name, effect key, phase).  The list prints "II" for
# the two install effects; install is action I of the resolution order (see card notes).
EFFECTS = {
    1: ("Thin Provision", "thin_provision", "I"),
    2: ("Incident Response", "incident_response", "IV"),
    3: ("Solid State Cache", "solid_state_cache", "I"),
    4: ("Auto Recovery", "auto_recovery", "E"),
    5: ("Certification Audit", "certification_audit", "E"),
    6: ("Proof of Concept", "proof_of_concept", "III"),
    7: ("Trojan Horse", "trojan_horse", "III"),
    8: ("Underground Market", "underground_market", "III"),
    9: ("Zero-Day Attack", "zero_day_attack", "III"),
    10: ("Deep Security", "deep_security", "II"),
}


def test_game_row(db):
    g = repo.get_game(db, SLUG)
    assert (g.title, g.title_en, g.language) == ("駭客聯盟", "League of Hackers", "zh-Hant")
    assert (g.players_min, g.players_max) == (2, 4)
    assert "30" in g.play_time and "50" in g.play_time


def test_component_totals_match_the_rulebook(db, cards):
    """遊戲介紹: 40 defence, 24 attack, 26 server cards; 70 damage, 22 wooden tokens; boards."""
    by_type: dict[str, int] = {}
    for c in cards.values():
        by_type[c.type] = by_type.get(c.type, 0) + c.copies
    assert by_type == {"defence": 40, "attack": 24, "server": 26}
    results = {r.rule: r for r in composition(db, SLUG)}
    for rule, expected in (("defence", 40), ("attack", 24), ("server", 26)):
        assert results[rule].expected == expected and not results[rule].provisional
    assert all(r.ok for r in results.values()), [r.label for r in results.values() if not r.ok]
    comps = {c.slug: c for c in repo.components(db, SLUG)}
    for slug, count in (
        ("damage-token", 70),
        ("wooden-token", 22),
        ("defence-record-board", 4),
        ("player-aid-board", 4),
        ("score-board", 1),
    ):
        assert comps[slug].count == count and not comps[slug].provisional, slug
    assert comps["player-aid-board"].kind == "aid"
    # 遊戲準備: 4 cubes and 1 disc per player plus two markers make the 22 wooden tokens.
    parts = ("defence-cube", "score-disc", "round-marker", "action-marker")
    assert sum(comps[p].count for p in parts) == 22
    assert all(comps[f"action-board-{b}"].provisional for b in ("install", "defend", "attack", "repair"))


def test_defence_effects_value_by_value(cards):
    """卡片效果 D-01 … D-10: printed name, effect and phase on all four colours of a design."""
    for num, (name, effect, phase) in EFFECTS.items():
        design = [c for c in cards.values() if c.id.startswith(f"D-{num:02d}")]
        assert len(design) == 4
        for c in design:
            assert c.name_en.startswith(name) and c.name.startswith(name)
            assert c.fields["effect"] == effect and c.fields["phase"] == phase
            assert c.provenance == "rulebook" and c.source.startswith("卡片效果")


def test_cards_named_in_the_examples(cards):
    """The examples name D-07R, D-09Y (攻擊範例), D-05G, D-05B and S-10, S-14, S-22 (計分範例)."""
    for cid, colour in (("D-07R", "R"), ("D-09Y", "Y"), ("D-05G", "G"), ("D-05B", "B")):
        c = cards[cid]
        assert c.fields["colour"] == colour and not c.is_value_provisional("colour")
    assert cards["D-07R"].fields["effect"] == "trojan_horse"
    assert cards["D-09Y"].fields["effect"] == "zero_day_attack"
    # The green attack of the example must be boosted by both cards.
    assert "G" in cards["D-07R"].fields["effect_colours"]
    assert "G" in cards["D-09Y"].fields["effect_colours"]
    for sid in ("S-10", "S-14", "S-22"):
        assert cards[sid].provenance == "rulebook" and cards[sid].type == "server"
    # 計分範例: 2 + 2 (D-05) + 3 + 2 (clean bonuses of S-10, S-22) + 7 clean holes = 16.
    holes = sum(len(cards[s].fields["holes"]) for s in ("S-10", "S-14", "S-22")) - 1
    assert holes == 7
    assert cards["S-10"].fields["bonus"] + cards["S-22"].fields["bonus"] == 5


def test_deep_security_defends_one_in_every_colour(cards):
    """D-10: 這張卡片提供所有顏色的防禦力１."""
    for col in "RYGB":
        c = cards[f"D-10{col}"]
        assert c.fields["defence"] == 1 and not c.is_value_provisional("defence")


def test_server_levels_have_the_rulebook_hole_counts(cards):
    """Level 1 two holes, level 2 three, level 3 four (回合結束 5); every level exists."""
    servers = [c for c in cards.values() if c.type == "server"]
    assert {c.fields["level"] for c in servers} == {1, 2, 3}
    for c in servers:
        assert len(c.fields["holes"]) == c.fields["level"] + 1, c.id
        assert c.fields["cost"] >= 1, c.id


def test_no_provisional_value_behind_rulebook_provenance(cards):
    """On a rulebook card every value the rulebook does not give is listed as provisional."""
    attested = {"D-07R", "D-09Y", "D-05G", "D-05B"}
    for c in cards.values():
        if c.type == "attack":
            assert c.provenance == "provisional", c.id  # no attack values in the rulebook
            continue
        if c.provenance != "rulebook":
            assert c.provenance == "provisional"
            continue
        designed = {"copies", "text"} | {k for k, v in c.fields.items() if v != []}
        if c.type == "defence":
            designed -= {"phase", "effect", "text"}  # the effect text is the rulebook's (卡片效果)
            if c.fields["effect"] == "deep_security":
                designed.discard("defence")
            if c.id in attested:
                designed.discard("colour")
        missing = designed - set(c.provisional_fields)
        assert not missing, f"{c.id}: designed value(s) {sorted(missing)} not marked provisional"


def test_defence_text_is_the_rulebooks_effect_and_read_phases_are_marked(cards):
    """卡片效果 gives every defence effect (l.287-348): the text carries no designed colour prefix
    and is not provisional; D-01 and D-03 print II, so their phase I is our reading (provisional)."""
    for c in cards.values():
        if c.type != "defence":
            continue
        assert not c.text.startswith("["), c.id
        assert not c.is_value_provisional("text"), c.id
        read_phase = c.fields["effect"] in ("thin_provision", "solid_state_cache")
        assert c.is_value_provisional("phase") == read_phase, c.id


def test_server_text_agrees_with_its_hole_icons(cards):
    """The printed hole list matches the hole icons (S-14 once said 藍、紅 beside holes B, G)."""
    names = {"R": "紅", "Y": "黃", "G": "綠", "B": "藍"}
    for c in cards.values():
        if c.type == "server":
            holes = "、".join(names[h] for h in c.fields["holes"])
            assert f"漏洞：{holes}；" in c.text, c.id


def test_designed_sizes_and_counts_are_provisional(db):
    assert all(t.size_provisional for t in repo.card_types(db, SLUG))
    for rule in repo.composition(db, SLUG):
        if rule.parent:
            assert rule.provisional, rule.label


def test_rule_sections_and_glossary(db):
    kinds = {r.kind for r in repo.rule_sections(db, SLUG)}
    assert {"overview", "setup", "turn", "actions", "end", "scoring", "variants", "faq"} <= kinds
    terms = {g.term for g in repo.glossary(db, SLUG)}
    assert {"直接傷害", "漏洞", "虛擬玩家", "乾淨伺服器"} <= terms
