"""`pnp import` / `pnp export`: round trips, all-or-nothing, encodings, dry runs."""

from __future__ import annotations

import json

import pytest

from pnpforge.store import repo
from pnpforge.store.db import open_db


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_import_export_is_byte_identical(run, tmp_path, mini_db, fmt):
    first = tmp_path / f"a.{fmt}"
    second = tmp_path / f"b.{fmt}"
    assert run("--db", mini_db, "export", "mini", "--format", fmt, "-o", first).exit_code == 0
    r = run("--db", mini_db, "import", "mini", first)
    assert r.exit_code == 0, r.stderr
    assert "added 0, updated 0, unchanged 3" in r.stdout
    run("--db", mini_db, "export", "mini", "--format", fmt, "-o", second)
    assert first.read_bytes() == second.read_bytes()


def test_round_trip_into_a_fresh_database(run, tmp_path, mini_db):
    """Cards exported from one database rebuild the same cards in another."""
    out = tmp_path / "cards.csv"
    run("--db", mini_db, "export", "mini", "-o", out)
    bundle = tmp_path / "g.json"
    run("--db", mini_db, "game", "export", "mini", "-o", bundle)
    data = json.loads(bundle.read_text())
    data["cards"] = []
    bundle.write_text(json.dumps(data, ensure_ascii=False))
    other = tmp_path / "other.db"
    run("--db", other, "db", "init")
    assert run("--db", other, "game", "import", bundle).exit_code == 0
    r = run("--db", other, "import", "mini", out)
    assert r.exit_code == 0, r.stderr
    a = [c.to_dict() for c in repo.list_cards(open_db(mini_db), "mini")]
    b = [c.to_dict() for c in repo.list_cards(open_db(other), "mini")]

    def strip(cs: list[dict]) -> list[dict]:
        return [{k: v for k, v in c.items() if not k.endswith("_at")} for c in cs]

    assert strip(a) == strip(b)


CSV_HEAD = "id,type,name,copies,power,cost\n"


def _write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding))
    return path


def test_dry_run_shows_diff_and_writes_nothing(run, tmp_path, mini_db):
    f = _write(tmp_path / "c.csv", CSV_HEAD + "H-01,hero,火龍騎士,2,9,\nS-09,spell,雷擊,1,,2\n")
    before = mini_db.read_bytes()
    r = run("--db", mini_db, "import", "mini", f, "--dry-run")
    assert r.exit_code == 0, r.stderr
    assert "~ H-01" in r.stdout and "+ S-09" in r.stdout and "dry run" in r.stdout
    assert "fields.power: 8 → 9" in r.stdout
    assert mini_db.read_bytes() == before
    r = run("--db", mini_db, "import", "mini", f)
    assert r.exit_code == 0
    assert repo.get_card(open_db(mini_db), "mini", "S-09").fields == {"cost": 2}


def test_one_bad_row_writes_nothing_and_every_bad_row_is_named(run, tmp_path, mini_db):
    f = _write(
        tmp_path / "c.csv",
        CSV_HEAD + "S-09,spell,雷擊,1,,2\n"
        "H-01,hero,火龍騎士,2,many,\nS-10,spell,冰錐,1,,12\nS-11,wizard,巫師,1,,\n",
    )
    before = mini_db.read_bytes()
    r = run("--db", mini_db, "import", "mini", f)
    assert r.exit_code != 0
    err = r.stderr
    assert "line 3" in err and "power" in err and "expected an integer" in err
    assert "line 4" in err and "column 'cost'" in err and "above the maximum 9" in err
    assert "line 5" in err and "unknown card type 'wizard'" in err
    assert "Traceback" not in err
    assert mini_db.read_bytes() == before


def test_utf8_bom_is_accepted(run, tmp_path, mini_db):
    f = tmp_path / "bom.csv"
    f.write_bytes(b"\xef\xbb\xbf" + (CSV_HEAD + "S-09,spell,雷擊,1,,2\n").encode())
    assert run("--db", mini_db, "import", "mini", f).exit_code == 0
    assert repo.get_card(open_db(mini_db), "mini", "S-09").name == "雷擊"


@pytest.mark.parametrize("encoding", ["big5", "gbk"])
def test_legacy_encodings_need_to_be_named(run, tmp_path, mini_db, encoding):
    f = _write(tmp_path / "legacy.csv", CSV_HEAD + "S-09,spell,雷擊術,1,,2\n", encoding)
    before = mini_db.read_bytes()
    r = run("--db", mini_db, "import", "mini", f)
    assert r.exit_code != 0 and "--encoding" in r.stderr and "not UTF-8" in r.stderr
    assert mini_db.read_bytes() == before
    r = run("--db", mini_db, "import", "mini", f, "--encoding", encoding)
    assert r.exit_code == 0, r.stderr
    assert repo.get_card(open_db(mini_db), "mini", "S-09").name == "雷擊術"


