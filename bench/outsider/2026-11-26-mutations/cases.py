"""Mutation cases for pnpforge's rules checker, written from the five rulebooks.

Each case is a dict:
  id      unique id (game prefix, m = mistake, l = legal)
  game    CLI slug
  kind    "mistake" (a correct checker must flag it) or "legal" (it must accept it)
  what    the edit, in words
  source  rulebook file:line(s) (../shared/seeds/...) or the reference table, and why
  steps   list of steps, applied in order to a fresh copy of the database:
            ["cards", "set", ...]            arguments for `pnp --db COPY ...`
            {"sql": "UPDATE ..."}            raw SQL run on the copy (sqlite3), around the editor
            {"bundle": [[path, value], ...]} `pnp game export GAME`, edit the JSON, then
                                             `pnp game import FILE --replace` (the ordinary
                                             whole-game path, e.g. for game-level data)
          A bundle path is a list of keys; a dict key in it selects the list item whose
          fields match (e.g. ["card_types", {"slug": "action"}, "back", "colour"]).

Seed files (in /work/shared/seeds/):
  E = 000_4f6280fd668fd4ec.txt (enforcer)      D = 001_17c75473d138b940.txt (dirty-money)
  H = 002_183d6240ceadc125.txt (hackers)       I = 003_8ab308f12ac0ccf3.txt (infiltraitors)
  A = 004_4a39ec4c7bce2d2d.txt (accusation)    R = /work/shared/reference/accusation-base-box.tsv
"""

E = "000_4f6280fd668fd4ec.txt"
D = "001_17c75473d138b940.txt"
H = "002_183d6240ceadc125.txt"
I = "003_8ab308f12ac0ccf3.txt"
A = "004_4a39ec4c7bce2d2d.txt"
R = "reference/accusation-base-box.tsv"


def s(game, card, *assignments, correction=None):
    """A `pnp cards set` step."""
    step = ["cards", "set", game, card, *assignments]
    if correction:
        step += ["--correction", correction]
    return step


def rm(game, card):
    return ["cards", "rm", game, card, "-y"]


def add(game, ctype, card, *assignments):
    return ["cards", "add", game, ctype, card, *assignments]


def sql(stmt):
    return {"sql": stmt}


def jset(game, card, path, value_sql):
    """Raw SQL: json_set one field of a card's fields."""
    return sql(
        f"UPDATE cards SET fields = json_set(fields, '$.{path}', {value_sql}) "
        f"WHERE game = '{game}' AND id = '{card}'"
    )


def bundle(*edits):
    return {"bundle": [list(e) for e in edits]}


def M(id, game, what, source, *steps):
    return {"id": id, "game": game, "kind": "mistake", "what": what, "source": source,
            "steps": list(steps)}


def L(id, game, what, source, *steps):
    return {"id": id, "game": game, "kind": "legal", "what": what, "source": source,
            "steps": list(steps)}


