"""A table of hostile and clumsy uses of `pnp`, each with what must hold.

Every case runs against a fresh copy of the test fixture database ('mini':
heroes H-01, H-02 and spell S-01; H-01 names S-01 as its weakness).  A case
is (name, setup, args, expect, kind):
  expect  "ok" (exit 0) or "refused" (a non-zero exit);
  kind    "read" (the database file must stay byte-identical, whatever the
          exit) or "write" (it must stay byte-identical when refused).
Always: no traceback.  `setup` names a function in SETUPS that prepares files
(the database is at {db}, a scratch folder at {tmp}); args may use both.
tests/test_hostile.py runs the table; bench/hostile.py prints it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...]
    expect: str  # "ok" | "refused"
    kind: str = "write"  # "read" | "write"
    setup: str = ""


def _set_cases() -> list[Case]:
    """`cards set` with values no card may hold (and a few it may)."""
    refused = {
        "copies": [
            "abc",
            "-1",
            "1000",
            "1000000000",
            "9" * 4000,
            "1.5",
            "",
            "18446744073709551616",
            "0x10",
            "1e3",
            "[1]",
            "true",
        ],
        "power": [
            "abc",
            "99",
            "-1",
            "9" * 4000,
            "9223372036854775808",
            "-9223372036854775809",
            "1e3",
            "0x10",
            "",
            "2.0",
            "八",
        ],
        "element": ["土", "火水", "\x00", "火 ", "FIRE", '["火"]'],
        "traits": ["不存在", "大戶|不存在", "\x00"],
        "weakness": ["H-02", "NOPE", "../../x", "S-01\x00"],
        "flying": ["maybe", "2", "yes please"],
        "name": [
            "",
            "   ",
            "\x00",
            "a\x00b",
            "a\u200bb",
            "\u200b",
            "a\u202eb",
            "x" * 201,
            "水之巫女",
            " 水之巫女 ",
            "水之巫女\u200b",
            "line\nbreak",
            "tab\there",
            "\ufeff水之巫女",
        ],
        "name_en": ["\x01", "x" * 201, "a\u2028b"],
        "text": ["\x00", "x" * 4001, "a\u200bb", "\x1b[31mred"],
        "flavor": ["\x00", "y" * 2001],
        "notes": ["\x07", "z" * 10001],
        "source": ["\x00", "s" * 501, "a\nb"],
        "provenance": ["guess", "", "RULEBOOK", "rulebook\x00"],
        "provisional_fields": ["nosuchfield", "power,nosuch", "\x00"],
        "type": ["nosuchtype", "spell", "", "../hero"],
        "art": ["a\x00b", "p" * 1001],
        "bogus": ["1"],
        "id": ["X-1"],
        "game": ["other"],
        "fields": ["{}"],
    }
    out = [
        Case(f"set {k}={v[:20]!r}", ("cards", "set", "mini", "H-01", f"{k}={v}"), "refused")
        for k, values in refused.items()
        for v in values
    ]
    accepted = {
        "copies": ["0", "999", " 3 ", "+4", "007"],
        "power": ["0", "20", " 5 "],
        "name": ["  新名字  ", "e\u0301tude"],
        "text": ["多行\n文字\t可以", '=HYPERLINK("x")', "-1 -3"],
        "flying": ["yes", "no", "true", "0"],
        "traits": ["大戶|弱勢", ""],
        "element": ["風"],
        "notes": ["@SUM(A1)"],
        "art": [""],
    }
    out += [
        Case(f"set ok {k}={v[:20]!r}", ("cards", "set", "mini", "H-01", f"{k}={v}"), "ok")
        for k, values in accepted.items()
        for v in values
    ]
    out += [
        Case("set unknown card", ("cards", "set", "mini", "NOPE", "copies=1"), "refused"),
        Case("set unknown game", ("cards", "set", "nogame", "H-01", "copies=1"), "refused"),
        Case("set without =", ("cards", "set", "mini", "H-01", "copies"), "refused"),
        Case("set empty key", ("cards", "set", "mini", "H-01", "=3"), "refused"),
        Case("set two values one bad", ("cards", "set", "mini", "H-01", "copies=3", "power=99"), "refused"),
        Case(
            "set correction", ("cards", "set", "mini", "H-01", "power=9", "--correction", "OCR misread"), "ok"
        ),
        Case(
            "set spell type of a referenced card",
            ("cards", "set", "mini", "S-01", "type=hero", "power=1"),
            "refused",
        ),
    ]
    return out


def _add_cases() -> list[Case]:
    """`cards add` with hostile ids and names."""
    bad_ids = [
        "../../../x",
        "..",
        ".",
        "-x",
        "_x",
        "a/b",
        "a\\b",
        "a b",
        "",
        "x" * 25,
        "a..b",
        "\x00",
        "火",
        "a\u200b",
        "/etc/passwd",
        "C:x",
        "a;b",
        "H-01",
        "a*b",
        "%00",
        ".hidden",
    ]
    out = [
        Case(f"add id {i[:16]!r}", ("cards", "add", "mini", "spell", i, "name=新法術", "cost=1"), "refused")
        for i in bad_ids
    ]
    dup_names = ["冰凍術", " 冰凍術", "冰凍術 ", "冰凍術\u200b", "冰\u200b凍術", "冰凍術\u00a0"]
    out += [
        Case(
            f"add duplicate name {n!r}",
            ("cards", "add", "mini", "spell", "S-09", f"name={n}", "cost=1"),
            "refused",
        )
        for n in dup_names
    ]
    out += [
        Case("add ok", ("cards", "add", "mini", "spell", "S-09", "name=新法術", "cost=1"), "ok"),
        Case("add ok dotted id", ("cards", "add", "mini", "spell", "S.9_x-1", "name=新法術", "cost=1"), "ok"),
        Case(
            "add same name other type",
            ("cards", "add", "mini", "hero", "H-09", "name=冰凍術", "power=1"),
            "ok",
        ),
        Case("add unknown type", ("cards", "add", "mini", "nosuch", "S-09", "name=x"), "refused"),
        Case("add missing name", ("cards", "add", "mini", "spell", "S-09", "cost=1"), "refused"),
        Case("add missing required", ("cards", "add", "mini", "hero", "H-09", "name=x"), "refused"),
        Case(
            "add dangling ref",
            ("cards", "add", "mini", "hero", "H-09", "name=x", "power=1", "weakness=NOPE"),
            "refused",
        ),
        Case(
            "add ref of wrong type",
            ("cards", "add", "mini", "hero", "H-09", "name=x", "power=1", "weakness=H-02"),
            "refused",
        ),
        Case(
            "add copies huge",
            ("cards", "add", "mini", "spell", "S-09", "name=x", "copies=1000000000"),
            "refused",
        ),
        Case("add unknown game", ("cards", "add", "nogame", "spell", "S-09", "name=x"), "refused"),
        Case("rm referenced", ("cards", "rm", "mini", "S-01", "--yes"), "refused"),
        Case("rm missing", ("cards", "rm", "mini", "NOPE", "--yes"), "refused"),
        Case("rm ok", ("cards", "rm", "mini", "H-02", "--yes"), "ok"),
        Case("rm declined", ("cards", "rm", "mini", "H-02"), "refused"),
        Case("rm traversal id", ("cards", "rm", "mini", "../H-02", "--yes"), "refused"),
    ]
    return out


_HEADER = "id,type,name,copies,power,element,weakness,cost\n"
CSV_FILES: dict[str, tuple[str, str]] = {
    # name: (file text, expect)
    "formula cells round trip": ('id,name,text\nH-01,火龍騎士,=HYPERLINK("http://x")\n', "ok"),
    "apostrophe escaped formula": ("id,text\nH-01,'=1+2\n", "ok"),
    "penalty-track text": ("id,text\nH-01,'-1 -3 -6 -10 X\n", "ok"),
    "crlf lines": ("id,copies\r\nH-01,3\r\n", "ok"),
    "bom": ("\ufeffid,copies\nH-01,3\n", "ok"),
    "blank lines": ("id,copies\n\n\nH-01,3\n\n", "ok"),
    "only header": ("id,copies\n", "ok"),
    "new card": (_HEADER + "S-09,spell,新法術,1,,,,2\n", "ok"),
    "empty file": ("", "refused"),
    "no id column": ("name,copies\nx,1\n", "refused"),
    "duplicate column": ("id,copies,copies\nH-01,1,2\n", "refused"),
    "too many cells": ("id,copies\nH-01,1,2\n", "refused"),
    "too few cells": ("id,copies,power\nH-01,1\n", "refused"),
    "unclosed quote": ('id,name\nH-01,"abc\n', "refused"),
    "nul byte": ("id,name\nH-01,a\x00b\n", "refused"),
    "copies overflow": ("id,copies\nH-01,99999999999999999999999\n", "refused"),
    "copies 4000 digits": ("id,copies\nH-01," + "9" * 4000 + "\n", "refused"),
    "copies billion": ("id,copies\nH-01,1000000000\n", "refused"),
    "copies negative": ("id,copies\nH-01,-1\n", "refused"),
    "copies text": ("id,copies\nH-01,many\n", "refused"),
    "power too big": ("id,power\nH-01,21\n", "refused"),
    "unknown type": (_HEADER + "S-09,nosuch,x,1,,,,\n", "refused"),
    "unknown column value": ("id,bogus\nH-01,1\n", "refused"),
    "traversal id": (_HEADER + "../../x,spell,x,1,,,,1\n", "refused"),
    "dotted traversal id": (_HEADER + "a..b,spell,x,1,,,,1\n", "refused"),
    "slash id": (_HEADER + "a/b,spell,x,1,,,,1\n", "refused"),
    "long id": (_HEADER + "x" * 30 + ",spell,x,1,,,,1\n", "refused"),
    "leading dash id": (_HEADER + "-x,spell,x,1,,,,1\n", "refused"),
    "blank id": (_HEADER + ",spell,x,1,,,,1\n", "refused"),
    "duplicate id in file": (_HEADER + "S-09,spell,甲,1,,,,1\nS-09,spell,乙,1,,,,1\n", "refused"),
    "duplicate name in file": (_HEADER + "S-09,spell,甲,1,,,,1\nS-10,spell,甲,1,,,,1\n", "refused"),
    "duplicate name of stored": (_HEADER + "S-09,spell,冰凍術,1,,,,1\n", "refused"),
    "duplicate name zero width": (_HEADER + "S-09,spell,冰凍術\u200b,1,,,,1\n", "refused"),
    "duplicate name trailing blank": (_HEADER + "S-09,spell,冰凍術 ,1,,,,1\n", "refused"),
    "dangling ref": (_HEADER + "H-09,hero,新英雄,1,1,火,NOPE,\n", "refused"),
    "ref to wrong type": (_HEADER + "H-09,hero,新英雄,1,1,火,H-02,\n", "refused"),
    "forward ref in file": (_HEADER + "H-09,hero,新英雄,1,1,火,S-09,\nS-09,spell,新法術,1,,,,1\n", "ok"),
    "control char in name": (_HEADER + "S-09,spell,a\x1bb,1,,,,1\n", "refused"),
    "rtl override in name": (_HEADER + "S-09,spell,a\u202eb,1,,,,1\n", "refused"),
    "huge cell": ("id,text\nH-01," + "x" * 200_000 + "\n", "refused"),
    "text too long": ("id,text\nH-01," + "x" * 4001 + "\n", "refused"),
    "one bad row of many": (
        _HEADER
        + "".join(f"S-{i:03d},spell,法術{i},1,,,,1\n" for i in range(100, 160))
        + "S-999,spell,壞,1,,,,99\n",
        "refused",
    ),
    "type change breaks referrer": ("id,type,power\nS-01,hero,1\n", "refused"),
}
CSV_BYTES: dict[str, tuple[bytes, str]] = {
    "big5 without --encoding": ("id,name\nH-01,龍\n".encode("big5"), "refused"),
    "latin-1 bytes": (b"id,name\nH-01,caf\xe9\n", "refused"),
    "utf-16": ("id,copies\nH-01,3\n".encode("utf-16"), "refused"),
    "binary junk": (bytes(range(256)) * 4, "refused"),
}
JSON_FILES: dict[str, tuple[object, str]] = {
    "not an array": ({"id": "H-01"}, "refused"),
    "array of numbers": ([1, 2], "refused"),
    "unknown key": ([{"id": "H-01", "bogus": 1}], "refused"),
    "fields not object": ([{"id": "H-01", "fields": [1]}], "refused"),
    "list for name": ([{"id": "H-01", "name": ["a"]}], "refused"),
    "object for text": ([{"id": "H-01", "text": {"a": 1}}], "refused"),
    "bool for copies": ([{"id": "H-01", "copies": True}], "refused"),
    "float copies": ([{"id": "H-01", "copies": 2.5}], "refused"),
    "huge copies": ([{"id": "H-01", "copies": 10**30}], "refused"),
    "nested field value": ([{"id": "H-01", "fields": {"power": {"a": 1}}}], "refused"),
    "list of lists traits": ([{"id": "H-01", "fields": {"traits": [["大戶"]]}}], "refused"),
    "number id": ([{"id": 5, "type": "spell", "name": "x"}], "refused"),  # ids are text (issue 21)
    "null id": ([{"id": None}], "refused"),
    "provisional_fields nested": ([{"id": "H-01", "provisional_fields": [["x"]]}], "refused"),
    "ok update": ([{"id": "H-01", "copies": 3}], "ok"),
    "ok replace fields": ([{"id": "S-01", "fields": {"cost": 4}}], "ok"),
    "power string number": ([{"id": "H-01", "fields": {"power": "5"}}], "ok"),
    "power overflow": ([{"id": "H-01", "fields": {"power": 2**64}}], "refused"),
    "nan power": ([{"id": "H-01", "fields": {"power": float("nan")}}], "refused"),
}
JSON_RAW: dict[str, tuple[str, str]] = {
    "nested 1500 deep": ("[" * 1500 + "]" * 1500, "refused"),
    "nested 100000 deep": ("[" * 100000, "refused"),
    "broken json": ('[{"id": ', "refused"),
    "4000-digit int": ('[{"id": "H-01", "copies": ' + "9" * 4000 + "}]", "refused"),
    "5000-digit int": ('[{"id": "H-01", "copies": ' + "9" * 5000 + "}]", "refused"),
    "NaN literal": ('[{"id": "H-01", "copies": NaN}]', "refused"),
    "Infinity literal": ('[{"id": "H-01", "fields": {"power": Infinity}}]', "refused"),
    "empty": ("", "refused"),
    "lone surrogate": ('[{"id": "H-01", "name": "\\ud800"}]', "refused"),
}


def _import_cases() -> list[Case]:
    out = []
    for name, (_, expect) in {**CSV_FILES, **CSV_BYTES}.items():
        out.append(
            Case(f"import csv: {name}", ("import", "mini", "{tmp}/in.csv"), expect, setup=f"csv:{name}")
        )
        out.append(
            Case(
                f"import csv --dry-run: {name}",
                ("import", "mini", "{tmp}/in.csv", "--dry-run"),
                expect,
                kind="read",
                setup=f"csv:{name}",
            )
        )
    for name, (_, expect) in {**JSON_FILES, **JSON_RAW}.items():
        out.append(
            Case(f"import json: {name}", ("import", "mini", "{tmp}/in.json"), expect, setup=f"json:{name}")
        )
    out += [
        Case("import missing file", ("import", "mini", "{tmp}/nope.csv"), "refused"),
        Case("import a folder", ("import", "mini", "{tmp}/dir.csv"), "refused", setup="folder"),
        Case("import a fifo", ("import", "mini", "{tmp}/fifo.csv"), "refused", setup="fifo"),
        Case("import unknown format", ("import", "mini", "{tmp}/in.txt"), "refused", setup="txt"),
        Case(
            "import unknown encoding",
            ("import", "mini", "{tmp}/in.csv", "--encoding", "nope"),
            "refused",
            setup="csv:crlf lines",
        ),
        Case(
            "import big5 with --encoding",
            ("import", "mini", "{tmp}/in.csv", "--encoding", "big5"),
            "ok",
            setup="csv:big5 without --encoding",
        ),
        Case(
            "import wrong --encoding",
            ("import", "mini", "{tmp}/in.csv", "--encoding", "ascii"),
            "refused",
            setup="csv:big5 without --encoding",
        ),
        Case("import unknown game", ("import", "nogame", "{tmp}/in.csv"), "refused", setup="csv:crlf lines"),
        Case(
            "import correction",
            ("import", "mini", "{tmp}/in.csv", "--correction", "typo"),
            "ok",
            setup="csv:crlf lines",
        ),
        Case("export round trip re-import", ("import", "mini", "{tmp}/export.csv"), "ok", setup="export"),
    ]
    return out


def _search_cases() -> list[Case]:
    queries = [
        "-traits:大戶",
        "-type:hero",
        "--",
        "-",
        "power>=",
        "(",
        ")",
        "((((((((((",
        "power>=abc",
        "copies>99999999999999999999999",
        'name:"',
        "'; DROP TABLE cards; --",
        '" OR 1=1 --',
        "name:%",
        "name:_",
        "\x00",
        "a\u200bb",
        "or",
        "and",
        "or or",
        "-(type:hero)",
        "is:nosuch",
        "has:nosuch",
        "nosuchfield:1",
        "power:[1]",
        "火" * 2000,
        "(" * 500 + "x" + ")" * 500,
        "-" * 100,
        "text:" + "x" * 10000,
        "power>=-9223372036854775809",
        "type:hero -name:水之巫女",
    ]
    out = []
    for q in queries:
        out.append(Case(f"search {q[:24]!r}", ("cards", "search", "mini", q), "any", kind="read"))
        out.append(Case(f"search all games {q[:24]!r}", ("cards", "search", q, "--json"), "any", kind="read"))
    out += [
        Case("search leading dash works", ("cards", "search", "mini", "-traits:大戶"), "ok", kind="read"),
        Case("search leading dash csv", ("cards", "search", "-traits:大戶", "--csv"), "ok", kind="read"),
    ]
    return out


def _db_cases() -> list[Case]:
    reads = [
        ("games",),
        ("cards", "list", "mini"),
        ("validate",),
        ("export", "mini"),
        ("cards", "search", "火"),
        ("db", "dump"),
    ]
    targets = {
        "missing": ("{tmp}/none.db", ""),
        "empty file": ("{tmp}/empty.db", "empty"),
        "foreign sqlite": ("{tmp}/foreign.db", "foreign"),
        "folder": ("{tmp}", ""),
        "text file": ("{tmp}/text.db", "textfile"),
        "newer schema": ("{tmp}/newer.db", "newer"),
        "negative version": ("{tmp}/negative.db", "negative"),
        "fifo": ("{tmp}/fifo.db", "fifodb"),
        "damaged pages": ("{db}", "damage"),
        "hot journal": ("{db}", "hotjournal"),
        "blank sqlite": ("{tmp}/blank.db", "blank"),
    }
    out = []
    for what, (path, setup) in targets.items():
        for args in reads:
            out.append(
                Case(
                    f"{' '.join(args)} on {what}", ("--db", path, *args), "refused", kind="read", setup=setup
                )
            )
        recovers = what == "hot journal"  # a write rolls the crashed write back, then writes
        out.append(
            Case(
                f"cards set on {what}",
                ("--db", path, "cards", "set", "mini", "H-01", "copies=3"),
                "ok" if recovers else "refused",
                kind="write" if recovers else "read",
                setup=setup,
            )
        )
    out += [
        Case(
            "uri chars in path read",
            ("--db", "{tmp}/a#b?c%d.db", "cards", "list", "mini"),
            "ok",
            kind="read",
            setup="uridb",
        ),
        Case(
            "uri chars in path write",
            ("--db", "{tmp}/a#b?c%d.db", "cards", "set", "mini", "H-01", "copies=3"),
            "ok",
            kind="write",
            setup="uridb",
        ),
        Case(
            "locked by another program", ("cards", "set", "mini", "H-01", "copies=3"), "refused", setup="lock"
        ),
        Case("locked read still reads", ("cards", "list", "mini"), "refused", kind="read", setup="lock"),
        Case("db init over existing", ("--db", "{db}", "db", "init"), "refused", kind="read"),
        Case(
            "db init in missing folder", ("--db", "{tmp}/no/such/x.db", "db", "init"), "refused", kind="read"
        ),
        Case("db upgrade current", ("db", "upgrade"), "ok", kind="read"),
        Case(
            "db upgrade foreign",
            ("--db", "{tmp}/foreign.db", "db", "upgrade"),
            "refused",
            kind="read",
            setup="foreign",
        ),
    ]
    return out


def _output_cases() -> list[Case]:
    out = []
    for cmd in (
        ("export", "mini"),
        ("export", "mini", "--format", "json"),
        ("game", "export", "mini"),
        ("rules", "mini", "-f", "md"),
    ):
        out.append(
            Case(
                f"{' '.join(cmd)} -o missing folder is made",
                (*cmd, "-o", "{tmp}/no/such/x.out"),
                "ok",
                kind="read",
            )
        )
        out.append(
            Case(
                f"{' '.join(cmd)} -o a folder",
                (*cmd, "-o", "{tmp}"),
                "ok" if cmd[0] == "rules" else "refused",
                kind="read",
            )
        )
        for what, path, setup in (
            ("/dev/null", "/dev/null", ""),
            ("/dev/full", "/dev/full", ""),
            ("file as folder", "{tmp}/file.txt/x.out", "file"),
            ("a fifo", "{tmp}/fifo.out", "fifo_out"),
            ("unwritable folder", "/proc/x.out", ""),
        ):
            out.append(
                Case(f"{' '.join(cmd)} -o {what}", (*cmd, "-o", path), "refused", kind="read", setup=setup)
            )
    out += [
        Case("export -o ok", ("export", "mini", "-o", "{tmp}/ok.csv"), "ok", kind="read"),
        Case("game import folder", ("game", "import", "{tmp}"), "refused"),
        Case("game import missing", ("game", "import", "{tmp}/nope.json"), "refused"),
        Case(
            "game import not json", ("game", "import", "{tmp}/in.json"), "refused", setup="json:broken json"
        ),
        Case(
            "game import deep", ("game", "import", "{tmp}/in.json"), "refused", setup="json:nested 1500 deep"
        ),
        Case(
            "game import wrong format",
            ("game", "import", "{tmp}/in.json"),
            "refused",
            setup="json:not an array",
        ),
        Case("game import exists", ("game", "import", "{tmp}/bundle.json"), "refused", setup="bundle"),
        Case(
            "game import replace", ("game", "import", "{tmp}/bundle.json", "--replace"), "ok", setup="bundle"
        ),
        Case(
            "game import replace correction",
            ("game", "import", "{tmp}/bundle.json", "--replace", "--correction", "typo"),
            "ok",
            setup="bundle",
        ),
    ]
    for name in BUNDLE_MUTATIONS:
        out.append(
            Case(
                f"game import bundle {name}",
                ("game", "import", "{tmp}/bad.json", "--replace"),
                "refused",
                setup=f"badbundle:{name}",
            )
        )
    return out


BUNDLE_MUTATIONS: dict[str, str] = {
    "huge copies": "cards.0.copies=1000000000",
    "text copies": "cards.0.copies='abc'",
    "traversal id": "cards.0.id='../../x'",
    "nested field": "cards.0.fields={'power': {'a': 1}}",
    "list name": "cards.0.name=['x']",
    "bad slug": "game.slug='../x'",
    "nul name": "cards.0.name='a\\x00b'",
    "missing cards key": "cards.0=None",
    "fields list": "cards.0.fields=[1]",
    "provisional nested": "cards.0.provisional_fields=[['x']]",
    "width text": "card_types.0.width_mm='wide'",
    "players text": "game.players_min='two'",
    "duplicate card": "cards.1.id='H-01'",
}


def _raw_sql_cases() -> list[Case]:
    """Rows another tool broke: validate reports them by id; other commands refuse clearly."""
    breaks = ["copies_text", "copies_huge", "id_traversal", "fields_array", "name_nul", "fields_deep"]
    out = []
    for b in breaks:
        out.append(Case(f"validate after raw {b}", ("validate",), "refused", kind="read", setup=f"raw:{b}"))
        out.append(
            Case(
                f"validate --json after raw {b}",
                ("validate", "--json"),
                "refused",
                kind="read",
                setup=f"raw:{b}",
            )
        )
        out.append(
            Case(f"list after raw {b}", ("cards", "list", "mini"), "any", kind="read", setup=f"raw:{b}")
        )
        out.append(Case(f"export after raw {b}", ("export", "mini"), "any", kind="read", setup=f"raw:{b}"))
        out.append(
            Case(
                f"images after raw {b}",
                ("images", "mini", "-o", "{tmp}/img"),
                "any",
                kind="read",
                setup=f"raw:{b}",
            )
        )
    out.append(
        Case(
            "set fixes raw copies",
            ("cards", "set", "mini", "H-01", "copies=2"),
            "ok",
            setup="raw:copies_text",
        )
    )
    return out


def all_cases() -> list[Case]:
    cases = (
        _set_cases()
        + _add_cases()
        + _import_cases()
        + _search_cases()
        + _db_cases()
        + _output_cases()
        + _raw_sql_cases()
    )
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    return cases


def json_text(name: str) -> str:
    if name in JSON_RAW:
        return JSON_RAW[name][0]
    return json.dumps(JSON_FILES[name][0], ensure_ascii=False)