@pytest.mark.parametrize(
    "content,fragment",
    [
        ('id,type,name\nS-09,spell,"unclosed\n', "line"),
        ("id,type,name\nS-09,spell\n", "2 cells, the header has 3"),
        ("type,name\nspell,x\n", "no 'id' column"),
        ("id,id,name\n1,2,3\n", "appear twice"),
        ("", "is empty"),
    ],
)
def test_broken_csv(run, tmp_path, mini_db, content, fragment):
    f = _write(tmp_path / "bad.csv", content)
    before = mini_db.read_bytes()
    r = run("--db", mini_db, "import", "mini", f)
    assert r.exit_code != 0 and fragment in r.stderr
    assert mini_db.read_bytes() == before


def test_broken_json_and_duplicate_ids(run, tmp_path, mini_db):
    f = _write(tmp_path / "bad.json", '[{"id": "S-09", "type": "spell", "name": "x"},')
    r = run("--db", mini_db, "import", "mini", f)
    assert r.exit_code != 0 and "line 1" in r.stderr and "broken JSON" in r.stderr
    f = _write(
        tmp_path / "dup.json",
        json.dumps(
            [{"id": "S-09", "type": "spell", "name": "x"}, {"id": "S-09", "type": "spell", "name": "y"}]
        ),
    )
    r = run("--db", mini_db, "import", "mini", f)
    assert r.exit_code != 0 and "record 2" in r.stderr and "appears twice" in r.stderr


def test_unknown_game_and_missing_file(run, tmp_path, mini_db):
    r = run("--db", mini_db, "import", "nogame", tmp_path / "x.csv")
    assert r.exit_code != 0 and "unknown game" in r.stderr
    r = run("--db", mini_db, "import", "mini", tmp_path / "x.csv")
    assert r.exit_code != 0 and "no such file" in r.stderr