G = "enforcer"
ENFORCER = [
    # ---- counts and copies
    M("enf-m01", G, "程序瑕疵 objection printed 3 times instead of 2",
      f"{E}:139-143 (聲明異議卡共9張: 程序瑕疵2張)", s(G, "OBJ-flaw", "copies=3")),
    M("enf-m02", G, "an obligor (ETC欠費者) deleted: 27 obligors",
      f"{E}:43 (義務人卡×28), 955-963", rm(G, "OB-19")),
    M("enf-m03", G, "詐騙超跑男神 printed twice (29 obligor cards, one obligor doubled)",
      f"{E}:43 (義務人卡×28, each a different obligor 719-1068)", s(G, "OB-05", "copies=2")),
    M("enf-m04", G, "one more 傳繳通知 (56 execution cards)",
      f"{E}:39 (執行卡×55)", s(G, "EX-notice", "copies=6")),
    # ---- printed values against the rulebook
    M("enf-m05", G, "吸金財團董事長 score 15 -> 12",
      f"{E}:775-781 (稅 15分 吸金財團董事長)", s(G, "OB-06", "score=12")),
    M("enf-m06", G, "黑道酒店大亨 difficulty 12 -> 14",
      f"{E}:196-198, 1089-1091 (難度 12)", s(G, "OB-18", "difficulty=14")),
    M("enf-m07", G, "酒駕者 category 罰 -> 稅 (card listed under 義務人卡—罰)",
      f"{E}:871-879 (罰 3分 酒駕者)", s(G, "OB-13", "category=稅")),
    M("enf-m08", G, "逃稅知名藝人 loses its 矚目 trait",
      f"{E}:752-761 (逃稅知名藝人 矚目(須優先執行))", s(G, "OB-04", "traits=")),
    M("enf-m09", G, "機場黃牛 objects once instead of twice",
      f"{E}:898-906 (聲明異議2次)", s(G, "OB-15", "objections=1")),
    M("enf-m10", G, "黑心油商 loses 大戶 (could then be made a project)",
      f"{E}:1062-1067 (大戶 (不能列為專案)), 120-121", s(G, "OB-28", "traits=")),
    M("enf-m11", G, "程序瑕疵 adds +3 instead of +2",
      f"{E}:203-206, 1099-1104 (程序瑕疵 本回合執行難度+2)", s(G, "OBJ-flaw", "effect_value=3")),
    M("enf-m12", G, "財稅專股 officer gets +2 power instead of +1",
      f"{E}:460-465, 500 (額外獲得1點執行力)", s(G, "OF-tax", "effect_value=2")),
    M("enf-m13", G, "費用專股 officer made a second 稅 specialist (no 費 specialist left)",
      f"{E}:493-500 (費用專股: 對費用類義務人)", s(G, "OF-fee", "category=稅")),
    M("enf-m14", G, "管收 specialty card power 6 -> 5 (no longer the 管收 it copies)",
      f"{E}:560-569 (執行力 6 限 管收大師 專長卡 管收)", s(G, "SP-detain", "power=5")),
    M("enf-m15", G, "拍賣大師 officer takes the 拘提 specialty card",
      f"{E}:508-513 (拍賣大師: 可改為拿取【專長卡：拍賣】)", s(G, "OF-auction", "specialty=SP-arrest")),
    M("enf-m16", G, "發布新聞 strategy card given 2 power",
      f"{E}:696-704 vs 706-715 (only 獎檢公告 prints 2 策 執行力)", s(G, "EX-news", "power=2")),
    M("enf-m17", G, "獎檢公告 power 2 -> 3",
      f"{E}:706-715 (2 策 執行力 獎檢公告)", s(G, "EX-award", "power=3")),
    # ---- a worked example that no longer adds up
    M("enf-m18", G, "查封土地 power 4 -> 3: the example '8 vs 5' (weakness doubles 4) no longer adds up",
      f"{E}:163-176 (4 執行力 封 查封土地 ... 8 vs 5 弱點執行力加倍)", s(G, "EX-seize-land", "power=3")),
    M("enf-m19", G, "小氣大地主 difficulty 5 -> 9 'corrected' with --correction after the example '8 vs 5'",
      f"{E}:168-176, 731-739 (小氣大地主 難度 5; example 8 vs 5 is a success)",
      s(G, "OB-02", "difficulty=9", correction="example shows a bigger number")),
    M("enf-m20", G, "惡質航運業者 difficulty 8 -> 18 with --correction, taken from the layout example",
      f"{E}:857-863 card list says 難度 8; layout example {E}:273-277 says 18; seeds README: trust the card list",
      s(G, "OB-12", "difficulty=18", correction="layout example prints 18")),
    # ---- printed text that contradicts the card's own fields
    M("enf-m21", G, "金牌執行官 text says hand limit 10 while its value is 8",
      f"{E}:333 (手牌捨棄至6張); card text must state its own value",
      s(G, "OF-gold", "text=回合結束時手牌上限為10張（而非6張）。")),
    M("enf-m22", G, "談判達人 text says draw 3 while effect_value is 2",
      f"{E}:577 (達人執行官：符合特定條件時，可抽牌); 82-83 達人 draws 2",
      s(G, "OF-negotiate", "text=對具有聲明異議特性的義務人執行成功時抽3張牌。")),
    # ---- duplicate or meaningless abilities
    M("enf-m23", G, "毒蟲 keeps 聲明異議 but objects 0 times (meaningless trait)",
      f"{E}:129, 137-138 (執行具有「聲明異議」能力的義務人時，翻一張聲明異議卡); 1001-1005",
      s(G, "OB-22", "objections=0")),
    M("enf-m24", G, "重症病患 (弱勢) gets 弱點: 查封土地 — a 查封 card can never be played on a 弱勢 obligor",
      f"{E}:124-125, 153, 791-799 (弱勢: 查封、限制類執行卡無效; 重症病患 has no 弱點)",
      s(G, "OB-07", "weakness=EX-seize-land")),
    M("enf-m25", G, "拘提 requires itself instead of 傳繳通知",
      f"{E}:541-547 (本回合須先打出【傳繳通知】才能打出此卡)", s(G, "EX-arrest", "requires=EX-arrest")),
    # ---- a card made useless
    M("enf-m26", G, "限制出境 usable only on difficulty >= 16: no obligor is that hard (max 15)",
      f"{E}:653-657 (限制類: 多有發動條件), 1111; difficulties in 719-1068 are at most 15",
      s(G, "EX-exit-ban", "effect_value=16", "text=僅能對難度16以上的義務人使用。")),
    M("enf-m27", G, "查封精品 usable only on difficulty >= 9: useless against 詐騙超跑男神 (難度 8), whose 弱點 it is",
      f"{E}:763-773 (詐騙超跑男神 難度 8 弱點: 查封精品), 1113-1114 (查封 難度高於7以…)",
      s(G, "EX-seize-luxury", "effect_value=9", "text=僅能對難度9以上的義務人使用。")),
    # ---- tables that go the wrong way
    M("enf-m28", G, "penalty track reversed: first penalty costs 10, later ones less",
      f"{E}:282-288 (減分標記 -1 -3 …), 419-420 (每次減分向右移一格；減分至X時淘汰)",
      s(G, "PEN", "track=-10 -6 -3 -1 X")),
    M("enf-m29", G, "penalty track without X: nobody can ever be eliminated",
      f"{E}:419-420 (減分至X時，直接淘汰), 438 (淘汰到只剩下1位玩家時 game ends)",
      s(G, "PEN", "track=-1 -3 -6 -10 -15")),
    M("enf-m30", G, "不良回收業者 made the easiest obligor (難度 1) while keeping 6 points",
      f"{E}:28 (越難的義務人分數越高), 1007-1015",
      s(G, "OB-23", "difficulty=1")),
    # ---- game-level data
    M("enf-m31", G, "game allows 2 players (rulebook: 3-6)",
      f"{E}:23 (多人遊戲 (3-6人))", bundle([["game", "players_min"], 2])),
    M("enf-m32", G, "game allows 8 players: only 6 penalty markers and 6 help cards",
      f"{E}:23, 55 (減分標記卡×6), 63 (幫助卡×6)", bundle([["game", "players_max"], 8])),
    # ---- raw SQL around the editor
    M("enf-m33", G, "raw SQL: ETC欠費者 difficulty 0",
      f"{E}:111-112, 957-963 (難度 3; 執行力合計大於或等於難度)", jset(G, "OB-19", "difficulty", "0")),
    M("enf-m34", G, "raw SQL: 借牌名醫 score 6 -> 9",
      f"{E}:845-851 (健 6 分 借牌名醫)", jset(G, "OB-11", "score", "9")),
    M("enf-m35", G, "raw SQL: 查封錯誤 objection printed 4 times",
      f"{E}:139-145 (查封錯誤2張; 共9張)",
      sql("UPDATE cards SET copies = 4 WHERE game='enforcer' AND id='OBJ-seize-error'")),
]

