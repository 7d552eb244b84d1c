"""Mutation benchmark of the rules checker: does `pnp check GAME --strict` catch a designer's mistakes?

Run:  python bench/bench_mutations.py [--db cards.db] [--games N] [--static] [--only ID,…] [--json]

Each mutation is a realistic mistake (a copy removed or added, a printed value
changed, a suit or number swapped, a card made unusable, a mission made
unwinnable, a value written around the editor with raw SQL …) or a legal
design change of a provisional value.  For each one the database is copied,
the change is applied the way a designer would make it (`pnp cards set/add/rm`,
or raw SQL through sqlite3 for the "around the editor" ones), and
`pnp check GAME --strict` runs as a subprocess.  A mistake counts as caught
when the check exits non-zero, or when the editor already refused the edit
(nothing reached the database).  A legal change must pass.  The script also
records which half found it: the static findings (invalid cards, composition,
constraints, rulebook edition) or only the sample games.

`--static` skips the subprocess and asks only the static findings (seconds,
not minutes).  The baseline — the unmutated database passing the same check —
is measured first; a failing baseline makes every result meaningless, so the
script stops there.  Targets: ≥ 95 % of mistakes caught, no legal change failed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MISTAKE, LEGAL = "mistake", "legal"


@dataclass(frozen=True)
class Mutation:
    """One change to a deck: how to make it, and whether a correct checker must object."""

    id: str
    game: str
    kind: str  # MISTAKE or LEGAL
    what: str
    steps: tuple[tuple, ...]  # ("pnp", args…) or ("sql", statement)


def pnp(*args: str) -> tuple:
    return ("pnp", *args)


def sql(statement: str) -> tuple:
    return ("sql", statement)


def setf(game: str, card: str, **values: object) -> tuple:
    """`pnp cards set GAME CARD key=value …`."""
    return pnp("cards", "set", game, card, *(f"{k}={v}" for k, v in values.items()))


def rawf(game: str, card: str, field: str, value: object) -> tuple:
    """A field written around the editor (another SQLite tool)."""
    literal = json.dumps(value, ensure_ascii=False)
    return sql(
        f"UPDATE cards SET fields = json_set(fields, '$.{field}', json('{literal}')) "
        f"WHERE game = '{game}' AND id = '{card}'"
    )


def M(mid: str, game: str, what: str, *steps: tuple, kind: str = MISTAKE) -> Mutation:
    return Mutation(mid, game, kind, what, steps)


E, D, H, IN, A = "enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"
# printed texts the text-rule mutations rewrite (as shipped)
_INSPECT_ONE = (
    "选择 1 位其他玩家，从其手中随机抽 2 张货币卡检查：有黑钱符号的收入你手中，"
    "并让该玩家把 1 张弃卡放入黑名单；其余退还。"
)
_ATTACK_TEXT = "[{colour}] 支付1：攻擊力3；支付2：攻擊力5；支付3：攻擊力7；支付4：攻擊力{top}"

MUTATIONS: list[Mutation] = [
    # ---- 王牌執行官 -------------------------------------------------------------
    M("enf-copy-removed", E, "one 傳繳通知 fewer (55 → 54)", setf(E, "EX-notice", copies=4)),
    M("enf-copy-added", E, "a second 劣質魚羹大盤商", setf(E, "OB-01", copies=2)),
    M("enf-difficulty", E, "惡質航運業者 難度 8 → 9", setf(E, "OB-12", difficulty=9)),
    M("enf-score", E, "吸金財團董事長 分 15 → 12", setf(E, "OB-06", score=12)),
    M("enf-raw-difficulty", E, "投機中小企業 難度 5 → 6 with raw SQL", rawf(E, "OB-03", "difficulty", 6)),
    M("enf-objection-value", E, "程序瑕疵 +2 → +3", setf(E, "OBJ-flaw", effect_value=3)),
    M(
        "enf-category-swap",
        E,
        "劣質魚羹大盤商 稅 → 健 (section counts unchanged)",
        setf(E, "OB-01", category="健"),
    ),
    M("enf-weakness-dropped", E, "小氣大地主 loses its 弱點", setf(E, "OB-02", weakness="")),
    M(
        "enf-raw-dangling-weakness",
        E,
        "a 弱點 naming no card (raw SQL)",
        rawf(E, "OB-13", "weakness", "EX-nope"),
    ),
    M("enf-raw-score-limit", E, "a score past the field's limits (raw SQL)", rawf(E, "OB-14", "score", 99)),
    M("enf-desk-bonus", E, "財稅專股 +1 → +2", setf(E, "OF-tax", effect_value=2)),
    M(
        "enf-specialty-power",
        E,
        "拍賣 specialty power 2 → 3 (unlike the card it copies)",
        setf(E, "SP-auction", power=3),
    ),
    M("enf-obligor-removed", E, "黑心油商 deleted", pnp("cards", "rm", E, "OB-28", "--yes")),
    M(
        "enf-extra-obligor",
        E,
        "a 29th obligor added",
        pnp(
            "cards",
            "add",
            E,
            "obligor",
            "OB-29",
            "name=新義務人",
            "category=稅",
            "score=3",
            "difficulty=3",
            "section=稅",
        ),
    ),
    M("enf-blitz-unusable", E, "霹靂執行 costs 9 discards", setf(E, "EX-blitz", effect_value=9)),
    M(
        "enf-raw-copies-text",
        E,
        "查調財產 copies 'abc' (raw SQL)",
        sql("UPDATE cards SET copies = 'abc' WHERE game = 'enforcer' AND id = 'EX-probe'"),
    ),
    M(
        "enf-objections-without-trait",
        E,
        "ETC欠費者 objects twice without the trait",
        setf(E, "OB-19", objections=2),
    ),
    # ---- 洗钱 -------------------------------------------------------------------
    M("dm-villain-order-dup", D, "two villains with order 1 (raw SQL)", rawf(D, "V2", "order", 1)),
    M("dm-villain-order-set", D, "贪污鼠 order 2 → 3 (two villains share 3)", setf(D, "V2", order=3)),
    M("dm-fox-value", D, "黑道狐 crypto $5 → $4", setf(D, "V3", effect_value=4)),
    M("dm-black-market-players", D, "黑市 from 4 → 3 players", setf(D, "LOC-BM", min_players=3)),
    M("dm-market-currency", D, "欧洲 sells for USD", setf(D, "LOC-EU", currency="USD")),
    M(
        "dm-raw-crypto",
        D,
        "a crypto card worth 4 (raw SQL)",
        sql(
            "UPDATE cards SET fields = json_set(fields, '$.value', 4) WHERE game = 'dirty-money' AND id IN "
            "(SELECT id FROM cards WHERE game = 'dirty-money' "
            "AND json_extract(fields, '$.currency') = 'CRYPTO' LIMIT 1)"
        ),
    ),
    M("dm-art-sets", D, "艺术品 set scores end at 21", setf(D, "EU-ART-1", set_scores="2,5,9,14,21")),
    M("dm-casino-value", D, "a casino scores 2 per card", setf(D, "EU-CAS-1", effect_value=2)),
    M(
        "dm-currency-copy-removed",
        D,
        "one currency card fewer",
        sql(
            "UPDATE cards SET copies = copies - 1 WHERE game = 'dirty-money' AND type = 'currency' AND id IN "
            "(SELECT id FROM cards WHERE game = 'dirty-money' AND type = 'currency' LIMIT 1)"
        ),
    ),
    M("dm-action-copy-added", D, "a 7th 交易 card", setf(D, "ACT-TRD", copies=7)),
    M("dm-bribe-amount", D, "贿赂 discards 2", setf(D, "ACT-BRB", amount=2)),
    M("dm-auction-removed", D, "拍卖行 deleted", pnp("cards", "rm", D, "LOC-AH", "--yes")),
    M("dm-region-swap", D, "an European art piece moved to Japan", setf(D, "EU-ART-1", region="日本")),
    M("dm-raw-negative-cost", D, "a placement cost of -1 (raw SQL)", rawf(D, "JP-ART-1", "cost", -1)),
    M("dm-remittance", D, "汇款公司 scores 2 per set", setf(D, "US-REM-1", effect_value=2)),
    # ---- 駭客聯盟 ---------------------------------------------------------------
    M("hk-level1-three-holes", H, "a level-1 server with three holes", setf(H, "S-01", holes="R,Y,G")),
    M("hk-level2-two-holes", H, "a level-2 server with two holes", setf(H, "S-15", holes="R,Y")),
    M("hk-raw-free-server", H, "a server costing 0 (raw SQL)", rawf(H, "S-02", "cost", 0)),
    M("hk-deep-security", H, "D-10R defends 2", setf(H, "D-10R", defence=2)),
    M("hk-phase", H, "D-01R acts in phase II", setf(H, "D-01R", phase="II")),
    M(
        "hk-trojan-colours",
        H,
        "D-07R no longer marks green (the attack example fails)",
        setf(H, "D-07R", effect_colours="R,Y"),
    ),
    M("hk-defence-removed", H, "D-05B removed (copies 0)", setf(H, "D-05B", copies=0)),
    M("hk-attack-added", H, "a second A-01", setf(H, "A-01", copies=2)),
    M("hk-colour-swap", H, "D-03R turned yellow", setf(H, "D-03R", colour="Y")),
    M("hk-example-attack", H, "the green direct-damage card does 5 at cost 2", setf(H, "A-11", direct_2=5)),
    M(
        "hk-example-server",
        H,
        "S-22 deleted (the scoring example's server)",
        pnp("cards", "rm", H, "S-22", "--yes"),
    ),
    M("hk-raw-level", H, "a level-4 server (raw SQL)", rawf(H, "S-03", "level", 4)),
    M("hk-server-unwinnable", H, "a level-3 server with one hole", setf(H, "S-23", holes="R")),
    # ---- 滲透因子 ---------------------------------------------------------------
    M("inf-two-red-8", IN, "two 紅8 and no 紅7", setf(IN, "R07", number=8)),
    M("inf-raw-two-red-8", IN, "two 紅8 and no 紅7 (raw SQL)", rawf(IN, "R07", "number", 8)),
    M(
        "inf-suit-swap",
        IN,
        "紅7 and 黑7 swap suits (counts right)",
        rawf(IN, "R07", "suit", "黑"),
        rawf(IN, "K07", "suit", "紅"),
    ),
    M(
        "inf-number-swap",
        IN,
        "紅7 ↔ 黑8 numbers swapped (counts right)",
        rawf(IN, "R07", "number", 8),
        rawf(IN, "K08", "number", 7),
    ),
    M("inf-relates", IN, "紅11 lists 2 as related", setf(IN, "R11", relates="2")),
    M("inf-m05-bullets", IN, "任務五 with 8 bullets for 9 suspects", setf(IN, "M05", bullets=8)),
    M("inf-m12-bullets", IN, "任務十二 with 5 bullets for 6 suspects", setf(IN, "M12", bullets=5)),
    M("inf-raw-m07-bullets", IN, "任務七 with 3 bullets (raw SQL)", rawf(IN, "M07", "bullets", 3)),
    M("inf-m03-tiles", IN, "任務三 uses 7 number tiles", setf(IN, "M03", number_tiles=7)),
    M("inf-m09-hand", IN, "任務九 deals 5 cards", setf(IN, "M09", hand_size=5)),
    M("inf-special-suit", IN, "紅色特別牌 turned black", setf(IN, "SP-R", suit="黑")),
    M("inf-card-removed", IN, "紅15 deleted", pnp("cards", "rm", IN, "R15", "--yes")),
    M("inf-copy-added", IN, "two 黑2", setf(IN, "K02", copies=2)),
    M("inf-mission-no", IN, "任務二十 numbered 19", setf(IN, "M20", mission_no=19)),
    M("inf-m01-suits", IN, "任務一 lists 3 suits but says 4", setf(IN, "M01", suits="紅,黑,黃")),
    M("inf-t1-range", IN, "訓練任務 #1 uses 2–15", setf(IN, "T1", number_max=15)),
    M(
        "inf-t2-per-agent",
        IN,
        "訓練任務 #2 bullets no longer per agent",
        setf(IN, "T2", bullets_per_agent="false"),
    ),
    M("inf-m20-suspects", IN, "任務二十 with 13 suspects (12 bullets)", setf(IN, "M20", suspects=11 + 2)),
    # ---- 控訴 -------------------------------------------------------------------
    M("acc-volume", A, "鴉仕女 聲量 4 → 5", setf(A, "cro05", volume=5)),
    M("acc-raw-calamity", A, "狐嫁夜 災厄 3 → 1 (raw SQL)", rawf(A, "fox02", "calamity", 1)),
    M("acc-follower-removed", A, "鴉雛 deleted", pnp("cards", "rm", A, "cro14", "--yes")),
    M("acc-copy-added", A, "two 信使", setf(A, "cro07", copies=2)),
    M("acc-cult-swap", A, "迷路的亡魂 joins 白狐神社", setf(A, "cro10", cult="白狐神社")),
    M("acc-other-box", A, "狂亂質詢 shuffled into the base box", setf(A, "ext01", copies=1)),
    M("acc-guard", A, "鐘塔 守護 5 → 2", setf(A, "cro17", guard=2)),
    M("acc-stardust", A, "狐火 星塵 3 → 5", setf(A, "fox21", stardust=5)),
    M("acc-location-type", A, "神巫之間 becomes a 橋", setf(A, "fox15", location_type="橋")),
    M("acc-raw-volume-text", A, "聲量 'x' (raw SQL)", rawf(A, "cro06", "volume", "x")),
    M("acc-symbols", A, "狐渡 gains a symbol", setf(A, "fox13", symbols="野性,自然")),
    M("acc-ritual-removed", A, "a 鴉教團 ritual deleted", pnp("cards", "rm", A, "cro03", "--yes")),
    # ---- design mistakes in provisional values: only the sample games can see these ----------
    M("dm-art-priced-out", D, "an art piece costs 20: no one can ever buy it", setf(D, "US-ART-4", cost=20)),
    M(
        "enf-luxury-unusable",
        E,
        "查封精品 only against 難度 20 or more: no obligor qualifies",
        setf(E, "EX-seize-luxury", effect_value=20),
    ),
    M("hk-defence-priced-out", H, "D-05R costs 9: no one can ever afford it", setf(H, "D-05R", cost=9)),
    # ---- legal design changes of provisional values -------------------------------
    M("enf-legal-instalment", E, "分期繳納 power 2 → 3", setf(E, "EX-instalment", power=3), kind=LEGAL),
    M(
        "enf-legal-ob23",
        E,
        "不良回收業者 難度 6 → 7 (provisional)",
        setf(E, "OB-23", difficulty=7),
        kind=LEGAL,
    ),
    M("enf-legal-vehicle", E, "查封車輛 power 3 → 4", setf(E, "EX-seize-vehicle", power=4), kind=LEGAL),
    M(
        "enf-legal-gold",
        E,
        "金牌執行官 hand limit 8 → 7, its text too",
        setf(E, "OF-gold", effect_value=7, text="回合結束時手牌上限為7張（而非6張）。"),
        kind=LEGAL,
    ),
    M("dm-legal-art-cost", D, "an art piece costs 4", setf(D, "EU-ART-1", cost=4), kind=LEGAL),
    M("dm-legal-points", D, "a casino prints 3 points", setf(D, "US-CAS-1", points=3), kind=LEGAL),
    M(
        "dm-legal-inspect",
        D,
        "检查：任一玩家 checks 1 card, its text too",
        setf(D, "ACT-INS-ONE", amount=1, text=_INSPECT_ONE.replace("抽 2 张", "抽 1 张")),
        kind=LEGAL,
    ),
    M("hk-legal-bonus", H, "S-01 bonus 1 → 2", setf(H, "S-01", bonus=2), kind=LEGAL),
    M(
        "hk-legal-attack",
        H,
        "A-01 strongest attack 9 → 10, its text too",
        setf(H, "A-01", attack_4=10, text=_ATTACK_TEXT.format(colour="紅", top=10)),
        kind=LEGAL,
    ),
    M("hk-legal-cost", H, "D-01R costs 2", setf(H, "D-01R", cost=2), kind=LEGAL),
    M("hk-legal-holes", H, "S-02 holes R,G → R,B", setf(H, "S-02", holes="R,B"), kind=LEGAL),
    M(
        "inf-legal-suits",
        IN,
        "任務一 uses 綠 instead of 藍",
        setf(IN, "M01", suits="紅,黑,黃,綠"),
        kind=LEGAL,
    ),
    M(
        "acc-legal-text",
        A,
        "鴉仕女's effect text reworded",
        setf(A, "cro05", text="詠頌：敵方棄置1張手牌。"),
        kind=LEGAL,
    ),
    M(
        "acc-legal-effect",
        A,
        "鴉司祭 draws instead of searching",
        setf(A, "cro06", effect="chant: draw 1"),
        kind=LEGAL,
    ),
    # ---- printed text against fields (text rules), worked examples, consistency ----------
    M(
        "txt-enf-trait-dropped",
        E,
        "逃稅知名藝人 loses 矚目; its text still says 矚目",
        setf(E, "OB-04", traits=""),
    ),
    M(
        "txt-enf-weakness-moved",
        E,
        "小氣大地主's 弱點 now 查封精品; its text still says 查封土地",
        setf(E, "OB-02", weakness="EX-seize-luxury"),
    ),
    M(
        "txt-enf-desk-text",
        E,
        "費用專股 text promises +2 (value still 1)",
        setf(E, "OF-fee", text="對費用類義務人執行時額外獲得2點執行力。"),
    ),
    M(
        "txt-dm-dirty-unmarked",
        D,
        "a clean €1 note made dirty; no 黑钱 on its face",
        setf(D, "EUR-1", dirty=1),
    ),
    M(
        "txt-dm-shark-text",
        D,
        "高利贷白鲨's text says $3 (value 2)",
        setf(D, "V5", text="你可以把任何 1 张货币卡当作任何货币的 $3 使用。每回合限一次。"),
    ),
    M(
        "txt-hk-attack-value",
        H,
        "A-05 pays 3 for attack 8; its text still says 7",
        setf(H, "A-05", attack_3=8),
    ),
    M(
        "txt-hk-raw-server-text",
        H,
        "S-03's text rewritten around the editor (漏洞 紅、黃; holes R, B)",
        sql(
            "UPDATE cards SET text = '第1級；漏洞：紅、黃；費用1；乾淨時獎勵1勝利點數' "
            "WHERE game = 'hackers' AND id = 'S-03'"
        ),
    ),
    M(
        "txt-acc-ritual",
        A,
        "a 鴉教團 ritual needs 3 夜幕 + 1 知識; its text still says 4 夜幕",
        setf(A, "cro03", requirements="夜幕,夜幕,夜幕,知識"),
    ),
    M(
        "ex-dm-restaurant",
        D,
        "札幌餐厅连锁店 prints 2 points (the restaurant example no longer adds up to 5)",
        setf(D, "JP-RES-1", points=2),
    ),
    M(
        "ex-hk-green-room",
        H,
        "D-09Y marks Y, R instead of Y, G (designed; the attack example loses its +2 direct)",
        setf(H, "D-09Y", effect_colours="Y,R"),
    ),
    M(
        "con-hk-attack-table",
        H,
        "A-03 pays 3 for attack 4 (less than for 2), text updated",
        setf(
            H, "A-03", attack_3=4, text="[黃] 支付1：攻擊力3；支付2：攻擊力5；支付3：攻擊力4；支付4：攻擊力9"
        ),
    ),
    M(
        "con-enf-same-ability",
        E,
        "談判達人 given 關懷達人's ability (condition 弱勢), text updated",
        setf(E, "OF-negotiate", condition="弱勢", text="對弱勢義務人執行成功時抽2張牌。"),
    ),
    M(
        "con-enf-gold-base",
        E,
        "金牌執行官's hand limit 6, the base rule (it does nothing), text updated",
        setf(E, "OF-gold", effect_value=6, text="回合結束時手牌上限為6張（而非6張）。"),
    ),
    M("con-hk-trojan-repeat", H, "D-07Y marks Y twice", setf(H, "D-07Y", effect_colours="Y,Y")),
    M(
        "con-acc-ritual-same",
        A,
        "two 鴉教團 rituals with the same requirements, text updated",
        setf(A, "cro04", requirements="凋零,凋零,凋零,禁忌,禁忌", text="執行條件：3個凋零、2個禁忌。"),
    ),
    M("con-inf-suits-repeat", IN, "任務一 lists 黃 twice", setf(IN, "M01", suits="紅,黑,黃,黃")),
    M(
        "con-enf-rookie-track",
        E,
        "the rookie's penalty track gives back points",
        setf(E, "PEN", rookie_track="0 -1 -3 -1 -10 X"),
    ),
    M(
        "txt-legal-attack-table",
        H,
        "A-03 strongest attack 9 → 10, text updated",
        setf(H, "A-03", attack_4=10, text=_ATTACK_TEXT.format(colour="黃", top=10)),
        kind=LEGAL,
    ),
    M(
        "txt-legal-negotiate",
        E,
        "談判達人 draws 3, text updated",
        setf(E, "OF-negotiate", effect_value=3, text="對具有聲明異議特性的義務人執行成功時抽3張牌。"),
        kind=LEGAL,
    ),
    M(
        "txt-legal-server-bonus",
        H,
        "S-05 bonus 1 → 2 (its text is generated)",
        setf(H, "S-05", bonus=2),
        kind=LEGAL,
    ),
    M("ex-legal-restaurant-cost", D, "札幌餐厅连锁店 costs 5", setf(D, "JP-RES-1", cost=5), kind=LEGAL),
    M(
        "con-legal-ritual",
        A,
        "a 鴉教團 ritual needs 3 夜幕 + 1 知識, text updated",
        setf(A, "cro03", requirements="夜幕,夜幕,夜幕,知識", text="執行條件：3個夜幕、1個知識。"),
        kind=LEGAL,
    ),
]


def run_pnp(db: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pnpforge", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def apply(m: Mutation, db: Path) -> str:
    """Make the change; "" when it reached the database, else the editor's refusal."""
    for step in m.steps:
        if step[0] == "sql":
            conn = sqlite3.connect(db)
            try:
                conn.execute(step[1])
                conn.commit()
            except sqlite3.Error as exc:  # the schema itself refused it
                return f"database refused: {exc}"
            finally:
                conn.close()
        else:
            res = run_pnp(db, *step[1:])
            if "Traceback" in res.stderr:
                raise Crash(res.stderr.strip().splitlines()[-1])
            if res.returncode != 0:
                return (res.stderr.strip().splitlines() or ["refused"])[0]
    return ""