GAMES = ["enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_round_trip_on_every_shipped_game(run, tmp_path, shipped_db, fmt):
    """Real data (empty lists, booleans, refs, CJK text): import of an export changes nothing."""
    for game in GAMES:
        first, second = tmp_path / f"{game}-1.{fmt}", tmp_path / f"{game}-2.{fmt}"
        run("--db", shipped_db, "export", game, "--format", fmt, "-o", first)
        r = run("--db", shipped_db, "import", game, first)
        assert r.exit_code == 0, r.stderr
        assert "updated 0" in r.stdout, r.stdout[:500]
        run("--db", shipped_db, "export", game, "--format", fmt, "-o", second)
        assert first.read_bytes() == second.read_bytes(), game


def test_an_empty_list_cell_reads_back_as_an_empty_list(run, tmp_path, mini_db):
    r = run("--db", mini_db, "cards", "set", "mini", "H-02", "traits=")
    assert r.exit_code == 0, r.stderr
    assert repo.get_card(open_db(mini_db), "mini", "H-02").fields["traits"] == []
    out = tmp_path / "c.csv"
    run("--db", mini_db, "export", "mini", "-o", out)
    assert "updated 0" in run("--db", mini_db, "import", "mini", out).stdout


def test_formula_cells_are_escaped_and_round_trip_exactly(run, tmp_path, mini_db):
    from pnpforge.formats.records import csv_escape, csv_unescape

    hostile = [
        '=HYPERLINK("http://x","y")',
        "=cmd|' /C calc'!A0",
        "@SUM(A1)",
        "+1+2",
        "-1 -3 -6 -10 X",
        "\tx",
        "\rx",
        "'=quoted",
        "''",
        "'",
        "'plain",
        "-3",
        "+4",
        "plain",
    ]
    for value in hostile:
        assert csv_unescape(csv_escape(value)) == value
        assert not csv_escape(value).startswith(("=", "@", "\t", "\r")) or value == csv_escape(value) == ""
    assert csv_escape("-1 -3 -6 -10 X") == "'-1 -3 -6 -10 X" and csv_escape("-3") == "-3"
    for i, value in enumerate(v for v in hostile[:9] if v != "\rx"):  # CR is refused in text
        assert run("--db", mini_db, "cards", "set", "mini", "H-01", f"text={value}").exit_code == 0
        first = tmp_path / f"a{i}.csv"
        assert run("--db", mini_db, "export", "mini", "-o", first).exit_code == 0
        cells = [row for row in first.read_text(encoding="utf-8").splitlines() if row.startswith("H-01")]
        assert "=HYPERLINK" not in cells[0].split(",")[8][:1]
        r = run("--db", mini_db, "import", "mini", first)
        assert r.exit_code == 0 and "updated 0" in r.stdout, (value, r.stdout, r.stderr)
        second = tmp_path / f"b{i}.csv"
        run("--db", mini_db, "export", "mini", "-o", second)
        assert second.read_bytes() == first.read_bytes()


def test_search_and_list_csv_escape_formulas(run, mini_db):
    run("--db", mini_db, "cards", "set", "mini", "H-01", "text==1+2")
    for args in (("cards", "list", "mini", "--csv"), ("cards", "search", "mini", "type:hero", "--csv")):
        out = run("--db", mini_db, *args).stdout
        assert ",'=1+2," in out and ",=1+2," not in out


def test_shipped_penalty_track_round_trips(run, tmp_path, shipped_db):
    out = tmp_path / "enforcer.csv"
    assert run("--db", shipped_db, "export", "enforcer", "-o", out).exit_code == 0
    assert "'-1|-3|-6|-10|X" in out.read_text(encoding="utf-8")  # the track's cells, guarded
    r = run("--db", shipped_db, "import", "enforcer", out)
    assert r.exit_code == 0 and "updated 0" in r.stdout


def test_dry_run_refuses_exactly_what_the_import_refuses(run, tmp_path, mini_db):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,type,name,cost\n../../x,spell,新,1\nS-09,spell,冰凍術\u200b,1\n", encoding="utf-8")
    dry = run("--db", mini_db, "import", "mini", bad, "--dry-run")
    real = run("--db", mini_db, "import", "mini", bad)
    assert dry.exit_code == real.exit_code == 1
    assert dry.stderr == real.stderr and "'../../x' is not allowed" in real.stderr
    assert "control or invisible" in real.stderr


def test_names_are_normalised_and_compared_normalised(run, tmp_path, mini_db):
    from pnpforge.store import repo
    from pnpforge.store.db import open_db

    src = tmp_path / "n.csv"
    src.write_text("id,type,name,cost\nS-09,spell,  e\u0301tude  ,1\n", encoding="utf-8")
    assert run("--db", mini_db, "import", "mini", src).exit_code == 0
    assert repo.get_card(open_db(mini_db, readonly=True), "mini", "S-09").name == "\u00e9tude"
    r = run("--db", mini_db, "cards", "add", "mini", "spell", "S-10", "name=ÉTUDE", "cost=1")
    assert r.exit_code == 1 and "already used by S-09" in r.stderr


def test_size_and_row_limits_are_clear(run, tmp_path, mini_db, monkeypatch):
    from pnpforge.formats import records as cardio

    monkeypatch.setattr(cardio, "MAX_ROWS", 3)
    src = tmp_path / "many.csv"
    src.write_text(
        "id,type,name,cost\n" + "".join(f"S-{i},spell,n{i},1\n" for i in range(10, 15)), encoding="utf-8"
    )
    r = run("--db", mini_db, "import", "mini", src)
    assert r.exit_code != 0 and "more than 3 rows" in r.stderr
    monkeypatch.setattr(cardio, "MAX_IMPORT_BYTES", 10)
    r = run("--db", mini_db, "import", "mini", src)
    assert r.exit_code != 0 and "split it" in r.stderr


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_semicolon_and_tab_separated_csv_import(run, tmp_path, shipped_db, delimiter):
    """Spreadsheets in many locales save ';'-separated CSV (and some tools tabs): the delimiter is
    read from the header, and an edited value becomes the designer's."""
    import csv

    plain = tmp_path / "e.csv"
    run("--db", shipped_db, "export", "enforcer", "-o", plain)
    rows = list(csv.reader(plain.open(encoding="utf-8", newline="")))
    col = rows[0].index("difficulty")
    row = next(r for r in rows if r[0] == "OB-02")
    row[col] = str(int(row[col]) + 1)
    edited = tmp_path / "e2.csv"
    with edited.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    r = run("--db", shipped_db, "import", "enforcer", edited)
    assert r.exit_code == 0, r.stderr
    assert "updated 1" in r.stdout
    card = repo.get_card(open_db(shipped_db), "enforcer", "OB-02")
    assert card.is_value_provisional("difficulty")
    # the same sheet again: nothing changes, and the designer's mark stays
    r = run("--db", shipped_db, "import", "enforcer", edited)
    assert r.exit_code == 0 and "updated 0" in r.stdout, r.stdout
    assert repo.get_card(open_db(shipped_db), "enforcer", "OB-02").provisional_fields == ["difficulty"]


@pytest.mark.parametrize("target", ["self", "other"])
def test_an_export_never_replaces_a_database(run, tmp_path, mini_db, target):
    """`pnp export GAME -o cards.db` must not turn a card database into a CSV (the one or another)."""
    victim = mini_db if target == "self" else tmp_path / "other.db"
    if target == "other":
        victim.write_bytes(mini_db.read_bytes())
    before = victim.read_bytes()
    res = run("--db", mini_db, "export", "mini", "-o", victim)
    assert res.exit_code != 0 and "SQLite database" in res.output, res.output
    assert victim.read_bytes() == before
    assert repo.list_cards(open_db(mini_db), "mini")  # still a card database