ENFORCER_LEGAL = [
    L("enf-l01", G, "designed 查封車輛 power 3 -> 2",
      f"{E}:647-651 (查封類 values not printed; card provisional)", s(G, "EX-seize-vehicle", "power=2")),
    L("enf-l02", G, "designed 分期繳納 power 2 -> 3",
      f"{E}:659-663 (扶助類 only vs 弱勢; values not printed)", s(G, "EX-instalment", "power=3")),
    L("enf-l03", G, "copies rebalanced inside 一般類: 傳繳通知 5 -> 4, 扣押營收 3 -> 4 (55 total kept)",
      f"{E}:39 (執行卡×55; per-card copies not printed)",
      s(G, "EX-notice", "copies=4"), s(G, "EX-seize-revenue", "copies=4")),
    L("enf-l04", G, "金牌執行官 (designed ability) hand limit 8 -> 7, text updated",
      f"{E}:579-582 (其他執行官：效果較特殊; ability not printed)",
      s(G, "OF-gold", "effect_value=7", "text=回合結束時手牌上限為7張（而非6張）。")),
    L("enf-l05", G, "程序違法 (designed effect) +4 -> +3, text updated",
      f"{E}:139-145 (程序違法1張; effect not printed)",
      s(G, "OBJ-illegal", "effect_value=3", "text=本回合執行難度+3。")),
    L("enf-l06", G, "flavour text added to 劣質魚羹大盤商",
      f"{E}:719-729 (flavour is not a rule)", s(G, "OB-01", "flavor=魚羹越煮越稀，欠稅越欠越多。")),
    L("enf-l07", G, "replace designed 分期繳納 by a new designed 扶助 card 社福轉介 (power 2, 2 copies)",
      f"{E}:659-663 (扶助類執行卡：僅能對弱勢義務人使用); 39 (55 kept)",
      rm(G, "EX-instalment"),
      add(G, "execution", "EX-welfare", "name=社福轉介", "name_en=Welfare Referral", "copies=2",
          "family=扶助", "power=2", "effect=none", "text=僅能對弱勢義務人使用。")),
    L("enf-l08", G, "designed play time 30–45 -> 35–50 minutes",
      f"{E}:21-29 (no play time printed)", bundle([["game", "play_time"], "35–50 分鐘 (provisional)"])),
]

G = "dirty-money"
DIRTY = [
    M("dm-m01", G, "a placement card deleted: 59 placement cards",
      f"{D}:22 (60 处置卡)", rm(G, "EU-ART-1")),
    M("dm-m02", G, "one more 交易 action: 31 action cards",
      f"{D}:60 (30 动作卡)", s(G, "ACT-TRD", "copies=7")),
    M("dm-m03", G, "one fewer $1 note: 119 currency cards",
      f"{D}:50 (120 货币卡)", s(G, "USD-1", "copies=5")),
    M("dm-m04", G, "黑市 used from 3 players",
      f"{D}:88, 144 (有 4 个或更多玩家时使用此地点卡)", s(G, "LOC-BM", "min_players=3")),
    M("dm-m05", G, "拍卖行 used from 4 players",
      f"{D}:88, 148 (当有 5 个玩家时使用此地点卡)", s(G, "LOC-AH", "min_players=4")),
    M("dm-m06", G, "拍卖行 shows 2 placement cards instead of 3",
      f"{D}:89, 148, 164 (拍卖行上 3 张处置卡, one per region)", s(G, "LOC-AH", "display=2")),
    M("dm-m07", G, "欧洲 location bought with USD",
      f"{D}:134 (欧洲用 EURO，美国用 USD 及日本用 Yen)", s(G, "LOC-EU", "currency=USD")),
    M("dm-m08", G, "香蕉共和国 allows buying a placement card",
      f"{D}:140, 283 (选择香蕉共和国…玩家无法购买任何处置卡)", s(G, "LOC-BR", "buy_limit=1")),
    M("dm-m09", G, "crypto worth $4 instead of $3",
      f"{D}:271 (加密货币的价值为 $5 而不是 $3)", s(G, "CRYPTO-3", "value=4")),
    M("dm-m10", G, "黑道狐 makes crypto worth $4 instead of $5",
      f"{D}:269-271", s(G, "V3", "effect_value=4")),
    M("dm-m11", G, "洗钱者 numbered 2 and 贪污鼠 numbered 1 (swap)",
      f"{D}:80 (洗钱者的编号 1 …可以开始游戏)", s(G, "V1", "order=2"), s(G, "V2", "order=1")),
    M("dm-m12", G, "two villains share player number 4 (designed value duplicated)",
      f"{D}:74, 80 (玩家次序号码; 持有最低的玩家编号将获得第一玩家标记)", s(G, "V5", "order=4")),
    M("dm-m13", G, "art set of 4 scores 12 instead of 14 on one art card",
      f"{D}:183-189 (4 艺术品 = 14 分)", s(G, "US-ART-3", "set_scores=2,5,9,12,20")),
    M("dm-m14", G, "digital bank raises the hand limit by 2",
      f"{D}:225 (每个数码银行让玩家在手中的货币卡增加 1)", s(G, "EU-BNK-1", "effect_value=2")),
    M("dm-m15", G, "restaurant chain scores 2 per card: the rulebook example (1 chain + 3 = 5 points) breaks",
      f"{D}:243 (1 张日本餐厅连锁店和 3 张其他日本的处置卡，则总共可获得 5 分)",
      s(G, "JP-RES-1", "effect_value=2")),
    M("dm-m16", G, "crypto exchange discount 0 (meaningless ability)",
      f"{D}:213 (只需少付 $1)", s(G, "EU-CRY-1", "effect_value=0")),
    M("dm-m17", G, "charity text says 3 blacklist points while its value is 2",
      f"{D}:219 (丢弃最多 2 个黑名单积分)", s(G, "EU-CHA-1", "text=游戏结束时，丢弃最多 3 个黑名单积分。")),
    M("dm-m18", G, "designed 检查：任一玩家 text says 3 cards while amount is 2",
      f"{D}:114 (检查 - 从玩家手中随机选择指定数量的卡); text must match the card's number",
      s(G, "ACT-INS-ONE", "text=选择 1 位其他玩家，从其手中随机抽 3 张货币卡检查：有黑钱符号的收入你手中，并让该玩家把 1 张弃卡放入黑名单；其余退还。")),
    M("dm-m19", G, "贿赂 card labelled 检查 (kind contradicts its effect)",
      f"{D}:114-126 (检查 / 审核 / 交易 / 贿赂 are four actions)", s(G, "ACT-BRB", "kind=检查")),
    M("dm-m20", G, "currency cards printed 63x88 instead of 44x67",
      f"{D}:50 (120 货币卡 (44mm X 67mm))",
      bundle([["card_types", {"slug": "currency"}, "width_mm"], 63.0],
             [["card_types", {"slug": "currency"}, "height_mm"], 88.0])),
    M("dm-m21", G, "action cards given their own back colour, though shuffled into the money deck",
      f"{D}:62, 94 (动作卡是货币卡组的一部分; 将剩余的货币卡与动作卡进行洗牌), 76",
      bundle([["card_types", {"slug": "action"}, "back", "colour"], "#aa0000"])),
    M("dm-m22", G, "placement cards printed 63x88 instead of 70x70",
      f"{D}:22 (60 处置卡 (70mm X 70mm))",
      sql("UPDATE card_types SET width_mm = 63, height_mm = 88 WHERE game='dirty-money' AND slug='placement'")),
    M("dm-m23", G, "game allows 6 players (5 villains, rulebook 2-5)",
      f"{D}:68 (5 恶棍卡), 88; seeds README (2–5 players)", bundle([["game", "players_max"], 6])),
    M("dm-m24", G, "game allows 1 player",
      f"{D}:114, 118 (2 人游戏 rules are the smallest); seeds README (2–5)",
      sql("UPDATE games SET players_min = 1 WHERE slug='dirty-money'")),
    M("dm-m25", G, "raw SQL: a placement card in region 中国 (no such location deck)",
      f"{D}:30, 89 (区域 即欧洲，日本或美国)", jset(G, "JP-ART-1", "region", "'中国'")),
    M("dm-m26", G, "raw SQL: 华尔街之熊 sets aside 2 placement cards instead of 3",
      f"{D}:281 (抽取 3 张处置卡)", jset(G, "V4", "effect_value", "2")),
]