class Crash(Exception):
    """The editor died with a traceback: a bug, never a refusal, so never counted as caught."""


def check_args(game: str, games: int | None) -> list[str]:
    """`check GAME --strict`, with `--games N` when a count is asked for."""
    return ["check", game, "--strict", *(["--games", str(games)] if games is not None else [])]


def static_verdict(db: Path, game: str) -> list[str]:
    """The static findings that fail a strict check (every finding does)."""
    from pnpforge.rules.static import static_findings
    from pnpforge.store.db import open_db

    return [f"{f.kind}: {f.message}" for f in static_findings(open_db(db), game)]


def check(m: Mutation, base: Path, games: int | None, static_only: bool, work: Path) -> dict:
    db = work / f"{m.id}.db"
    shutil.copy(base, db)
    start = time.perf_counter()
    try:
        refused = apply(m, db)
    except Crash as exc:
        db.unlink()
        return {
            "id": m.id,
            "game": m.game,
            "kind": m.kind,
            "what": m.what,
            "failed": False,
            "by": "crash",
            "first": f"the editor crashed: {exc}",
            "seconds": round(time.perf_counter() - start, 2),
        }
    static = [] if refused else static_verdict(db, m.game)
    full_rc = None
    if not refused and not static_only:
        full_rc = run_pnp(db, *check_args(m.game, games)).returncode
    failed = bool(refused) or bool(static) or bool(full_rc)
    by = "editor" if refused else "static" if static else "games" if full_rc else ""
    db.unlink()
    return {
        "id": m.id,
        "game": m.game,
        "kind": m.kind,
        "what": m.what,
        "failed": failed,
        "by": by,
        "first": refused or (static[0] if static else ""),
        "seconds": round(time.perf_counter() - start, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", default=str(ROOT / "cards.db"))
    ap.add_argument("--games", type=int, default=None, help="sample games per check (default: pnp's own)")
    ap.add_argument("--static", action="store_true", help="static findings only, no subprocess")
    ap.add_argument("--only", default="", help="comma-separated mutation ids")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    chosen = [m for m in MUTATIONS if not args.only or m.id in args.only.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        base = work / "base.db"
        shutil.copy(args.db, base)
        from pnpforge.store.db import open_db

        open_db(base)  # migrate once, before any copy
        baseline = [
            g
            for g in sorted({m.game for m in chosen})
            if static_verdict(base, g)
            or (not args.static and run_pnp(base, *check_args(g, args.games)).returncode)
        ]
        if baseline:
            raise SystemExit(f"baseline fails `pnp check --strict` for {', '.join(baseline)}: fix that first")
        results = [check(m, base, args.games, args.static, work) for m in chosen]
    report(results, args)


def report(results: list[dict], args: argparse.Namespace) -> None:
    mistakes = [r for r in results if r["kind"] == MISTAKE]
    legal = [r for r in results if r["kind"] == LEGAL]
    caught = [r for r in mistakes if r["failed"]]
    wrongly_failed = [r for r in legal if r["failed"]]
    summary: dict[str, Any] = {
        "mode": "static findings only" if args.static else "pnp " + " ".join(check_args("GAME", args.games)),
        "mistakes": len(mistakes),
        "caught": len(caught),
        "catch_rate": round(len(caught) / len(mistakes), 3) if mistakes else None,
        "by": {k: sum(1 for r in caught if r["by"] == k) for k in ("editor", "static", "games")},
        "legal": len(legal),
        "legal_failed": len(wrongly_failed),
        "missed": [r["id"] for r in mistakes if not r["failed"]],
        "crashed": [r["id"] for r in results if r["by"] == "crash"],
        "legal_failed_ids": [r["id"] for r in wrongly_failed],
    }
    if args.json:
        print(json.dumps({"summary": summary, "results": results}, ensure_ascii=False, indent=1))
        return
    for r in results:
        ok = r["by"] != "crash" and r["failed"] == (r["kind"] == MISTAKE)
        status = ("caught by " + r["by"]) if r["failed"] else "CRASHED" if r["by"] == "crash" else "passed"
        print(f"{'ok ' if ok else 'BAD'} {r['kind']:<7} {r['id']:<32} {status:<16} {r['what']}")
        if r["first"]:
            print(f"      {r['first'][:150]}")
    print(
        f"\n{summary['mode']}: {len(caught)}/{len(mistakes)} mistakes caught "
        f"({summary['catch_rate']:.1%}; editor {summary['by']['editor']}, static {summary['by']['static']}, "
        f"sample games only {summary['by']['games']}); "
        f"{len(wrongly_failed)}/{len(legal)} legal design changes failed"
    )
    if summary["missed"]:
        print("missed: " + ", ".join(summary["missed"]))
    if summary["crashed"]:
        print("editor crashed (counted as missed): " + ", ".join(summary["crashed"]))
    if wrongly_failed:
        print("legal changes failed: " + ", ".join(summary["legal_failed_ids"]))


if __name__ == "__main__":
    main()