DIRTY_LEGAL = [
    L("dm-l01", G, "designed cost of 文艺复兴油画 3 -> 4",
      f"{D}:26 (cost printed per card; values designed, provisional)", s(G, "EU-ART-1", "cost=4")),
    L("dm-l02", G, "euro note copies rebalanced: €1 6 -> 5, €2 6 -> 7 (120 and 36 EUR kept)",
      f"{D}:50 (120 货币卡; denominations not printed)", s(G, "EUR-1", "copies=5"), s(G, "EUR-2", "copies=7")),
    L("dm-l03", G, "designed card renamed: 米兰餐厅连锁店 -> 罗马餐厅连锁店",
      f"{D}:241-243 (kind 餐厅连锁店; names designed)",
      s(G, "EU-RES-1", "name=罗马餐厅连锁店", "name_en=Rome Restaurant Chain (Restaurant Chain)")),
    L("dm-l04", G, "designed printed points of 大西洋城赌场 2 -> 3",
      f"{D}:32 (游戏结束时获得的分数; values designed)", s(G, "US-CAS-2", "points=3")),
    L("dm-l05", G, "inspect variants rebalanced: 检查：左右玩家 5 -> 6, 检查：任一玩家 5 -> 4 (30 actions kept)",
      f"{D}:60, 114 (action copies not printed)", s(G, "ACT-INS-LR", "copies=6"), s(G, "ACT-INS-ONE", "copies=4")),
    L("dm-l06", G, "designed villain numbers of 华尔街之熊 and 高利贷白鲨 swapped (4 <-> 5)",
      f"{D}:74, 80 (only 洗钱者 = 1 is printed)", s(G, "V4", "order=5"), s(G, "V5", "order=4")),
    L("dm-l07", G, "a designed art card replaced by a new one: 巴洛克珠宝盒 -> 威尼斯玻璃器 (欧洲, cost 7)",
      f"{D}:22, 181-189 (art kind; 60 placement cards kept)",
      rm(G, "EU-ART-5"),
      add(G, "placement", "EU-ART-6", "name=威尼斯玻璃器", "name_en=Venetian Glass (Art)", "region=欧洲",
          "cost=7", "points=0", "effect=art", "set_scores=2,5,9,14,20",
          "text=按收集的艺术品数量成套计分（可来自不同地点，每套最多 5 件）：1 件 2 分，2 件 5 分，3 件 9 分，4 件 14 分，5 件 20 分。")),
]

G = "hackers"
HACKERS = [
    M("hk-m01", G, "a defence card printed twice: 41 defence cards",
      f"{H}:38 (40 張 防禦卡)", s(G, "D-01R", "copies=2")),
    M("hk-m02", G, "an attack card deleted: 23 attack cards",
      f"{H}:39 (24 張 攻擊卡)", rm(G, "A-24")),
    M("hk-m03", G, "a server deleted: 25 servers",
      f"{H}:40 (26 張 伺服器卡)", rm(G, "S-26")),
    M("hk-m04", G, "level-1 server with 3 holes",
      f"{H}:50 (第一回合等級的伺服器卡 ( 兩個漏洞 ))",
      s(G, "S-01", "holes=R|Y|G", "text=第1級；漏洞：紅、黃、綠；費用1；乾淨時獎勵1勝利點數")),
    M("hk-m05", G, "level-3 server with 3 holes",
      f"{H}:245-247 (第三級有四個漏洞)",
      s(G, "S-21", "holes=R|Y|G", "text=第3級；漏洞：紅、黃、綠；費用3；乾淨時獎勵3勝利點數")),
    M("hk-m06", G, "server cost 0",
      f"{H}:147 (伺服器費用不能少於１)", s(G, "S-01", "cost=0")),
    M("hk-m07", G, "Deep Security gives 2 defence to every colour",
      f"{H}:346-348 (這張卡片提供所有顏色的防禦力１)", s(G, "D-10R", "defence=2")),
    M("hk-m08", G, "D-07R Trojan Horse no longer marks green: the attack example breaks",
      f"{H}:372-375 (綠色攻擊卡 … 他擁有 D-07R 與 D-09Y，因此總和為普通攻擊力２＋直接傷害８)",
      s(G, "D-07R", "effect_colours=R|B")),
    M("hk-m09", G, "green direct attack pays 2 for 5 direct (designed value): the attack example no longer adds up",
      f"{H}:365-366, 374-375 (pay 2 → 普通攻擊力２＋直接傷害８ with D-07R +2 and D-09Y +2 direct)",
      s(G, "A-11", "direct_2=5", "text=[綠] 支付1：直接傷害3；支付2：直接傷害5；支付3：直接傷害8；支付4：直接傷害10")),
    M("hk-m10", G, "attack table goes the wrong way: paying 3 gives less than paying 2",
      f"{H}:115-119, 185-186 (支付費用以獲得該費用對應的攻擊力)",
      s(G, "A-05", "attack_3=4", "text=[綠] 支付1：攻擊力3；支付2：攻擊力5；支付3：攻擊力4；支付4：攻擊力9")),
    M("hk-m11", G, "an attack card with no strength at any payment (useless card)",
      f"{H}:115-119, 183-208 (an attack gives attack strength or direct damage)",
      s(G, "A-07", "attack_1=0", "attack_2=0", "attack_3=0", "attack_4=0",
        "text=[藍] 支付1：攻擊力0；支付2：攻擊力0；支付3：攻擊力0；支付4：攻擊力0")),
    M("hk-m12", G, "two-colour attack card lists red twice (meaningless choice)",
      f"{H}:187-189 (若是多色攻擊卡則現在選擇一個顏色)",
      s(G, "A-17", "colours=R|R", "text=[紅／紅]（多色：攻擊時選擇一色） 支付1：攻擊力2；支付2：攻擊力4；支付3：攻擊力6；支付4：攻擊力8")),
    M("hk-m13", G, "game allows 5 players (4 defence boards)",
      f"{H}:1 (2 ～ 4 名玩家), 43-44 (4 張 防禦計錄板, 4 張 玩家輔助說明板)",
      bundle([["game", "players_max"], 5])),
    M("hk-m14", G, "attack cards given a different back from defence cards, though shuffled together",
      f"{H}:53 (將所有防禦卡與攻擊卡充分洗牌做為牌堆)",
      bundle([["card_types", {"slug": "attack"}, "back", "colour"], "#990000"])),
    M("hk-m15", G, "Auto Recovery text says it removes 3 damage",
      f"{H}:310-312 (回合結束時，立即移除兩點任意傷害)",
      s(G, "D-04R", "text=[紅] 回合結束時，立即移除任意3點傷害。")),
    M("hk-m16", G, "Auto Recovery fires in the attack phase instead of round end",
      f"{H}:310 (D-04 Auto Recovery : E 回合結束階段)", s(G, "D-04R", "phase=III")),
    M("hk-m17", G, "S-10 clean bonus 2 -> 3: the scoring example (2+2+3+2+7=16) breaks",
      f"{H}:386-392", s(G, "S-10", "bonus=3", "text=第1級；漏洞：藍、藍；費用2；乾淨時獎勵3勝利點數")),
    M("hk-m18", G, "S-22 loses its green hole: Trinity has only 1 green hole, the example's 7 free green slots break",
      f"{H}:377-380, 388-389 (崔妮蒂's servers S-10, S-14, S-22; 綠色漏洞僅剩７格)",
      s(G, "S-22", "holes=R|Y|B|B", "text=第3級；漏洞：紅、黃、藍、藍；費用3；乾淨時獎勵3勝利點數")),
    M("hk-m19", G, "Zero-Day Attack D-09B marks a single colour",
      f"{H}:340-344 (當你使用本卡標示的其中一種顏色進行攻擊時)", s(G, "D-09B", "effect_colours=B")),
    M("hk-m20", G, "raw SQL: a level-4 server (the game has three rounds)",
      f"{H}:78 (一場遊戲會持續進行三個回合), 257", jset(G, "S-05", "level", "4")),
    M("hk-m21", G, "raw SQL: an attack card with colour 'P' (no such colour)",
      f"{H}:187-192 (attack colours are the holes' colours R/Y/G/B)", jset(G, "A-01", "colours", "json('[\"P\"]')")),
]

HACKERS_LEGAL = [
    L("hk-l01", G, "designed attack table of 暴力破解 3/5/7/9 -> 3/5/6/8 (still rising)",
      f"{H}:115-119, 185-186 (attack values designed)",
      s(G, "A-01", "attack_3=6", "attack_4=8",
        "text=[紅] 支付1：攻擊力3；支付2：攻擊力5；支付3：攻擊力6；支付4：攻擊力8")),
    L("hk-l02", G, "designed clean bonus of S-01 1 -> 2",
      f"{H}:231-233 (bonus printed per card; values designed)",
      s(G, "S-01", "bonus=2", "text=第1級；漏洞：紅、黃；費用1；乾淨時獎勵2勝利點數")),
    L("hk-l03", G, "designed cost of S-23 4 -> 5",
      f"{H}:145-149 (cost ≥ 1; values designed)",
      s(G, "S-23", "cost=5", "text=第3級；漏洞：紅、紅、綠、綠；費用5；乾淨時獎勵4勝利點數")),
    L("hk-l04", G, "designed cost of D-03R 1 -> 2",
      f"{H}:111-113, 163-165 (defence costs designed)", s(G, "D-03R", "cost=2")),
    L("hk-l05", G, "designed attack card renamed: 進階持續威脅 -> 零時差蠕蟲",
      f"{H}:39 (attack names not printed)", s(G, "A-24", "name=零時差蠕蟲", "name_en=Zero-day Worm")),
    L("hk-l06", G, "designed holes of S-02 red/green -> red/blue (still 2 holes)",
      f"{H}:50 (level 1: two holes; colours designed)",
      s(G, "S-02", "holes=R|B", "text=第1級；漏洞：紅、藍；費用1；乾淨時獎勵1勝利點數")),
    L("hk-l07", G, "a designed four-colour attack replaced by a new one (24 kept)",
      f"{H}:39, 187-189 (24 attack cards, single- or multi-colour)",
      rm(G, "A-24"),
      add(G, "attack", "A-25", "name=零時差蠕蟲", "name_en=Zero-day Worm", "colours=R|Y|G|B",
          "attack_1=1", "attack_2=3", "attack_3=5", "attack_4=7",
          "direct_1=0", "direct_2=0", "direct_3=0", "direct_4=0",
          "text=[紅／黃／綠／藍]（多色：攻擊時選擇一色） 支付1：攻擊力1；支付2：攻擊力3；支付3：攻擊力5；支付4：攻擊力7")),
]

G = "infiltraitors"
INFIL = [
    M("inf-m01", G, "紅 7 renumbered 8: two red 8s, no red 7",
      f"{I}:413-415 (5 種花色，各有號碼 2-15), 28-32", s(G, "R07", "number=8", "name=紅 8", "name_en=Red 8")),
    M("inf-m24", G, "紅 7 renumbered 8 but still named 紅 7 (two red 8s, name contradicts number)",
      f"{I}:413-415 (5 種花色，各有號碼 2-15)", s(G, "R07", "number=8")),
    M("inf-m02", G, "黑 11 printed twice: 71 cards",
      f"{I}:413 (70 張卡牌)", s(G, "K11", "copies=2")),
    M("inf-m03", G, "黃 6 no longer lists 3 among its factors (the rulebook's own example: 3 relates to 6)",
      f"{I}:521-527 (3 是 6 的因數 … 每張卡牌都已列出與其號碼相關的所有因數或倍數)",
      s(G, "Y06", "relates=2|12")),
    M("inf-m04", G, "綠 12 lists 5 as related",
      f"{I}:510-527 (related = factor or multiple)", s(G, "G12", "relates=2|3|4|5|6")),
    M("inf-m05", G, "two red special cards, no green one",
      f"{I}:419-420 (5 張特別牌 (每種花色 1 張))", s(G, "SP-G", "suit=紅")),
    M("inf-m06", G, "mission 7 with 5 bullets for 6 suspects: unwinnable",
      f"{I}:149 (任務七 嫌疑人牌數量：6 子彈數量：7), 592 (子彈數目少於未破解的嫌疑人牌數目 … 落敗)",
      s(G, "M07", "bullets=5")),
    M("inf-m07", G, "mission 12 asks 7 suspects with its 6 bullets: unwinnable",
      f"{I}:223 (任務十二 嫌疑人 6 子彈 6), 592", s(G, "M12", "suspects=7")),
    M("inf-m08", G, "mission 20 suspects 11 -> 10",
      f"{I}:361 (任務二十 嫌疑人牌數量：11)", s(G, "M20", "suspects=10")),
    M("inf-m09", G, "mission 5 needs 13 bullets (12 bullet tokens in the box)",
      f"{I}:123 (子彈 12), 433 (12 枚子彈板塊)", s(G, "M05", "bullets=13")),
    M("inf-m10", G, "mission 3 uses number tiles 1-10 (box has 1-9; mission says 1-8)",
      f"{I}:99 (拿取 1-8 號號碼板塊), 424-425 (9 枚號碼板塊)", s(G, "M03", "number_tiles=10")),
    M("inf-m11", G, "mission 1 lists 3 suits though it uses 4",
      f"{I}:73 (使用卡牌：4 種花色)", s(G, "M01", "suits=紅|黑|黃")),
    M("inf-m12", G, "mission 1 lists yellow twice among its 4 suits (only 3 distinct suits)",
      f"{I}:73 (4 種花色), 28-32 (花色: 在本項任務中須用到的卡牌花色)", s(G, "M01", "suits=紅|黑|黃|黃")),
    M("inf-m13", G, "mission 9 hand limit 3 -> 7",
      f"{I}:185 (手牌上限亦是3張)", s(G, "M09", "hand_limit=7")),
    M("inf-m14", G, "training mission 1 uses numbers 2-15 instead of 2-13",
      f"{I}:468 (將紅色、黑色、黃色號碼 2-13 的卡牌抽出)", s(G, "T1", "number_max=15")),
    M("inf-m15", G, "training mission 1 range inverted (14..13)",
      f"{I}:468 (號碼 2-13)", s(G, "T1", "number_min=14")),
    M("inf-m16", G, "training mission 2: bullets = agents + 4",
      f"{I}:608-609 (子彈數量：特務數量 + 3)", s(G, "T2", "bullets=4")),
    M("inf-m17", G, "training mission 3 loses its 15-minute rule",
      f"{I}:629-631 (在 15 分鐘內完成任務)", s(G, "T3", "effect=")),
    M("inf-m18", G, "mission 13 deleted: 19 missions",
      f"{I}:24 (任務 1-20), 239-249, 459", rm(G, "M13")),
    M("inf-m19", G, "game allows 6 players (5 card stands, 5 hint boards)",
      f"{I}:437 (5 件木製立牌架), 441 (5 張提示版圖); seeds README (2–5)",
      bundle([["game", "players_max"], 6])),
    M("inf-m20", G, "special cards given a different back, though mission 15 shuffles them into the cards",
      f"{I}:281 (將所有特別牌混入卡牌洗勻)",
      bundle([["card_types", {"slug": "special"}, "back", "colour"], "#c0a000"])),
    M("inf-m21", G, "special cards printed at the mission-card size 70x120, though shuffled with 63x88 cards in mission 15",
      f"{I}:281 (將所有特別牌混入卡牌洗勻)",
      sql("UPDATE card_types SET width_mm = 70, height_mm = 120 WHERE game='infiltraitors' AND slug='special'")),
    M("inf-m22", G, "raw SQL: a card of suit 紫 (the game has 5 suits)",
      f"{I}:413-415 (5 種花色)", jset(G, "G05", "suit", "'紫'")),
    M("inf-m23", G, "raw SQL: mission 11 bullets 12 -> 8 (its 9 suspects become unwinnable)",
      f"{I}:209 (任務十一 嫌疑人 9 子彈 12), 592", jset(G, "M11", "bullets", "8")),
]

INFIL_LEGAL = [
    L("inf-l01", G, "mission 1 suits (icons lost in the scan) chosen as 紅/黑/黃/綠 instead of 紅/黑/黃/藍",
      f"{I}:73 (4 種花色; which ones are icons); card provisional 'suits'",
      s(G, "M01", "suits=紅|黑|黃|綠")),
    L("inf-l02", G, "mission cards (designed aid size) printed 63x88 instead of 70x120",
      f"{I}:24-45 (mission size not printed; aid cards, never shuffled)",
      bundle([["card_types", {"slug": "mission"}, "width_mm"], 63.0],
             [["card_types", {"slug": "mission"}, "height_mm"], 88.0])),
    L("inf-l03", G, "story text added as flavour on mission 1",
      f"{I}:63 (the briefing before 任務一)",
      s(G, "M01", "flavor=叛徒在線人交接的地點安裝了竊聽器，你們須要將他們找出來。")),
    L("inf-l04", G, "designed play time 15–30 -> 20–30 minutes per mission",
      f"{I}:455-459 (no play time printed; 631 asks 15 minutes for T3 only)",
      bundle([["game", "play_time"], "20–30 分鐘／任務 (provisional)"])),
    L("inf-l05", G, "training mission 3 suits (icons) chosen as 紅/黑/黃/綠",
      f"{I}:625-627 (4 種花色的 2-15 號卡牌)", s(G, "T3", "suits=紅|黑|黃|綠")),
]

G = "accusation"
ACCUS = [
    M("acc-m01", G, "a crow follower deleted: the crow deck has 23 cards",
      f"{A}:35, 39 (教團卡牌*48; 該教團所有卡牌(24張)); {R} cro10", rm(G, "cro10")),
    M("acc-m02", G, "a 4th ritual added to the crow cult",
      f"{A}:202 (一個教團牌組共有3個儀式), 39",
      add(G, "ritual", "cro25", "name=血月儀式", "name_en=Blood Moon Rite", "cult=鴉教團", "calamity=2",
          "requirements=夜幕|凋零", "symbols=夜幕", "text=執行條件：1個夜幕、1個凋零。")),
    M("acc-m03", G, "a second leader added to the fox cult",
      f"{A}:57 (雙方玩家將自己的教主放置在陰謀區), 49 (1張教主)",
      add(G, "leader", "fox25", "name=銀尾", "name_en=Silver Tail", "cult=白狐神社", "symbols=野性",
          "mentions=你的每個回合限一次", "effect=ability: absolve 1",
          "text=你的每個回合限一次：使你場上1個罪惡信徒解除罪惡。")),
    M("acc-m04", G, "鴉仕女 volume 4 -> 5",
      f"{R} cro05 (volume 4)", s(G, "cro05", "volume=5")),
    M("acc-m05", G, "本殿 guard 5 -> 3",
      f"{R} fox19 (guard 5)", s(G, "fox19", "guard=3")),
    M("acc-m06", G, "稻草人 text says 駐守2 while its garrison is 3",
      f"{R} fox08 (駐守3); {A}:376-378", s(G, "fox08", "text=駐守2。")),
    M("acc-m07", G, "群鴉風暴 needs 4 野性: the crow cult has no 野性 symbol, the ritual can never be completed",
      f"{A}:97, 200-206 (儀式是教團的勝利條件; 執行條件); {R} (no crow card has 野性; no 獻祭/解構 in the box)",
      s(G, "cro03", "requirements=野性|野性|野性|野性", "text=執行條件：4個野性。")),
    M("acc-m08", G, "稻魂祭 needs 9 自然: the fox cult has only 7 自然 symbols in all",
      f"{A}:200-206; {R} (fox 自然: fox03, fox07, fox08, fox14, fox17, fox18×2)",
      s(G, "fox03", "requirements=自然|自然|自然|自然|自然|自然|自然|自然|自然", "text=執行條件：9個自然。")),
    M("acc-m09", G, "game allows 3 players (2, or 4 in 2v2)",
      f"{A}:19 (2人), 256-258 (2v2: 4 players)", bundle([["game", "players_min"], 3])),
    M("acc-m10", G, "magic cards given their own back colour, though shuffled into the cult deck",
      f"{A}:39, 57 (洗混牌庫後抽3張牌; 牌庫為隱藏資訊 119)",
      bundle([["card_types", {"slug": "magic"}, "back", "colour"], "#224488"])),
    M("acc-m11", G, "raw SQL: the crow leader given volume 3",
      f"{A}:248 (教主沒有聲量，不能用來襲擊或是控訴)", jset(G, "cro01", "volume", "3")),
    M("acc-m12", G, "櫻華 volume 1 -> 0 (can no longer raid or accuse)",
      f"{R} fox14 (volume 1); {A}:77 (聲量1以上的信徒才能參與襲擊)", s(G, "fox14", "volume=0")),
    M("acc-m13", G, "狂亂質詢 (another box's magic) printed in the base box",
      f"{A}:35 (教團卡牌*48), 358; reference README (a magic card from another box)", s(G, "ext01", "copies=1")),
    M("acc-m14", G, "黯燭 stardust 3 -> 1",
      f"{R} cro21 (stardust 3)", s(G, "cro21", "stardust=1")),
    M("acc-m15", G, "黑色葬禮 calamity 3 -> 0",
      f"{R} cro02 (calamity 3)", s(G, "cro02", "calamity=0")),
    M("acc-m16", G, "狐渡 renamed 狐火 (the name of a fox magic card)",
      f"{R} fox13 狐渡, fox21 狐火 (48 different names)", s(G, "fox13", "name=狐火")),
    M("acc-m17", G, "割舌的僧侶 (designed effect) gives 0 extra stardust (meaningless ability)",
      f"{A}:227 (星塵); {R} cro11; effect text must mean something",
      s(G, "cro11", "effect=passive: extra_stardust 0", "text=此信徒非罪惡時，額外提供0個星塵。")),
    M("acc-m18", G, "狐渡 given 駐守2, a keyword the card does not have",
      f"{R} fox13 (mentions nothing); {A}:376-378 (駐守X)",
      s(G, "fox13", "garrison=2", "text=駐守2。此信徒參與襲擊時，聲量+1。")),
    M("acc-m19", G, "割舌的僧侶 given a 詠頌 effect, a keyword the card does not have",
      f"{R} cro11 (mentions nothing, calamity 0); {A}:372-374 (詠頌效果可以被控訴)",
      s(G, "cro11", "effect=chant: draw 1", "text=詠頌：抽1張牌。")),
    M("acc-m20", G, "信使's effect changed to draw 2 (the rulebook prints its effect)",
      f"{A}:356 (信使效果「抽1張牌，雙方玩家棄置1張牌」)",
      s(G, "cro07", "effect=chant: draw 2; each_discard 1", "text=詠頌：抽2張牌，雙方玩家棄置1張牌。")),
    M("acc-m21", G, "raw SQL: 信使's text changed to draw 2",
      f"{A}:356", sql("UPDATE cards SET text = '詠頌：抽2張牌，雙方玩家棄置1張牌。' WHERE game='accusation' AND id='cro07'")),
    M("acc-m22", G, "烏骨療法 loses its calamity (magic can be accused)",
      f"{R} cro22 (calamity 3); {A}:221", s(G, "cro22", "calamity=")),
    M("acc-m23", G, "raw SQL: 羽墓園 moved to the fox cult (crow 23 cards, fox 25)",
      f"{A}:39 (24 張 per cult); {R} cro19 鴉教團", jset(G, "cro19", "cult", "'白狐神社'")),
]

ACCUS_LEGAL = [
    L("acc-l01", G, "designed requirement of 群鴉風暴 4 夜幕 -> 3 夜幕 + 1 凋零 (crow has both)",
      f"{A}:200-206 (requirements not printed; {R} gives none)",
      s(G, "cro03", "requirements=夜幕|夜幕|夜幕|凋零", "text=執行條件：3個夜幕、1個凋零。")),
    L("acc-l02", G, "designed effect text of 迷路的亡魂 reworded, same meaning",
      f"{R} reference README (effect texts are ours, provisional)",
      s(G, "cro10", "text=詠頌：從你的牌庫頂抽1張牌。")),
    L("acc-l03", G, "designed raid bonus of 狐渡 +1 -> +2, text updated",
      f"{R} fox13 (effect not given; designed)",
      s(G, "fox13", "effect=passive: raid_bonus 2", "text=此信徒參與襲擊時，聲量+2。")),
    L("acc-l04", G, "designed card size of all five types 63x88 -> 63.5x88.9 (one deck, same size)",
      f"{A}:35 (card size not printed)",
      bundle(*[[["card_types", {"slug": t}, k], v]
               for t in ("follower", "location", "ritual", "magic", "leader")
               for k, v in (("width_mm", 63.5), ("height_mm", 88.9))])),
    L("acc-l05", G, "designed English name of 櫻華 renamed",
      f"{R} (no English names)", s(G, "fox14", "name_en=Sakura Bloom")),
    L("acc-l06", G, "designed requirement of 返靈舞 2 知識 + 1 野性 -> 1 知識 + 2 野性 (fox has both)",
      f"{A}:200-206; {R} fox01/05/06/10/12/13/15/16/17/19 supply 野性 and 知識",
      s(G, "fox04", "requirements=知識|野性|野性", "text=執行條件：1個知識、2個野性。")),
]

CASES = (ENFORCER + ENFORCER_LEGAL + DIRTY + DIRTY_LEGAL + HACKERS + HACKERS_LEGAL
         + INFIL + INFIL_LEGAL + ACCUS + ACCUS_LEGAL)


def _check():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case id"
    for c in CASES:
        assert c["kind"] in ("mistake", "legal")
        assert c["steps"]


_check()

if __name__ == "__main__":
    from collections import Counter
    print(Counter((c["game"], c["kind"]) for c in CASES))
    print(Counter(c["kind"] for c in CASES))
