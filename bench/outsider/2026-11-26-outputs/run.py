#!/usr/bin/env python3
"""Outsider's executable table for pnp's OUTPUT commands (print, images, proof, helpers,
rules, build, shop, preflight, cut, tts, tts-object, watch) and the library API.

usage: python run.py --pnp PATH_TO_PNP --db PATH_TO_CARDS_DB [--jobs N] [--only ID,ID] [--out results.json]

Every case runs in its own temp dir with its own copy of the database. Each prints
`ID HOLD|FAIL|QUESTION reason`. Derived only from README.md, docs/cli.md, docs/api.md, --help.
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

CASES = []
MM = 72 / 25.4


def case(cid, promise):
    def deco(f):
        CASES.append((cid, promise, f))
        return f
    return deco


class R:
    def __init__(self, p):
        self.rc, self.out, self.err = p.returncode, p.stdout, p.stderr

    @property
    def both(self):
        return self.out + self.err

    def tb(self):
        return "Traceback (most recent call last)" in self.both

    def short(self):
        t = (self.err.strip() or self.out.strip()).splitlines()
        return (t[0] if t else "")[:160]


class Ctx:
    def __init__(self, pnp, srcdb, root, cache):
        self.pnp, self.root = pnp, Path(root)
        self.db = self.root / "cards.db"
        shutil.copy(srcdb, self.db)
        self.env = dict(os.environ, PNP_CACHE_DIR=cache, PNP_BUSY_TIMEOUT="2", COLUMNS="200")
        self.env.pop("PNP_DB", None)
        self.env.pop("PNP_DEBUG", None)
        self.python = str(Path(pnp).parent / "python")

    def run(self, *args, db=True, timeout=600, env=None, cwd=None, stdin=None):
        cmd = [self.pnp] + (["--db", str(self.db)] if db else []) + [str(a) for a in args]
        e = dict(self.env, **(env or {}))
        p = subprocess.run(cmd, cwd=cwd or self.root, env=e, capture_output=True, text=True,
                           timeout=timeout, stdin=subprocess.DEVNULL if stdin is None else stdin)
        return R(p)

    def popen(self, *args, env=None):
        cmd = [self.pnp, "--db", str(self.db)] + [str(a) for a in args]
        return subprocess.Popen(cmd, cwd=self.root, env=dict(self.env, **(env or {})),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)

    def py(self, code, timeout=600):
        p = subprocess.run([self.python, "-c", code], cwd=self.root, env=self.env,
                           capture_output=True, text=True, timeout=timeout)
        return R(p)

    def sql(self, q, args=()):
        c = sqlite3.connect(self.db)
        try:
            cur = c.execute(q, args)
            rows = cur.fetchall()
            c.commit()
            return rows
        finally:
            c.close()

    def out(self, *parts):
        return self.root.joinpath("output", *parts)


def sha(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def tree_sig(d):
    d = Path(d)
    return {str(p.relative_to(d)): sha(p) for p in sorted(d.rglob("*")) if p.is_file()}


def pdf_pages(path):
    p = subprocess.run(["pdfinfo", "-l", "9999", str(path)], capture_output=True, text=True)
    sizes = [(float(m.group(1)) / MM, float(m.group(2)) / MM)
             for m in re.finditer(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", p.stdout)]
    return sizes


def pdf_info(path):
    p = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True)
    return p.stdout


def qpdf_ok(path):
    p = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip().splitlines()[-1:] if p.returncode else ""


def pdftext(path, first=None, last=None):
    a = ["pdftotext", "-layout"]
    if first:
        a += ["-f", str(first), "-l", str(last or first)]
    p = subprocess.run(a + [str(path), "-"], capture_output=True, text=True)
    return p.stdout


def png_size(path):
    b = Path(path).read_bytes()[:32]
    assert b[:8] == b"\x89PNG\r\n\x1a\n", f"not a PNG: {path}"
    return int.from_bytes(b[16:20], "big"), int.from_bytes(b[20:24], "big")


def near(a, b, tol=0.6):
    return abs(a - b) <= tol


def clean_refusal(r, *names, codes=(1, 2)):
    """A clean refusal: non-zero exit in codes, no traceback, short message naming the thing."""
    if r.tb():
        return "FAIL", f"traceback (rc {r.rc})"
    if r.rc == 0:
        return "FAIL", f"exit 0 (expected refusal): {r.short()}"
    if r.rc == 70:
        return "FAIL", f"exit 70 = unexpected-error boundary: {r.short()}"
    if r.rc not in codes:
        return "QUESTION", f"exit {r.rc} (docs: {codes}): {r.short()}"
    text = r.both
    miss = [n for n in names if n.lower() not in text.lower()]
    if miss:
        return "FAIL", f"message does not name {miss}: {r.short()}"
    lines = [l for l in r.err.strip().splitlines() if l.strip()]
    if len(lines) > 6:
        return "QUESTION", f"refused but {len(lines)} lines of stderr: {r.short()}"
    return "HOLD", f"rc {r.rc}: {r.short()}"


def ok_run(r):
    if r.tb():
        return f"traceback rc {r.rc}: {r.short()}"
    if r.rc != 0:
        return f"rc {r.rc}: {r.short()}"
    return None


def cards_json(ctx, game):
    r = ctx.run("cards", "list", game, "--json")
    return json.loads(r.out)


def copies_total(ctx, game, ctype=None):
    return sum(int(c.get("copies", 1)) for c in cards_json(ctx, game)
               if ctype is None or c.get("type") == ctype)


def leftovers(d):
    """temp/partial files left in a folder tree."""
    return [str(p) for p in Path(d).rglob("*") if re.search(r"(\.tmp|\.part|~$|\.building-)", p.name)]

# --------------------------------------------------------------------------------- print

@case("P01", "README Printing: writes output/GAME/GAME-a4.pdf; qpdf accepts; all pages A4 210x297 mm")
def _(ctx):
    r = ctx.run("print", "accusation")
    if (e := ok_run(r)):
        return "FAIL", e
    pdf = ctx.out("accusation", "accusation-a4.pdf")
    if not pdf.exists():
        return "FAIL", f"no {pdf.relative_to(ctx.root)}; found {[str(p.relative_to(ctx.root)) for p in ctx.root.rglob('*.pdf')]}"
    ok, msg = qpdf_ok(pdf)
    if not ok:
        return "FAIL", f"qpdf --check: {msg}"
    bad = [s for s in pdf_pages(pdf) if not (near(s[0], 210) and near(s[1], 297))]
    return ("FAIL", f"non-A4 pages {bad[:2]}") if bad else ("HOLD", "A4 pages, qpdf ok")


@case("P02", "print summary 'N pages on a4 … K sheet(s)' matches the PDF; duplex = back page after each face page (2×sheets)")
def _(ctx):
    r = ctx.run("print", "enforcer")
    if (e := ok_run(r)):
        return "FAIL", e
    m = re.search(r"(\d+) pages on a4", r.out)
    sheets = sum(int(x) for x in re.findall(r"(\d+) sheet\(s\)", r.out))
    n = len(pdf_pages(ctx.out("enforcer", "enforcer-a4.pdf")))
    if not m or int(m.group(1)) != n:
        return "FAIL", f"summary says {m and m.group(1)} pages, pdfinfo {n}"
    if n != 2 * sheets:
        return "FAIL", f"{n} pages for {sheets} sheets with duplex"
    return "HOLD", f"{n} pages = 2×{sheets} sheets"


@case("P03", "print --json manifest: per placed card id, page, side, trim rectangle in mm; faces placed = copies (copies honoured)")
def _(ctx):
    r = ctx.run("print", "accusation", "--json")
    if (e := ok_run(r)):
        return "FAIL", e
    try:
        man = json.loads(r.out)
    except Exception as ex:
        return "FAIL", f"stdout is not JSON: {ex}: {r.out[:100]}"
    placed = _pl(man)
    if not placed:
        ks = list(man) if isinstance(man, dict) else type(man)
        return "QUESTION", f"no 'cards'/'placed' list in manifest; keys {ks}"
    faces = [p for p in placed if p.get("side") in ("face", "front")]
    total = copies_total(ctx, "accusation")
    missing = [k for k in ("id", "page", "side") if k not in placed[0]]
    if missing:
        return "FAIL", f"placed entries lack {missing}: {placed[0]}"
    if len(faces) != total:
        return "FAIL", f"{len(faces)} faces placed, copies total {total}"
    return "HOLD", f"{len(faces)} faces = copies; keys {sorted(placed[0])}"


def _pl(man):
    if isinstance(man, dict):
        for k in ("placements", "placed"):
            if isinstance(man.get(k), list):
                return man[k]
        if isinstance(man.get("cards"), list):
            return man["cards"]
    return []


def _trim(p):
    if all(k in p for k in ("x", "y", "w", "h")):
        return p["x"], p["y"], p["w"], p["h"]
    for k in ("trim", "trim_mm", "rect", "trim_rect"):
        if k in p:
            t = p[k]
            if isinstance(t, dict):
                return t.get("x"), t.get("y"), t.get("w", t.get("width")), t.get("h", t.get("height"))
            return tuple(t)
    return None


@case("P04", "manifest trim rectangles are the card size (accusation 63×88 mm) and lie on the A4 page")
def _(ctx):
    r = ctx.run("print", "accusation", "--json")
    if (e := ok_run(r)):
        return "FAIL", e
    man = json.loads(r.out)
    placed = _pl(man)
    bad = []
    for p in placed:
        t = _trim(p)
        if t is None:
            return "QUESTION", f"no trim rectangle key in {sorted(p)}"
        x, y, w, h = t[:4]
        # accept x0,y0,x1,y1 as well as x,y,w,h
        if not (near(w, 63, 0.1) and near(h, 88, 0.1)):
            w, h = w - x, h - y
        if not (near(w, 63, 0.1) and near(h, 88, 0.1)) or x < 0 or y < 0 or x + w > 210.01 or y + h > 297.01:
            bad.append((p.get("id"), t))
    return ("FAIL", f"{len(bad)} bad trims e.g. {bad[:2]}") if bad else ("HOLD", f"{len(placed)} trims 63×88 on page")


@case("P05", "--backs none: no back pages (pages = sheets); --backs separate keeps backs")
def _(ctx):
    r = ctx.run("print", "accusation", "--backs", "none", "-o", "none.pdf")
    r2 = ctx.run("print", "accusation", "-o", "duplex.pdf")
    r3 = ctx.run("print", "accusation", "--backs", "separate", "-o", "sep.pdf")
    for x in (r, r2, r3):
        if (e := ok_run(x)):
            return "FAIL", e
    a, b, c = (len(pdf_pages(ctx.root / f)) for f in ("none.pdf", "duplex.pdf", "sep.pdf"))
    if not (b == 2 * a and c >= b):
        return "FAIL", f"pages none={a} duplex={b} separate={c}"
    return "HOLD", f"pages none={a} duplex={b} separate={c}"


@case("P06", "--paper letter: every page 215.9×279.4 mm")
def _(ctx):
    r = ctx.run("print", "accusation", "--paper", "letter")
    if (e := ok_run(r)):
        return "FAIL", e
    pdfs = list(ctx.out("accusation").glob("*.pdf"))
    if not pdfs:
        return "FAIL", "no PDF"
    bad = [s for s in pdf_pages(pdfs[0]) if not (near(s[0], 215.9) and near(s[1], 279.4))]
    return ("FAIL", f"{pdfs[0].name}: pages {bad[:1]}") if bad else ("HOLD", f"{pdfs[0].name} letter pages")


@case("P07", "--paper a3 is a usage error (exit 2) naming the option; nothing written")
def _(ctx):
    r = ctx.run("print", "accusation", "--paper", "a3")
    s = clean_refusal(r, "a3", codes=(2,))
    if s[0] == "HOLD" and ctx.out().exists():
        return "FAIL", "output/ created on refusal"
    return s


@case("P08", "--bleed 0-10: 11 refused (exit 2)")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "--bleed", "11"), "bleed", codes=(2,))


@case("P09", "--bleed nan refused (0-10 range)")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "--bleed", "nan"), "bleed", codes=(2,))


@case("P10", "--gap >= 0: -1 refused")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "--gap", "-1"), "gap", codes=(2,))


@case("P11", "--gap huge (500 mm, legal by --gap >= 0): one card per sheet and a valid PDF, or one clear line; no traceback")
def _(ctx):
    r = ctx.run("print", "accusation", "--gap", "500", "-o", "g.pdf")
    if r.rc == 0:
        ok, m = qpdf_ok(ctx.root / "g.pdf")
        per = re.search(r"(\d+) per sheet", r.out)
        if ok and per and per.group(1) == "1":
            return "HOLD", "legal value (>= 0): one card per sheet, valid PDF"
        return "QUESTION", f"accepted --gap 500: {r.out.splitlines()[1:3]}"
    return clean_refusal(r, codes=(1, 2))


@case("P12", "--offset X,Y mm: 'abc' refused naming --offset")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "--offset", "abc"), "offset", codes=(2,))


@case("P13", "--offset 1,2 shifts back pages only by (1,2) mm (manifest trims)")
def _(ctx):
    a = ctx.run("print", "accusation", "--json", "-o", "a.pdf")
    b = ctx.run("print", "accusation", "--json", "--offset", "1,2", "-o", "b.pdf")
    for x in (a, b):
        if (e := ok_run(x)):
            return "FAIL", e
    pa = json.loads(a.out); pb = json.loads(b.out)
    la = _pl(pa); lb = _pl(pb)
    dx = set()
    for u, v in zip(la, lb):
        tu, tv = _trim(u), _trim(v)
        d = (round(tv[0] - tu[0], 2), round(tv[1] - tu[1], 2))
        dx.add((u["side"], d))
    faces = {d for s, d in dx if s in ("face", "front")}
    backs = {d for s, d in dx if s == "back"}
    if faces != {(0, 0)}:
        return "FAIL", f"faces moved {faces}"
    if not backs or (0, 0) in backs:
        return "FAIL", f"backs moved {backs}"
    if not all(abs(abs(x) - 1) < 0.01 and abs(abs(y) - 2) < 0.01 for x, y in backs):
        return "QUESTION", f"backs moved by {backs} (expected ±1, ±2)"
    return "HOLD", f"backs shifted {backs}"


@case("P14", "--flip short vs long: back placement differs (mirrored for the edge)")
def _(ctx):
    a = ctx.run("print", "dirty-money", "--type", "villain", "--json", "-o", "a.pdf")
    b = ctx.run("print", "dirty-money", "--type", "villain", "--json", "--flip", "short", "-o", "b.pdf")
    for x in (a, b):
        if (e := ok_run(x)):
            return "FAIL", e
    ta = [(_trim(p), p["id"]) for p in _pl(json.loads(a.out)) if p["side"] == "back"]
    tb = [(_trim(p), p["id"]) for p in _pl(json.loads(b.out)) if p["side"] == "back"]
    if not ta:
        return "QUESTION", "no back entries in manifest"
    return ("FAIL", "long and short flip place backs identically") if ta == tb else ("HOLD", "back placement differs")


@case("P15", "-o onto a device (/dev/null) is refused, one line naming the path")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "-o", "/dev/null"), "/dev/null")


@case("P16", "-o onto a FIFO is refused (never blocks), one line naming the path")
def _(ctx):
    f = ctx.root / "fifo.pdf"
    os.mkfifo(f)
    try:
        r = ctx.run("print", "accusation", "-o", f, timeout=60)
    except subprocess.TimeoutExpired:
        return "FAIL", "hung on FIFO"
    return clean_refusal(r, "fifo.pdf")


@case("P17", "-o under a path whose parent is a regular file: one line naming the path (every OS error one line)")
def _(ctx):
    (ctx.root / "afile").write_text("x")
    return clean_refusal(ctx.run("print", "accusation", "-o", "afile/sub/out.pdf"), "afile")


@case("P18", "-o into a missing nested folder: created ('a missing output folder is created')")
def _(ctx):
    r = ctx.run("print", "accusation", "-o", "new/deep/x.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    return ("HOLD", "created") if (ctx.root / "new/deep/x.pdf").exists() else ("FAIL", "file not at new/deep/x.pdf")


@case("P19", "-o an existing directory: PDF written inside it ('PDF file or directory')")
def _(ctx):
    (ctx.root / "d").mkdir()
    r = ctx.run("print", "accusation", "-o", "d")
    if (e := ok_run(r)):
        return "FAIL", e
    pdfs = list((ctx.root / "d").glob("*.pdf"))
    return ("HOLD", f"{pdfs[0].name}") if pdfs else ("FAIL", "no PDF inside d/")


@case("P20", "unknown game: exit 2, names it")
def _(ctx):
    return clean_refusal(ctx.run("print", "acusation"), "acusation", codes=(2,))


@case("P21", "unknown --type: exit 2, names the type")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "--type", "wizard"), "wizard", codes=(2,))


@case("P22", "malformed --query: message with a caret, no traceback")
def _(ctx):
    r = ctx.run("print", "accusation", "--query", "type:leader (")
    s = clean_refusal(r, codes=(1, 2))
    if s[0] == "HOLD" and "^" not in r.both:
        return "QUESTION", "refused but no caret: " + r.short()
    return s


@case("P23", "--query matching no card: no empty/half PDF left without saying so")
def _(ctx):
    r = ctx.run("print", "accusation", "--query", "name:zzzzzz")
    if r.tb():
        return "FAIL", "traceback"
    pdf = ctx.out("accusation", "accusation-a4.pdf")
    if r.rc == 0:
        if pdf.exists():
            return "QUESTION", f"exit 0 and wrote a {len(pdf_pages(pdf))}-page PDF for 0 cards: {r.short()}"
        return "QUESTION", f"exit 0 with no PDF: {r.short()}"
    return "HOLD", f"rc {r.rc}: {r.short()}"


@case("P24", "Deterministic: same database and options give a byte-identical PDF")
def _(ctx):
    a = ctx.run("print", "accusation", "-o", "a.pdf")
    b = ctx.run("print", "accusation", "-o", "b.pdf")
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    return ("HOLD", "identical") if sha(ctx.root / "a.pdf") == sha(ctx.root / "b.pdf") else ("FAIL", "bytes differ")


@case("P25", "Deterministic across cache state: PDF with an unwritable cache (PNP_CACHE_DIR a regular file) identical; one warning")
def _(ctx):
    a = ctx.run("print", "accusation", "-o", "a.pdf")
    (ctx.root / "cachefile").write_text("x")
    b = ctx.run("print", "accusation", "-o", "b.pdf", env={"PNP_CACHE_DIR": str(ctx.root / "cachefile")})
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    w = [l for l in b.err.splitlines() if "cache" in l.lower() and "warning" in l.lower()]
    if sha(ctx.root / "a.pdf") != sha(ctx.root / "b.pdf"):
        return "FAIL", "PDF differs with unwritable cache"
    if len(w) != 1:
        return "QUESTION", f"{len(w)} cache warning lines: {w[:2]}"
    return "HOLD", "identical; one warning"


@case("P26", "--changed-since unknown tag: refused naming the tag")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "--changed-since", "v9.9"), "v9.9")


@case("P27", "--changed-since TAG after one edit prints only that card with its back")
def _(ctx):
    ctx.run("release", "accusation", "v0.2")
    r0 = ctx.run("cards", "set", "accusation", "cro01", "copies=2")
    if r0.rc:
        return "QUESTION", f"could not edit: {r0.short()}"
    r = ctx.run("print", "accusation", "--changed-since", "v0.2", "--json", "-o", "re.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    pl = _pl(json.loads(r.out))
    ids = {p["id"] for p in pl}
    sides = {p["side"] for p in pl}
    if ids != {"cro01"}:
        return "FAIL", f"reprint holds {sorted(ids)[:5]}"
    if "back" not in sides:
        return "FAIL", "no backs in reprint"
    return "HOLD", f"{len(pl)} placements of cro01, sides {sorted(sides)}"


@case("P28", "pnp print calibration writes the calibration page (valid PDF)")
def _(ctx):
    r = ctx.run("print", "calibration", "-o", "cal.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    p = ctx.root / "cal.pdf"
    if not p.exists():
        return "FAIL", f"no cal.pdf; {r.short()}"
    ok, m = qpdf_ok(p)
    return ("HOLD", f"{len(pdf_pages(p))} page(s)") if ok else ("FAIL", f"qpdf {m}")


@case("P29", "page text: 100 % note and 10 mm bar note; every card stamp carries its card id")
def _(ctx):
    r = ctx.run("print", "accusation", "--type", "leader", "-o", "l.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    t = pdftext(ctx.root / "l.pdf")
    ids = [c["id"] for c in cards_json(ctx, "accusation") if c["type"] == "leader"]
    miss = [i for i in ids if i not in t]
    if "100" not in t:
        return "FAIL", "no 100 % note in page text"
    return ("FAIL", f"ids not in text: {miss}") if miss else ("HOLD", f"note and ids {ids} found")


@case("P30", "--lang en writes output/GAME-en/ and English text; output/GAME untouched")
def _(ctx):
    r = ctx.run("print", "accusation", "--lang", "en", "--type", "leader")
    if (e := ok_run(r)):
        return "FAIL", e
    pdfs = list(ctx.root.glob("output/accusation-en/*.pdf"))
    if not pdfs:
        return "FAIL", f"no PDF in output/accusation-en: {r.short()}"
    if ctx.out("accusation").exists():
        return "FAIL", "wrote into output/accusation too"
    t = pdftext(pdfs[0])
    return ("HOLD", pdfs[0].name) if "Leader" in t or "leader" in t.lower() else ("FAIL", "no English word 'Leader' on the pages")


@case("P31", "--lang xx (no such language): clean refusal naming it")
def _(ctx):
    return clean_refusal(ctx.run("print", "accusation", "--lang", "xx"), "xx")


@case("P32", "--lang en with a translation missing: clean (error or English fallback), never a traceback")
def _(ctx):
    try:
        n = ctx.sql("select count(*) from translations")[0][0]
        ctx.sql("delete from translations where rowid in (select rowid from translations limit 50)")
    except Exception as ex:
        return "QUESTION", f"could not edit translations table: {ex}"
    r = ctx.run("print", "accusation", "--lang", "en")
    if r.tb() or r.rc == 70:
        return "FAIL", f"rc {r.rc} {r.short()}"
    last = [l for l in r.err.splitlines() if l.startswith("Error")]
    if r.rc and "print in the original" in r.err:
        return "QUESTION", f"warns the missing texts 'print in the original', then rc {r.rc}: {(last or [''])[0][:200]}"
    return "HOLD", f"rc {r.rc}: {r.short()}"


@case("P33", "art missing: placeholder and a warning naming the card, region and reason; PDF still valid")
def _(ctx):
    ctx.sql("update cards set art='art/nope.png' where game='accusation' and id='cro01'")
    r = ctx.run("print", "accusation", "-o", "x.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    w = [l for l in r.err.splitlines() if "cro01" in l]
    if not w:
        return "FAIL", f"no warning naming cro01: {r.err[-200:]}"
    return "HOLD", w[0][:140]


@case("P34", "art a symlink to a file outside the database folder: placeholder + warning (art must be inside)")
def _(ctx):
    out = Path(tempfile.mkdtemp(dir="/tmp"))
    _png(out / "a.png", 600, 800)
    (ctx.root / "art").mkdir()
    os.symlink(out / "a.png", ctx.root / "art/link.png")
    ctx.sql("update cards set art='art/link.png' where game='accusation' and id='cro01'")
    r = ctx.run("print", "accusation", "-o", "x.pdf")
    shutil.rmtree(out)
    if (e := ok_run(r)):
        return "FAIL", e
    w = [l for l in r.err.splitlines() if "cro01" in l]
    return ("HOLD", w[0][:140]) if w else ("FAIL", "outside art accepted silently")


@case("P35", "art = damaged PNG (random bytes): placeholder and warning naming card, no traceback")
def _(ctx):
    (ctx.root / "art").mkdir()
    (ctx.root / "art/bad.png").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(2000))
    ctx.sql("update cards set art='art/bad.png' where game='accusation' and id='cro01'")
    r = ctx.run("print", "accusation", "-o", "x.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    w = [l for l in r.err.splitlines() if "cro01" in l]
    return ("HOLD", w[0][:140]) if w else ("FAIL", "no warning naming cro01")


@case("P36", "art over 40 megapixels: placeholder and warning, no memory blow-up")
def _(ctx):
    from_py = ("from PIL import Image; Image.new('1',(9000,5000)).save('art/huge.png')")
    (ctx.root / "art").mkdir()
    r0 = ctx.py(from_py)
    if r0.rc:
        return "QUESTION", f"could not make art: {r0.short()}"
    ctx.sql("update cards set art='art/huge.png' where game='accusation' and id='cro01'")
    r = ctx.run("print", "accusation", "-o", "x.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    w = [l for l in r.err.splitlines() if "cro01" in l]
    return ("HOLD", w[0][:140]) if w else ("FAIL", "45 MP art accepted without warning")


@case("P37", "art path is a directory: placeholder + warning naming card")
def _(ctx):
    (ctx.root / "art/dir.png").mkdir(parents=True)
    ctx.sql("update cards set art='art/dir.png' where game='accusation' and id='cro01'")
    r = ctx.run("print", "accusation", "-o", "x.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    w = [l for l in r.err.splitlines() if "cro01" in l]
    return ("HOLD", w[0][:140]) if w else ("FAIL", "no warning")


@case("P38", "a row broken by another tool: print refuses naming the card, no traceback, old PDF kept")
def _(ctx):
    r0 = ctx.run("print", "accusation")
    pdf = ctx.out("accusation", "accusation-a4.pdf")
    before = sha(pdf)
    con = sqlite3.connect(ctx.db)
    for (n,) in con.execute("select name from sqlite_master where type='trigger' and name like 'cards_guard%'"):
        con.execute(f"drop trigger {n}")
    con.execute("""update cards set fields=json_set(fields,'$.calamity','abc') where game='accusation' and id='cro02'""")
    con.commit(); con.close()
    r = ctx.run("print", "accusation")
    if r.rc == 0 and not r.tb():
        warned = "cro02" in r.err
        return "FAIL", (f"exit 0: printed cro02 whose integer field 'calamity' holds 'abc' (pnp validate lists it as an error)"
                        f"{' with a warning' if warned else ' without a word'}; old PDF replaced")
    s = clean_refusal(r, "cro02", codes=(1, 2))
    if sha(pdf) != before:
        return "FAIL", "old PDF replaced"
    return s


@case("P53", "a row broken by another tool (copies = 'abc'): print refuses naming the card, no traceback")
def _(ctx):
    con = sqlite3.connect(ctx.db)
    for (n,) in con.execute("select name from sqlite_master where type='trigger' and name like 'cards_guard%'"):
        con.execute(f"drop trigger {n}")
    con.execute("update cards set copies='abc' where game='accusation' and id='cro03'")
    con.commit(); con.close()
    return clean_refusal(ctx.run("print", "accusation"), "cro03", codes=(1, 2))


@case("P54", "a broken row: images/shop/build refuse it too, naming the card (field value 'abc' in an integer field)")
def _(ctx):
    con = sqlite3.connect(ctx.db)
    for (n,) in con.execute("select name from sqlite_master where type='trigger' and name like 'cards_guard%'"):
        con.execute(f"drop trigger {n}")
    con.execute("""update cards set fields=json_set(fields,'$.calamity','abc') where game='accusation' and id='cro02'""")
    con.commit(); con.close()
    r = ctx.run("images", "accusation", "--dpi", "30")
    if r.rc == 0 and not r.tb():
        return "FAIL", f"exit 0: drew cro02 whose integer field 'calamity' holds 'abc'{' (warned)' if 'cro02' in r.err else ' without a word'}"
    return clean_refusal(r, "cro02", codes=(1, 2))


@case("P39", "--db is a folder: refused with a message; left as it was")
def _(ctx):
    (ctx.root / "dbdir").mkdir()
    r = ctx.run("print", "accusation", db=False, env={}) if False else None
    r = subprocess.run([ctx.pnp, "--db", str(ctx.root / "dbdir"), "print", "accusation"], cwd=ctx.root,
                       env=ctx.env, capture_output=True, text=True, timeout=120)
    r = R(r)
    s = clean_refusal(r, "dbdir")
    if list((ctx.root / "dbdir").iterdir()):
        return "FAIL", "wrote into the folder"
    return s


@case("P40", "--db missing file: refused (read commands never create a file)")
def _(ctx):
    p = ctx.root / "missing.db"
    r = R(subprocess.run([ctx.pnp, "--db", str(p), "print", "accusation"], cwd=ctx.root, env=ctx.env,
                         capture_output=True, text=True, timeout=120))
    s = clean_refusal(r, "missing.db")
    if p.exists():
        return "FAIL", "created missing.db"
    return s


@case("P41", "--db an empty file: refused and left byte for byte")
def _(ctx):
    p = ctx.root / "empty.db"
    p.write_bytes(b"")
    r = R(subprocess.run([ctx.pnp, "--db", str(p), "print", "accusation"], cwd=ctx.root, env=ctx.env,
                         capture_output=True, text=True, timeout=120))
    s = clean_refusal(r, "empty.db")
    if p.stat().st_size != 0:
        return "FAIL", "empty.db changed"
    return s


@case("P42", "--db a damaged database (garbage bytes in the middle): message naming restore/salvage, no traceback")
def _(ctx):
    b = bytearray(ctx.db.read_bytes())
    for i in range(4096, min(len(b), 4096 * 40)):
        b[i] = (b[i] * 7 + 13) % 256
    ctx.db.write_bytes(bytes(b))
    before = sha(ctx.db)
    r = ctx.run("print", "accusation")
    s = clean_refusal(r, codes=(1, 2))
    if sha(ctx.db) != before:
        return "FAIL", "damaged db changed by a read"
    if s[0] == "HOLD" and not re.search(r"restore|recover|damaged|corrupt|malformed", r.both, re.I):
        return "QUESTION", "refused but no restore/salvage hint: " + r.short()
    return s


@case("P43", "a database another process holds an EXCLUSIVE lock on: one clear 'locked' line, non-zero, no traceback")
def _(ctx):
    hold = subprocess.Popen([ctx.python, "-c",
        "import sqlite3,time,sys;c=sqlite3.connect(sys.argv[1],isolation_level=None);"
        "c.execute('BEGIN EXCLUSIVE');c.execute(\"update cards set notes=notes||'' where rowid=1\");print('L',flush=True);time.sleep(30)",
        str(ctx.db)], stdout=subprocess.PIPE, text=True)
    hold.stdout.readline()
    try:
        r = ctx.run("print", "accusation", timeout=60)
    finally:
        hold.kill(); hold.wait()
    if r.rc == 0:
        return "QUESTION", "printed while another process held an exclusive lock"
    s = clean_refusal(r, "lock", codes=(1, 2))
    return s


@case("P44", "a database another process is writing (open IMMEDIATE transaction): print still reads and writes a valid PDF")
def _(ctx):
    hold = subprocess.Popen([ctx.python, "-c",
        "import sqlite3,time,sys;c=sqlite3.connect(sys.argv[1],isolation_level=None);"
        "c.execute('BEGIN IMMEDIATE');c.execute(\"update cards set notes=notes||'x' where rowid=1\");print('L',flush=True);time.sleep(30)",
        str(ctx.db)], stdout=subprocess.PIPE, text=True)
    hold.stdout.readline()
    try:
        r = ctx.run("print", "accusation", "-o", "w.pdf", timeout=120)
    finally:
        hold.kill(); hold.wait()
    if (e := ok_run(r)):
        return ("QUESTION" if "lock" in r.both.lower() and not r.tb() else "FAIL"), e
    ok, m = qpdf_ok(ctx.root / "w.pdf")
    return ("HOLD", "printed beside a writer") if ok else ("FAIL", f"qpdf {m}")


@case("P45", "two prints at once into the same -o file: both clean, final file a complete PDF, no temp file left")
def _(ctx):
    ps = [ctx.popen("print", "enforcer", "-o", "same.pdf") for _ in range(2)]
    res = [(p.wait(timeout=600), *p.communicate()) for p in ps]
    if any("Traceback" in o + e for _, o, e in res):
        return "FAIL", "traceback"
    ok, m = qpdf_ok(ctx.root / "same.pdf")
    left = [p.name for p in ctx.root.iterdir() if p.name not in ("cards.db", "same.pdf")]
    if not ok:
        return "FAIL", f"qpdf {m}"
    if left:
        return "FAIL", f"left behind {left}"
    return "HOLD", f"rcs {[x[0] for x in res]}; valid PDF"


@case("P46", "odd but legal output path (spaces, #, %, ?, CJK) works exactly as given")
def _(ctx):
    name = "my kit #1 %20 ?卡.pdf"
    r = ctx.run("print", "accusation", "--type", "leader", "-o", name)
    if (e := ok_run(r)):
        return "FAIL", e
    return ("HOLD", "written") if (ctx.root / name).exists() else ("FAIL", f"not at {name!r}: {os.listdir(ctx.root)}")


@case("P47", "--json error: {'error': …} on standard output")
def _(ctx):
    r = ctx.run("print", "nosuchgame", "--json")
    try:
        j = json.loads(r.out)
    except Exception:
        return "FAIL", f"stdout not JSON: {r.out[:80]!r} / {r.short()}"
    return ("HOLD", f"rc {r.rc} {j}") if "error" in j and r.rc else ("FAIL", f"{j} rc {r.rc}")


@case("P48", "closed stdout (print --json | head -c 20) ends quietly")
def _(ctx):
    p = subprocess.run(f"'{ctx.pnp}' --db '{ctx.db}' print accusation --json | head -c 20 >/dev/null; echo ${{PIPESTATUS[0]}}",
                       shell=True, executable="/bin/bash", cwd=ctx.root, env=ctx.env, capture_output=True, text=True, timeout=300)
    if "Traceback" in p.stderr or "Broken pipe" in p.stderr or "BrokenPipe" in p.stderr:
        return "FAIL", p.stderr.strip().splitlines()[-1][:140]
    return "HOLD", f"quiet; pnp rc {p.stdout.strip()}"


@case("P49", "--bleed 0 vs default: same cards, different PDF; trims unchanged")
def _(ctx):
    a = ctx.run("print", "accusation", "--bleed", "0", "-o", "a.pdf", "--json")
    b = ctx.run("print", "accusation", "-o", "b.pdf", "--json")
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    if sha(ctx.root / "a.pdf") == sha(ctx.root / "b.pdf"):
        return "FAIL", "bleed 0 gives the same bytes"
    return "HOLD", "differs"


@case("P50", "--no-marks differs from default marks")
def _(ctx):
    a = ctx.run("print", "accusation", "--no-marks", "-o", "a.pdf")
    b = ctx.run("print", "accusation", "-o", "b.pdf")
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    return ("FAIL", "same bytes") if sha(ctx.root / "a.pdf") == sha(ctx.root / "b.pdf") else ("HOLD", "differs")


@case("P51", "mixed sizes get one sheet layout each: dirty-money 44×67 currency trims in manifest")
def _(ctx):
    r = ctx.run("print", "dirty-money", "--json", "-o", "dm.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    pl = _pl(json.loads(r.out))
    sizes = set()
    for p in pl:
        t = _trim(p)
        sizes.add((round(t[2], 1), round(t[3], 1)))
    want = {(70.0, 70.0), (44.0, 67.0), (63.0, 88.0)}
    return ("HOLD", f"{sorted(sizes)}") if want <= sizes else ("FAIL", f"trim sizes {sorted(sizes)}")


@case("P52", "print to an existing read-only target file is replaced atomically or refused cleanly; no temp left")
def _(ctx):
    t = ctx.root / "ro.pdf"
    t.write_text("OLD")
    os.chmod(t, 0o444)
    r = ctx.run("print", "accusation", "-o", t)
    left = [p.name for p in ctx.root.iterdir() if p.name not in ("cards.db", "ro.pdf")]
    if r.tb():
        return "FAIL", "traceback"
    if left:
        return "FAIL", f"left {left}"
    if r.rc == 0:
        ok, _m = qpdf_ok(t)
        return ("HOLD", "replaced atomically") if ok else ("FAIL", "rc 0 but not a PDF")
    return ("HOLD", r.short()) if t.read_text() == "OLD" else ("FAIL", "old file damaged")


# --------------------------------------------------------------------------------- images / proof


def _png(path, w, h, color=(200, 30, 30)):
    import zlib, struct
    raw = b"".join(b"\x00" + bytes(color) * w for _ in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                          + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@case("I01", "images at --dpi 300: a 63×88 mm card is 744×1039 px ('at the card's size')")
def _(ctx):
    r = ctx.run("images", "accusation", "--type", "leader")
    if (e := ok_run(r)):
        return "FAIL", e
    pngs = sorted(ctx.out("accusation", "images").glob("*.png"))
    if not pngs:
        return "FAIL", "no PNG in output/accusation/images"
    sizes = {png_size(p) for p in pngs}
    trim = (round(63 / 25.4 * 300), round(88 / 25.4 * 300))
    bleed = (round(69 / 25.4 * 300), round(94 / 25.4 * 300))
    if all(abs(w - trim[0]) <= 2 and abs(h - trim[1]) <= 2 for w, h in sizes):
        return "HOLD", f"{sizes}"
    if all(abs(w - bleed[0]) <= 2 and abs(h - bleed[1]) <= 2 for w, h in sizes):
        return "QUESTION", f"{sizes}: card size with 3 mm bleed, docs say 'at the card's size'"
    return "FAIL", f"sizes {sizes}, expected {trim}"


@case("I02", "images one PNG per face and per card type's back (count)")
def _(ctx):
    r = ctx.run("images", "accusation", "--dpi", "30")
    if (e := ok_run(r)):
        return "FAIL", e
    pngs = list(ctx.out("accusation", "images").glob("*.png"))
    n_cards = len(cards_json(ctx, "accusation"))
    want = n_cards + 5
    return ("HOLD", f"{len(pngs)} files") if len(pngs) == want else ("QUESTION", f"{len(pngs)} files, {n_cards} cards + 5 backs = {want}")


@case("I03", "images --dpi 29 refused (30-1200)")
def _(ctx):
    return clean_refusal(ctx.run("images", "accusation", "--dpi", "29"), "dpi", codes=(2,))


@case("I04", "images --dpi 1201 refused")
def _(ctx):
    return clean_refusal(ctx.run("images", "accusation", "--dpi", "1201"), "dpi", codes=(2,))


@case("I05", "images --json lists files that exist")
def _(ctx):
    r = ctx.run("images", "accusation", "--dpi", "30", "--type", "leader", "--json")
    if (e := ok_run(r)):
        return "FAIL", e
    try:
        j = json.loads(r.out)
    except Exception as ex:
        return "FAIL", f"not JSON {ex}"
    s = json.dumps(j)
    files = re.findall(r'"([^"]+\.png)"', s)
    miss = [f for f in files if not (Path(f).exists() or (ctx.root / f).exists())]
    if not files:
        return "QUESTION", f"no .png names in JSON: {s[:120]}"
    return ("FAIL", f"missing {miss[:2]}") if miss else ("HOLD", f"{len(files)} files exist")


@case("I06", "images -o an existing regular file: one line naming the path")
def _(ctx):
    (ctx.root / "f").write_text("x")
    s = clean_refusal(ctx.run("images", "accusation", "--dpi", "30", "-o", "f"), "f")
    if (ctx.root / "f").read_text() != "x":
        return "FAIL", "file overwritten"
    return s


@case("I07", "images of dirty-money currency 44×67 mm at 300 dpi: 520×791 px")
def _(ctx):
    r = ctx.run("images", "dirty-money", "--type", "currency")
    if (e := ok_run(r)):
        return "FAIL", e
    sizes = {png_size(p) for p in ctx.out("dirty-money", "images").glob("*.png")}
    ok = all(abs(w - 520) <= 2 and abs(h - 791) <= 2 for w, h in sizes)
    return ("HOLD", f"{sizes}") if ok else ("FAIL" if len(sizes) else "FAIL", f"sizes {sizes}")


@case("I08", "proof writes a readable PNG contact sheet at output/GAME/GAME-proof.png (--json parses)")
def _(ctx):
    r = ctx.run("proof", "accusation", "--json")
    if (e := ok_run(r)):
        return "FAIL", e
    try:
        json.loads(r.out)
    except Exception as ex:
        return "FAIL", f"--json not JSON: {ex}"
    pngs = list(ctx.out("accusation").glob("*.png"))
    if not pngs:
        return "FAIL", "no proof png"
    w, h = png_size(pngs[0])
    return "HOLD", f"{pngs[0].name} {w}×{h}"


@case("I09", "proof --type unknown: exit 2 naming it")
def _(ctx):
    return clean_refusal(ctx.run("proof", "accusation", "--type", "nope"), "nope", codes=(2,))


@case("I10", "proof -o /dev/null (a device) refused")
def _(ctx):
    return clean_refusal(ctx.run("proof", "accusation", "-o", "/dev/null"), "/dev/null")


# --------------------------------------------------------------------------------- helpers / rules

@case("H01", "helpers: PDF on A4, qpdf ok, summary page count matches")
def _(ctx):
    r = ctx.run("helpers", "enforcer")
    if (e := ok_run(r)):
        return "FAIL", e
    pdfs = list(ctx.out("enforcer").glob("*helpers*.pdf"))
    if not pdfs:
        return "FAIL", "no helpers PDF"
    ok, m = qpdf_ok(pdfs[0])
    n = len(pdf_pages(pdfs[0]))
    m2 = re.search(r"(\d+) pages", r.out)
    if not ok:
        return "FAIL", f"qpdf {m}"
    if m2 and int(m2.group(1)) != n:
        return "FAIL", f"says {m2.group(1)} pages, is {n}"
    return "HOLD", f"{pdfs[0].name}: {n} pages"


@case("H02", "helpers --players 9 for a 3–6 player game: refused naming the players")
def _(ctx):
    return clean_refusal(ctx.run("helpers", "enforcer", "--players", "9"), "player")


@case("H03", "helpers --players 0 refused")
def _(ctx):
    return clean_refusal(ctx.run("helpers", "enforcer", "--players", "0"), "player")


@case("H04", "helpers --players N gives more per-player aids than N-1 (one per player)")
def _(ctx):
    a = ctx.run("helpers", "enforcer", "--players", "3", "--json", "-o", "a.pdf")
    b = ctx.run("helpers", "enforcer", "--players", "6", "--json", "-o", "b.pdf")
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    def nfaces(o):
        j = json.loads(o)
        s = json.dumps(j)
        return s.count('"side": "face"') or s.count('"side": "front"')
    fa, fb = nfaces(a.out), nfaces(b.out)
    return ("HOLD", f"3p {fa} faces, 6p {fb}") if fb > fa else ("FAIL", f"3p {fa} faces, 6p {fb}")


@case("H05", "helpers --bleed 10.5 refused")
def _(ctx):
    return clean_refusal(ctx.run("helpers", "enforcer", "--bleed", "10.5"), "bleed", codes=(2,))


@case("U01", "rules --format md -o - writes Markdown to stdout, starting with '# '")
def _(ctx):
    r = ctx.run("rules", "infiltraitors", "--format", "md", "-o", "-")
    if (e := ok_run(r)):
        return "FAIL", e
    return ("HOLD", r.out.splitlines()[0][:60]) if r.out.startswith("# ") else ("FAIL", r.out[:80])


@case("U02", "rules (pdf) is a 1-4 page summary (README: three-page) on A4, qpdf ok")
def _(ctx):
    r = ctx.run("rules", "enforcer")
    if (e := ok_run(r)):
        return "FAIL", e
    pdfs = list(ctx.out("enforcer").glob("*.pdf"))
    if not pdfs:
        return "FAIL", "no PDF"
    ps = pdf_pages(pdfs[0])
    ok, m = qpdf_ok(pdfs[0])
    if not ok:
        return "FAIL", f"qpdf {m}"
    if not 1 <= len(ps) <= 4:
        return "FAIL", f"{len(ps)} pages"
    if not all(near(w, 210) and near(h, 297) for w, h in ps):
        return "FAIL", f"page sizes {ps[:1]}"
    return "HOLD", f"{pdfs[0].name} {len(ps)} pages"


@case("U03", "rules --format docx refused (pdf or md)")
def _(ctx):
    return clean_refusal(ctx.run("rules", "enforcer", "--format", "docx"), "docx", codes=(2,))


@case("U04", "rules --format pdf -o - ('- for standard output (md)'): refused cleanly or valid PDF bytes")
def _(ctx):
    p = subprocess.run([ctx.pnp, "--db", str(ctx.db), "rules", "enforcer", "-o", "-"], cwd=ctx.root, env=ctx.env,
                       capture_output=True, timeout=300)
    if b"Traceback" in p.stdout + p.stderr:
        return "FAIL", "traceback"
    if p.returncode == 0:
        if p.stdout.startswith(b"%PDF"):
            return "HOLD", "PDF on stdout"
        if (ctx.root / "-").exists():
            return "FAIL", "wrote a file named '-'"
        return "QUESTION", f"rc 0, stdout {p.stdout[:40]!r}"
    return "HOLD", f"rc {p.returncode}: {p.stderr.decode()[:120]}"


@case("U05", "rules --paper letter: letter pages")
def _(ctx):
    r = ctx.run("rules", "enforcer", "--paper", "letter")
    if (e := ok_run(r)):
        return "FAIL", e
    pdfs = list(ctx.out("enforcer").glob("*.pdf"))
    ps = pdf_pages(pdfs[0]) if pdfs else []
    ok = ps and all(near(w, 215.9) and near(h, 279.4) for w, h in ps)
    return ("HOLD", pdfs[0].name) if ok else ("FAIL", f"{[p.name for p in pdfs]} {ps[:1]}")


@case("U06", "rules: component counts are computed from the cards (follows the deck after an edit)")
def _(ctx):
    a = ctx.run("rules", "accusation", "--format", "md", "-o", "-")
    r0 = ctx.run("cards", "set", "accusation", "cro01", "copies=5")
    if r0.rc:
        return "QUESTION", f"edit refused: {r0.short()}"
    b = ctx.run("rules", "accusation", "--format", "md", "-o", "-")
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    # cro01 is a leader (2 leaders of 1 copy each): 2 → 6 copies
    la = [l for l in a.out.splitlines() if "Leader" in l and l.startswith("|")]
    lb = [l for l in b.out.splitlines() if "Leader" in l and l.startswith("|")]
    if not la:
        return "QUESTION", "no Leader component row in the summary"
    return ("HOLD", f"{la[0].strip()} → {lb[0].strip()}") if la != lb and "6" in "".join(lb) else ("FAIL", f"{la} vs {lb}")


@case("U07", "rules --lang en (md): English text")
def _(ctx):
    r = ctx.run("rules", "accusation", "--lang", "en", "--format", "md", "-o", "-")
    if (e := ok_run(r)):
        return "FAIL", e
    cjk = len(re.findall(r"[\u4e00-\u9fff]", r.out))
    return ("HOLD", r.out.splitlines()[0][:60]) if "Accusation" in r.out else ("FAIL", r.out[:80])


@case("U08", "rules -o a path under a regular file: one line naming it")
def _(ctx):
    (ctx.root / "f").write_text("x")
    return clean_refusal(ctx.run("rules", "enforcer", "-o", "f/r.pdf"), "f")


# --------------------------------------------------------------------------------- build

def _manifest_check(kit):
    m = json.loads((kit / "manifest.json").read_text())
    files = m.get("files") or []
    bad = []
    for f in files:
        p = kit / (f.get("path") or f.get("file") or f.get("name"))
        if not p.exists():
            bad.append(f"missing {p.name}")
            continue
        if "sha256" in f and f["sha256"] != sha(p):
            bad.append(f"sha {p.name}")
        if "size" in f and f["size"] != p.stat().st_size:
            bad.append(f"size {p.name}")
        if f.get("pages") and p.suffix == ".pdf" and f["pages"] != len(pdf_pages(p)):
            bad.append(f"pages {p.name} {f['pages']} vs {len(pdf_pages(p))}")
    return m, files, bad


@case("B01", "build GAME: manifest.json lists every file with size, pages, sha256 that match the files")
def _(ctx):
    r = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if (e := ok_run(r)):
        return "FAIL", e
    kit = ctx.out("accusation")
    m, files, bad = _manifest_check(kit)
    on_disk = {str(p.relative_to(kit)) for p in kit.rglob("*") if p.is_file()} - {"manifest.json"}
    listed = {f.get("path") or f.get("file") or f.get("name") for f in files}
    extra = on_disk - listed
    if bad:
        return "FAIL", f"{bad[:3]}"
    if extra:
        return "QUESTION", f"{len(extra)} files not in manifest, e.g. {sorted(extra)[:3]}"
    return "HOLD", f"{len(files)} files verified"


@case("B02", "build kit holds sheets with backs, helpers, summary PDF+MD, images, TTS sheets + saved object")
def _(ctx):
    r = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if (e := ok_run(r)):
        return "FAIL", e
    kit = ctx.out("accusation")
    names = [str(p.relative_to(kit)) for p in kit.rglob("*") if p.is_file()]
    need = {"sheets pdf": r"accusation-a4\.pdf$", "helpers": r"helpers.*\.pdf$", "summary md": r"\.md$",
            "images": r"images/.*\.png$", "tts json": r"tts/accusation\.json$", "tts sheet": r"tts/.*\.png$"}
    miss = [k for k, rx in need.items() if not any(re.search(rx, n) for n in names)]
    return ("FAIL", f"missing {miss}") if miss else ("HOLD", f"{len(names)} files, all parts present")


@case("B03", "build with nothing changed keeps the kit (fast, files unchanged); --force rebuilds")
def _(ctx):
    a = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    s1 = tree_sig(ctx.out("accusation"))
    t = time.time()
    b = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    dt = time.time() - t
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    s2 = tree_sig(ctx.out("accusation"))
    if s1 != s2:
        return "FAIL", "kit changed on unchanged rebuild"
    return ("HOLD", f"unchanged, {dt:.1f}s") if dt < 6 else ("QUESTION", f"unchanged but took {dt:.1f}s (target ≤3 s)")


@case("B04", "build --shop bogus: refused before any work, naming allowed profiles; nothing written")
def _(ctx):
    r = ctx.run("build", "accusation", "--shop", "bogus")
    s = clean_refusal(r, "mpc", codes=(1, 2))
    if ctx.out().exists() and any(ctx.out().rglob("*")):
        return "FAIL", "wrote output"
    return s


@case("B05", "build --cut bogus: refused before any work naming the machines")
def _(ctx):
    r = ctx.run("build", "accusation", "--cut", "laser")
    s = clean_refusal(r, "silhouette", codes=(1, 2))
    if ctx.out().exists() and any(ctx.out().rglob("*")):
        return "FAIL", "wrote output"
    return s


@case("B06", "a failed build keeps the previous kit intact (broken layout override beside the db)")
def _(ctx):
    a = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if (e := ok_run(a)):
        return "FAIL", e
    s1 = tree_sig(ctx.out("accusation"))
    (ctx.root / "templates/accusation").mkdir(parents=True)
    (ctx.root / "templates/accusation/leader.toml").write_text("this is [not toml\n")
    b = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if b.tb() or b.rc == 70:
        return "FAIL", f"rc {b.rc} {b.short()}"
    if b.rc == 0:
        return "QUESTION", "build with a broken layout override succeeded"
    if tree_sig(ctx.out("accusation")) != s1:
        return "FAIL", "previous kit changed"
    if "leader.toml" not in b.both:
        return "FAIL", f"error does not name the layout: {b.short()}"
    return "HOLD", b.short()


@case("B07", "output/GAME a symlink: replaced by the new kit, link removed, target left as it was")
def _(ctx):
    other = ctx.root / "elsewhere"
    other.mkdir()
    (other / "keep.txt").write_text("keep")
    ctx.out().mkdir()
    os.symlink(other, ctx.out("accusation"))
    r = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if (e := ok_run(r)):
        return "FAIL", e
    if ctx.out("accusation").is_symlink():
        return "FAIL", "still a symlink"
    if [p.name for p in other.iterdir()] != ["keep.txt"]:
        return "FAIL", f"target changed: {[p.name for p in other.iterdir()]}"
    olds = [p.name for p in ctx.out().iterdir() if p.name.startswith(".")]
    return ("FAIL", f"left {olds}") if olds else ("HOLD", "replaced; target intact")


@case("B08", "a stale .GAME.building-PID-… folder is removed by the next build")
def _(ctx):
    ctx.out().mkdir()
    st = ctx.out(".accusation.building-99999-abc")
    st.mkdir()
    (st / "junk").write_text("x")
    r = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if (e := ok_run(r)):
        return "FAIL", e
    return ("FAIL", "stale folder left") if st.exists() else ("HOLD", "removed")


@case("B09", "build --players 1 for a 2–4 player game: refused (every game built must allow N)")
def _(ctx):
    return clean_refusal(ctx.run("build", "accusation", "--players", "1"), "player")


@case("B10", "build --dpi 5 refused (30-1200)")
def _(ctx):
    return clean_refusal(ctx.run("build", "accusation", "--dpi", "5"), "dpi", codes=(2,))


@case("B11", "build -o a regular file: one line naming it; file untouched")
def _(ctx):
    (ctx.root / "f").write_text("x")
    s = clean_refusal(ctx.run("build", "accusation", "-o", "f", "--no-progress"), "f")
    return ("FAIL", "file changed") if (ctx.root / "f").read_text() != "x" else s


@case("B12", "two builds at once into the same output: both clean, final kit consistent with its manifest")
def _(ctx):
    ps = [ctx.popen("build", "accusation", "--dpi", "60", "--no-progress", "--force") for _ in range(2)]
    res = [(p.wait(timeout=900), *p.communicate()) for p in ps]
    if any("Traceback" in o + e for _, o, e in res):
        return "FAIL", "traceback"
    if any(rc == 70 for rc, _, _ in res):
        return "FAIL", "exit 70"
    kit = ctx.out("accusation")
    if not (kit / "manifest.json").exists():
        return "FAIL", f"no kit; rcs {[r[0] for r in res]}"
    _m, files, bad = _manifest_check(kit)
    hidden = [p.name for p in ctx.out().iterdir() if p.name.startswith(".")]
    if bad:
        return "FAIL", f"kit inconsistent {bad[:3]}"
    if hidden:
        return "FAIL", f"left {hidden}"
    return "HOLD", f"rcs {[r[0] for r in res]}; kit consistent"


@case("B13", "build --lang en: into output/GAME-en/, output/GAME untouched")
def _(ctx):
    r = ctx.run("build", "accusation", "--lang", "en", "--dpi", "60", "--no-progress")
    if (e := ok_run(r)):
        return "FAIL", e
    if not (ctx.out("accusation-en") / "manifest.json").exists():
        return "FAIL", f"no output/accusation-en/manifest.json: {r.short()}"
    return ("FAIL", "also wrote output/accusation") if ctx.out("accusation").exists() else ("HOLD", "accusation-en kit")


@case("B14", "build --shop mpc --cut silhouette: shop/mpc and cut/silhouette listed with kinds shop-image, cut-sheets, cut-file-svg, cut-file-dxf")
def _(ctx):
    r = ctx.run("build", "accusation", "--dpi", "60", "--shop", "mpc", "--cut", "silhouette", "--no-progress")
    if r.rc == 1 and not r.tb():
        return "QUESTION", f"build refused (preflight?): {r.short()}"
    if (e := ok_run(r)):
        return "FAIL", e
    m = json.loads(ctx.out("accusation", "manifest.json").read_text())
    kinds = {f.get("kind") for f in m.get("files", [])}
    need = {"shop-image", "shop-back", "cut-sheets", "cut-file-svg", "cut-file-dxf"}
    return ("HOLD", "kinds present") if need <= kinds else ("FAIL", f"missing kinds {need - kinds}")


@case("B15", "build unknown game: exit 2 naming it; no output")
def _(ctx):
    s = clean_refusal(ctx.run("build", "acusation"), "acusation", codes=(2,))
    return ("FAIL", "output created") if ctx.out().exists() and any(ctx.out().iterdir()) else s


@case("B16", "build --json prints JSON that parses")
def _(ctx):
    r = ctx.run("build", "accusation", "--dpi", "60", "--json", "--no-progress")
    if (e := ok_run(r)):
        return "FAIL", e
    try:
        json.loads(r.out)
        return "HOLD", "parses"
    except Exception as ex:
        return "FAIL", f"{ex}: {r.out[:80]!r}"


# --------------------------------------------------------------------------------- shop / preflight

@case("S01", "shop mpc: PNG per face and back at 822×1122 px for 63×88 mm (poker, 300 dpi with bleed)")
def _(ctx):
    r = ctx.run("shop", "accusation", "--profile", "mpc", "--type", "leader")
    if r.rc == 1 and not r.tb():
        return "QUESTION", f"shop refused: {r.short()}"
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("accusation", "shop", "mpc")
    sizes = {png_size(p) for p in d.glob("*.png")}
    return ("HOLD", f"{sizes}") if sizes == {(822, 1122)} else ("FAIL", f"sizes {sizes} in {d}")


@case("S02", "shop tgc: 825×1125 px, RGB")
def _(ctx):
    r = ctx.run("shop", "accusation", "--profile", "tgc", "--type", "leader")
    if r.rc == 1 and not r.tb():
        return "QUESTION", f"shop refused: {r.short()}"
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("accusation", "shop", "tgc")
    ps = list(d.glob("*.png"))
    sizes = {png_size(p) for p in ps}
    ctypes = {p.read_bytes()[25] for p in ps}  # PNG colour type: 2 RGB, 6 RGBA
    if sizes != {(825, 1125)}:
        return "FAIL", f"sizes {sizes}"
    return ("HOLD", "825×1125 RGB") if ctypes == {2} else ("QUESTION", f"PNG colour types {ctypes} (2 = RGB, 6 = RGBA)")


@case("S03", "shop drivethru: one CMYK PDF per type, pages 2.75×3.75 in, PDF 1.4, TrimBox+BleedBox every page, GTS_PDFXVersion, no DeviceRGB")
def _(ctx):
    r = ctx.run("shop", "accusation", "--profile", "drivethru", "--type", "leader")
    if r.rc == 1 and not r.tb():
        return "QUESTION", f"shop refused: {r.short()}"
    if (e := ok_run(r)):
        return "FAIL", e
    pdfs = list(ctx.out("accusation", "shop", "drivethru").glob("*.pdf"))
    if len(pdfs) != 1:
        return "FAIL", f"{len(pdfs)} PDFs for one type"
    p = pdfs[0]
    ok, m = qpdf_ok(p)
    if not ok:
        return "FAIL", f"qpdf {m}"
    raw = subprocess.run(["qpdf", "--qdf", "--object-streams=disable", str(p), "-"], capture_output=True).stdout
    probs = []
    if not raw.startswith(b"%PDF-1.4") and not p.read_bytes().startswith(b"%PDF-1.4"):
        probs.append("not PDF 1.4: " + p.read_bytes()[:8].decode("latin1"))
    npages = len(pdf_pages(p))
    if raw.count(b"/TrimBox") < npages or raw.count(b"/BleedBox") < npages:
        probs.append(f"TrimBox {raw.count(b'/TrimBox')} BleedBox {raw.count(b'/BleedBox')} for {npages} pages")
    if b"GTS_PDFXVersion" not in raw:
        probs.append("no GTS_PDFXVersion")
    if b"DeviceRGB" in raw:
        probs.append("DeviceRGB present")
    # mediabox vs 2.75x3.75in (+ bleed?) — trim box must be 63.5×88.9 or the card size
    tb = re.findall(rb"/TrimBox \[ ?([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) ?\]", raw)
    if tb:
        x0, y0, x1, y1 = map(float, tb[0])
        tw, th = (x1 - x0) / MM, (y1 - y0) / MM
        if not (near(tw, 63.5, 0.6) and near(th, 88.9, 0.6)) and not (near(tw, 63, .3) and near(th, 88, .3)):
            probs.append(f"TrimBox {tw:.1f}×{th:.1f} mm")
    sz = pdf_pages(p)[0]
    if not (near(sz[0], 69.85, 0.6) and near(sz[1], 95.25, 0.6)):
        probs.append(f"page {sz[0]:.1f}×{sz[1]:.1f} mm, docs 2.75×3.75 in = 69.9×95.3")
    return ("FAIL", "; ".join(probs)) if probs else ("HOLD", f"{p.name}: {npages} pages, PDF/X keys ok")


@case("S04", "shop --profile bogus: refused naming the profiles")
def _(ctx):
    return clean_refusal(ctx.run("shop", "accusation", "--profile", "bogus"), "mpc", codes=(2,))


@case("S05", "shop tgc dirty-money (44×67 mm no product fits): refused with the list of products, exit 1, nothing written")
def _(ctx):
    r = ctx.run("shop", "dirty-money", "--profile", "tgc")
    s = clean_refusal(r, "44", codes=(1,))
    d = ctx.out("dirty-money", "shop", "tgc")
    if d.exists() and any(d.iterdir()):
        return "FAIL", "files written despite refusal"
    return s


@case("S06", "shop manifest.json parses; faces numbered in deck order carrying copies (NNN-ID-xN.png)")
def _(ctx):
    r = ctx.run("shop", "dirty-money", "--profile", "mpc", "--type", "currency")
    if r.rc == 1 and not r.tb():
        return "QUESTION", f"shop refused: {r.short()}"
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("dirty-money", "shop", "mpc")
    try:
        json.loads((d / "manifest.json").read_text())
    except Exception as ex:
        return "FAIL", f"manifest: {ex}"
    names = sorted(p.name for p in d.glob("*.png"))
    multi = [c for c in cards_json(ctx, "dirty-money") if c["type"] == "currency" and int(c["copies"]) > 1]
    pat = [n for n in names if re.match(r"\d{3}-.+-x\d+\.png$", n)]
    if multi and not pat:
        return "FAIL", f"no -xN names; e.g. {names[:3]}"
    return "HOLD", f"{len(names)} files e.g. {pat[:1] or names[:1]}"


@case("S07", "shop with unreadable art: preflight error naming the card, exit 1, shop writes nothing")
def _(ctx):
    (ctx.root / "art").mkdir()
    (ctx.root / "art/bad.png").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(500))
    ctx.sql("update cards set art='art/bad.png' where game='accusation' and id='cro01'")
    r = ctx.run("shop", "accusation", "--profile", "mpc")
    s = clean_refusal(r, "cro01", codes=(1,))
    d = ctx.out("accusation", "shop", "mpc")
    if d.exists() and any(d.iterdir()):
        return "FAIL", "shop wrote files despite a preflight error"
    return s


@case("S08", "preflight: art below the shop's resolution at printed size is an error naming the card, exit 1")
def _(ctx):
    (ctx.root / "art").mkdir()
    _png(ctx.root / "art/tiny.png", 12, 16)
    ctx.sql("update cards set art='art/tiny.png' where game='accusation' and id='cro01'")
    return clean_refusal(ctx.run("preflight", "accusation", "--profile", "mpc"), "cro01", codes=(1,))


@case("S09", "preflight --json parses and exit code agrees with errors")
def _(ctx):
    r = ctx.run("preflight", "accusation", "--profile", "mpc", "--json")
    if r.tb() or r.rc == 70:
        return "FAIL", r.short()
    try:
        j = json.loads(r.out)
    except Exception as ex:
        return "FAIL", f"not JSON: {ex}"
    s = json.dumps(j)
    has_err = '"severity": "error"' in s or (isinstance(j, dict) and j.get("errors"))
    if bool(has_err) != (r.rc == 1):
        return "FAIL", f"rc {r.rc} but errors={bool(has_err)}"
    return "HOLD", f"rc {r.rc}"


@case("S10", "preflight dirty-money tgc: 'a card size no product fits' error, exit 1")
def _(ctx):
    return clean_refusal(ctx.run("preflight", "dirty-money", "--profile", "tgc"), "currency", codes=(1,))


@case("S11", "preflight without --profile: clean (a default or a usage error), no traceback")
def _(ctx):
    r = ctx.run("preflight", "accusation")
    if r.tb() or r.rc == 70:
        return "FAIL", r.short()
    return "HOLD", f"rc {r.rc}: {r.short()}"


@case("S12", "shop -o a regular file: one line naming the path")
def _(ctx):
    (ctx.root / "f").write_text("x")
    s = clean_refusal(ctx.run("shop", "accusation", "--profile", "mpc", "--type", "leader", "-o", "f"), "f")
    return ("FAIL", "file changed") if (ctx.root / "f").read_text() != "x" else s


@case("S13", "preflight: high-resolution art that stops at the trim (no bleed) is only a warning, exit 0")
def _(ctx):
    (ctx.root / "art").mkdir()
    _png(ctx.root / "art/good.png", 900, 1200)
    ctx.sql("update cards set art='art/good.png' where game='accusation' and type='leader'")
    r = ctx.run("preflight", "accusation", "--profile", "mpc", "--type", "leader")
    if r.tb():
        return "FAIL", "traceback"
    return ("HOLD", r.short()) if r.rc == 0 else ("QUESTION", f"rc {r.rc}: {r.short()}")


# --------------------------------------------------------------------------------- cut

def _svg_rects(path):
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    shapes = [e for e in root.iter() if e.tag in (ns + "rect", "rect", ns + "path", "path")]
    return root, shapes


def _outline_size(e):
    """(w, h, corner radius) of a rect or a rounded-rect path."""
    if e.tag.endswith("rect"):
        return float(e.get("width")), float(e.get("height")), float(e.get("rx") or 0)
    d = e.get("d", "")
    pts = [(float(a), float(b)) for a, b in re.findall(r"[ML]\s*(-?[\d.]+)[ ,](-?[\d.]+)", d)]
    pts += [(float(a), float(b)) for a, b in re.findall(r"[01] [01] (-?\d+\.\d+)[ ,](-?\d+\.\d+)", d)]
    rad = re.findall(r"A\s*([\d.]+)", d)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return max(xs) - min(xs), max(ys) - min(ys), float(rad[0]) if rad else 0.0


@case("C01", "cut silhouette: A4 print PDF with faces only; one SVG and one DXF per sheet; SVG parses")
def _(ctx):
    r = ctx.run("cut", "accusation", "--machine", "silhouette", "--json")
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("accusation", "cut", "silhouette")
    pdfs, svgs, dxfs = list(d.glob("*.pdf")), sorted(d.glob("*.svg")), sorted(d.glob("*.dxf"))
    if len(pdfs) != 1:
        return "FAIL", f"{len(pdfs)} PDFs in {d}"
    pages = pdf_pages(pdfs[0])
    if not all(near(w, 210) and near(h, 297) for w, h in pages):
        return "FAIL", "not A4"
    if len(svgs) != len(pages) or len(dxfs) != len(pages):
        return "FAIL", f"{len(pages)} pages, {len(svgs)} svg, {len(dxfs)} dxf"
    for s in svgs:
        ET.parse(s)
    return "HOLD", f"{len(pages)} sheets, svg+dxf each"


@case("C02", "cut SVG: page-sized canvas in mm; one outline per printed card (all sheets = copies), trim 63×88 mm, corner radius 3 mm")
def _(ctx):
    r = ctx.run("cut", "accusation", "--machine", "silhouette")
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("accusation", "cut", "silhouette")
    probs, n = [], 0
    for svg in sorted(d.glob("*.svg")):
        root, shapes = _svg_rects(svg)
        w, h = root.get("width", ""), root.get("height", "")
        if not (w.startswith("210") and h.startswith("297")):
            probs.append(f"{svg.name} size {w}×{h}")
        for s in shapes:
            n += 1
            ow, oh, rad = _outline_size(s)
            if not (near(ow, 63, 0.05) and near(oh, 88, 0.05) and near(rad, 3, 0.01)):
                probs.append(f"{svg.name}: outline {ow:.2f}×{oh:.2f} r{rad}")
                break
    want = copies_total(ctx, "accusation")
    if n != want:
        probs.append(f"{n} outlines in all SVGs, {want} copies")
    return ("FAIL", "; ".join(probs[:3])) if probs else ("HOLD", f"{n} outlines 63×88 r3 on 210×297 mm")


@case("C03", "cut DXF: parses with ezdxf, R2000 (AC1015), $INSUNITS 4 (mm), one layer CUT, outlines only")
def _(ctx):
    r = ctx.run("cut", "accusation", "--machine", "silhouette")
    if (e := ok_run(r)):
        return "FAIL", e
    dxf = sorted(ctx.out("accusation", "cut", "silhouette").glob("*.dxf"))[0]
    code = ("import ezdxf,sys,json;d=ezdxf.readfile(sys.argv[1]);m=d.modelspace();"
            "print(json.dumps({'v':d.dxfversion,'u':d.header.get('$INSUNITS'),'layers':sorted({e.dxf.layer for e in m}),"
            "'n':len(m),'types':sorted({e.dxftype() for e in m})}))")
    p = subprocess.run([ctx.python, "-c", code, str(dxf)], capture_output=True, text=True)
    if p.returncode:
        return "FAIL", f"ezdxf: {p.stderr.strip().splitlines()[-1]}"
    j = json.loads(p.stdout)
    probs = []
    if j["v"] != "AC1015":
        probs.append(f"version {j['v']}")
    if j["u"] != 4:
        probs.append(f"INSUNITS {j['u']}")
    if j["layers"] != ["CUT"]:
        probs.append(f"layers {j['layers']}")
    svg = dxf.with_suffix(".svg")
    n_out = len(_svg_rects(svg)[1]) if svg.exists() else None
    if n_out is not None and not (j["n"] == n_out or j["n"] == 8 * n_out):
        probs.append(f"{j['n']} entities {j['types']} for {n_out} outlines in the SVG (extra shapes?)")
    return ("FAIL", "; ".join(probs)) if probs else ("HOLD", f"{j}")


@case("C04", "cut cricut --paper letter: letter pages; fewer cards per sheet than silhouette on letter")
def _(ctx):
    a = ctx.run("cut", "accusation", "--machine", "cricut", "--paper", "letter", "--json")
    b = ctx.run("cut", "accusation", "--machine", "silhouette", "--paper", "letter", "--json")
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    pc = list(ctx.out("accusation", "cut", "cricut").glob("*.pdf"))
    ps = list(ctx.out("accusation", "cut", "silhouette").glob("*.pdf"))
    if not pc or not ps:
        return "FAIL", "PDFs missing"
    sc, ss = pdf_pages(pc[0]), pdf_pages(ps[0])
    if not all(near(w, 215.9) and near(h, 279.4) for w, h in sc):
        return "FAIL", f"cricut pages {sc[:1]}"
    return ("HOLD", f"cricut {len(sc)} sheets, silhouette {len(ss)}") if len(sc) >= len(ss) else ("FAIL", f"cricut {len(sc)} < silhouette {len(ss)}")


@case("C05", "cut --machine bogus: refused naming the machines")
def _(ctx):
    return clean_refusal(ctx.run("cut", "accusation", "--machine", "laser"), "silhouette", codes=(2,))


@case("C06", "cut without --machine: usage error, no traceback")
def _(ctx):
    return clean_refusal(ctx.run("cut", "accusation"), "machine", codes=(2,))


@case("C07", "cut manifest placements (trim rectangles) equal the SVG outlines, sheet by sheet")
def _(ctx):
    r = ctx.run("cut", "accusation", "--machine", "silhouette", "--json")
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("accusation", "cut", "silhouette")
    man = json.loads((d / "manifest.json").read_text()) if (d / "manifest.json").exists() else json.loads(r.out)
    pl = _pl(man)
    if not pl:
        return "QUESTION", f"no placements: keys {list(man)}"
    svgs = sorted(d.glob("*.svg"))
    probs = []
    for i, svg in enumerate(svgs, 1):
        outs = sorted((round(_outline_size(e)[0], 2), round(_outline_size(e)[1], 2)) for e in _svg_rects(svg)[1])
        mine = sorted((round(p["w"], 2), round(p["h"], 2)) for p in pl if p.get("page") == i)
        if outs != mine:
            probs.append(f"sheet {i}: svg {outs[:2]} vs manifest {mine[:2]}")
    return ("FAIL", "; ".join(probs[:2])) if probs else ("HOLD", f"{len(pl)} placements match {len(svgs)} SVGs")


@case("C08", "cut -o under a regular file: one line naming it")
def _(ctx):
    (ctx.root / "f").write_text("x")
    return clean_refusal(ctx.run("cut", "accusation", "--machine", "silhouette", "-o", "f/x"), "f")


@case("C09", "cut dirty-money (mixed sizes 70×70, 44×67, 63×88): every outline one of those sizes")
def _(ctx):
    r = ctx.run("cut", "dirty-money", "--machine", "silhouette")
    if (e := ok_run(r)):
        return "FAIL", e
    sizes = set()
    for s in ctx.out("dirty-money", "cut", "silhouette").glob("*.svg"):
        _root, shapes = _svg_rects(s)
        for e in shapes:
            w, h, _r = _outline_size(e)
            sizes.add((round(w, 1), round(h, 1)))
    want = {(70.0, 70.0), (44.0, 67.0), (63.0, 88.0), (67.0, 44.0), (88.0, 63.0)}
    return ("HOLD", f"{sorted(sizes)}") if sizes and sizes <= want else ("FAIL", f"{sorted(sizes)}")


# --------------------------------------------------------------------------------- tts

@case("T01", "tts: sheets ≤ 4096 px and ≤ 10×7 cards; GAME.json parses; README.txt")
def _(ctx):
    r = ctx.run("tts", "enforcer")
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("enforcer", "tts")
    pngs = list(d.glob("*.png"))
    big = [(p.name, png_size(p)) for p in pngs if max(png_size(p)) > 4096]
    try:
        j = json.loads((d / "enforcer.json").read_text())
    except Exception as ex:
        return "FAIL", f"enforcer.json: {ex}"
    if big:
        return "FAIL", f"sheets over 4096 px {big[:2]}"
    if not (d / "README.txt").exists():
        return "FAIL", "no README.txt"
    s = json.dumps(j)
    nw = [int(x) for x in re.findall(r'"NumWidth": (\d+)', s)]
    nh = [int(x) for x in re.findall(r'"NumHeight": (\d+)', s)]
    if any(x > 10 for x in nw) or any(x > 7 for x in nh):
        return "FAIL", f"grid {nw} {nh}"
    return "HOLD", f"{len(pngs)} pngs, json ok"


@case("T02", "tts saved object: one deck per card type, counts = copies")
def _(ctx):
    r = ctx.run("tts", "accusation")
    if (e := ok_run(r)):
        return "FAIL", e
    j = json.loads(ctx.out("accusation", "tts", "accusation.json").read_text())
    objs = j.get("ObjectStates", [])
    def count(o):
        n = len(o.get("DeckIDs", [])) if o.get("DeckIDs") else (1 if o.get("Name", "").startswith("Card") else 0)
        return n + sum(count(c) for c in o.get("ContainedObjects", []) if False)
    counts = sorted(count(o) for o in objs)
    want = sorted({t: copies_total(ctx, "accusation", t) for t in {c["type"] for c in cards_json(ctx, "accusation")}}.values())
    return ("HOLD", f"decks {counts}") if counts == want else ("FAIL", f"deck sizes {counts}, copies per type {want}")


@case("T03", "tts-object: linked/GAME.json with file:/// addresses of files that exist")
def _(ctx):
    r = ctx.run("tts-object", "accusation")
    if (e := ok_run(r)):
        return "FAIL", e
    p = ctx.out("accusation", "tts", "linked", "accusation.json")
    if not p.exists():
        return "FAIL", f"no {p}: {r.short()}"
    s = p.read_text()
    json.loads(s)
    urls = set(re.findall(r'"(file:///[^"]+)"', s))
    from urllib.parse import unquote, urlparse
    miss = [u for u in urls if not Path(unquote(urlparse(u).path)).exists()]
    if not urls:
        return "FAIL", "no file:/// URLs"
    return ("FAIL", f"missing {miss[:2]}") if miss else ("HOLD", f"{len(urls)} urls exist")


@case("T04", "tts-object --base-url https://example.org/decks/: every image URL starts with it")
def _(ctx):
    r = ctx.run("tts-object", "accusation", "--base-url", "https://example.org/decks/")
    if (e := ok_run(r)):
        return "FAIL", e
    s = ctx.out("accusation", "tts", "linked", "accusation.json").read_text()
    urls = re.findall(r'"(?:FaceURL|BackURL)": "([^"]*)"', s)
    bad = [u for u in urls if not u.startswith("https://example.org/decks/")]
    return ("FAIL", f"{bad[:2]}") if bad or not urls else ("HOLD", f"{len(urls)} urls")


@case("T05", "tts-object --base-url not a URL ('javascript:alert(1)'): refused cleanly")
def _(ctx):
    r = ctx.run("tts-object", "accusation", "--base-url", "javascript:alert(1)")
    if r.rc == 0:
        return "QUESTION", "accepted a javascript: base URL"
    return clean_refusal(r, "base")


@case("T06", "tts-object --from an empty folder: draws the sheets first")
def _(ctx):
    (ctx.root / "ttsdir").mkdir()
    r = ctx.run("tts-object", "accusation", "--from", "ttsdir")
    if (e := ok_run(r)):
        return "FAIL", e
    return ("HOLD", "sheets drawn") if list((ctx.root / "ttsdir").glob("*.png")) else ("FAIL", "no sheets drawn")


@case("T07", "tts-object --from a regular file: one line naming it")
def _(ctx):
    (ctx.root / "f").write_text("x")
    return clean_refusal(ctx.run("tts-object", "accusation", "--from", "f"), "f")


@case("T08", "tts-object --from a folder holding a damaged GAME.json: one line naming the file")
def _(ctx):
    d = ctx.root / "tdir"
    d.mkdir()
    (d / "accusation.json").write_text('{"ObjectStates": [ {')
    return clean_refusal(ctx.run("tts-object", "accusation", "--from", "tdir"), "accusation.json")


@case("T09", "tts -o onto /dev/null refused")
def _(ctx):
    return clean_refusal(ctx.run("tts", "accusation", "-o", "/dev/null"), "/dev/null")


@case("T10", "tts-object -o /dev/full (disk full): one line naming the file")
def _(ctx):
    r = ctx.run("tts-object", "accusation", "-o", "/dev/full")
    return clean_refusal(r, "/dev/full")


# --------------------------------------------------------------------------------- watch

@case("W01", "watch a misspelt game: exit 2 at once naming it")
def _(ctx):
    try:
        r = ctx.run("watch", "acusation", "--no-serve", timeout=30)
    except subprocess.TimeoutExpired:
        return "FAIL", "kept running for a misspelt game"
    return clean_refusal(r, "acusation", codes=(2,))


@case("W02", "watch --interval 0 refused (0.05-10)")
def _(ctx):
    try:
        r = ctx.run("watch", "accusation", "--no-serve", "--interval", "0", timeout=30)
    except subprocess.TimeoutExpired:
        return "FAIL", "ran with interval 0"
    return clean_refusal(r, "interval", codes=(2,))


@case("W03", "watch --what bogus refused")
def _(ctx):
    try:
        r = ctx.run("watch", "accusation", "--no-serve", "--what", "pdf", timeout=30)
    except subprocess.TimeoutExpired:
        return "FAIL", "ran"
    return clean_refusal(r, "pdf", codes=(2,))


@case("W04", "watch --port 99999 refused")
def _(ctx):
    try:
        r = ctx.run("watch", "accusation", "--port", "99999", timeout=30)
    except subprocess.TimeoutExpired:
        return "FAIL", "ran with port 99999"
    return clean_refusal(r, "port", codes=(1, 2))


@case("W05", "watch --no-serve builds once into output/GAME/watch and stops cleanly on Ctrl-C")
def _(ctx):
    p = ctx.popen("watch", "accusation", "--no-serve")
    out = ""
    t0 = time.time()
    while time.time() - t0 < 90 and not list(ctx.out("accusation", "watch").glob("*.png")) if ctx.out("accusation", "watch").exists() or True else False:
        time.sleep(0.5)
        if p.poll() is not None:
            break
    time.sleep(1)
    os.killpg(p.pid, signal.SIGINT)
    try:
        o, e = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        return "FAIL", "did not stop on SIGINT"
    if "Traceback" in o + e:
        return "FAIL", "traceback on Ctrl-C"
    files = list(ctx.out("accusation", "watch").glob("*")) if ctx.out("accusation", "watch").exists() else []
    if not files:
        return "FAIL", f"nothing built; {(o + e)[-200:]}"
    return "HOLD", f"rc {p.returncode}; {len(files)} file(s); {o.strip().splitlines()[-1][:60] if o.strip() else ''}"


@case("W06", "watch preview port already in use: one clear line naming the port (or another port), no traceback")
def _(ctx):
    s = socket.socket()
    s.bind(("127.0.0.1", 0)); s.listen(1)
    port = s.getsockname()[1]
    p = ctx.popen("watch", "accusation", "--port", port)
    try:
        o, e = p.communicate(timeout=25)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGINT)
        o, e = p.communicate(timeout=20)
        rc = "running"
    s.close()
    if "Traceback" in o + e:
        return "FAIL", "traceback"
    if rc == "running":
        return "QUESTION", f"kept running with port {port} taken: {(o + e).strip().splitlines()[:2]}"
    r = R(subprocess.CompletedProcess([], rc, o, e))
    return clean_refusal(r, str(port))


@case("W07", "watch preview answers 421 to a foreign Host header (DNS rebinding)")
def _(ctx):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    p = ctx.popen("watch", "accusation", "--port", port)
    res = None
    t0 = time.time()
    while time.time() - t0 < 60:
        try:
            c = socket.create_connection(("127.0.0.1", port), timeout=5)
            c.sendall(b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            res = c.recv(200).decode("latin1"); c.close()
            break
        except OSError:
            time.sleep(0.5)
    os.killpg(p.pid, signal.SIGINT)
    try:
        p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
    if res is None:
        return "QUESTION", "server never answered"
    return ("HOLD", res.splitlines()[0]) if " 421" in res.splitlines()[0] else ("FAIL", res.splitlines()[0])



# --------------------------------------------------------------------------------- a designer's own game

GAME_CSV = """name,type,copies,cost,text
Paper Lantern,lantern,3,1,Gain 1 glow.
Silk Lantern,lantern,2,3,Gain 2 glow.
Jade Lantern,lantern,1,5,Gain 3 glow and draw a card.
Night Moth,event,2,,Discard your brightest lantern.
Sudden Rain,event,1,,Every player loses 1 glow.
"""


def mkgame(ctx, slug="lan", csv=GAME_CSV, *extra):
    (ctx.root / f"{slug}.csv").write_text(csv)
    r = ctx.run("game", "new", slug, "--title", "Lantern Market", "--from", f"{slug}.csv", *extra)
    if r.rc:
        raise RuntimeError(f"game new failed: {r.short()}")
    return r


def set_layout(ctx, slug, ctype, old, new):
    p = ctx.root / "templates" / slug / f"{ctype}.toml"
    t = p.read_text()
    if old not in t:
        raise RuntimeError(f"{old!r} not in {p.name}")
    p.write_text(t.replace(old, new, 1))


@case("G01", "template runtime error ({{ 1/0 }}) names the card, the region, the layout file; no PDF")
def _(ctx):
    mkgame(ctx)
    set_layout(ctx, "lan", "lantern", "**{{ card.name }}**", "**{{ 1/0 }}**")
    r = ctx.run("print", "lan")
    s = clean_refusal(r, "lantern.toml", "title", codes=(1, 2))
    if list(ctx.root.rglob("*.pdf")):
        return "FAIL", "a PDF was written"
    if s[0] == "HOLD" and not re.search(r"lantern-00\d|Paper Lantern", r.both):
        return "FAIL", "does not name the card: " + r.short()
    return s


@case("G02", "template budget: {{ 'a'*10**9 }} stops at once with one line naming the template")
def _(ctx):
    mkgame(ctx)
    set_layout(ctx, "lan", "lantern", "**{{ card.name }}**", "**{{ 'a'*10**9 }}**")
    t = time.time()
    r = ctx.run("print", "lan", timeout=120)
    s = clean_refusal(r, "lantern.toml", codes=(1, 2))
    return (s[0], s[1] + f" ({time.time() - t:.1f}s)")


@case("G03", "text that cannot fit at min_size: overflow error naming the card and region; no PDF")
def _(ctx):
    long = "Gain glow. " * 340
    mkgame(ctx, "lan", GAME_CSV.replace("Gain 2 glow.", long.strip()))
    r = ctx.run("print", "lan")
    s = clean_refusal(r, "lantern-002", "rules", codes=(1, 2))
    if list(ctx.root.rglob("*.pdf")):
        return "FAIL", "a PDF was written despite overflow"
    return s


@case("G04", "a character the font lacks (CJK in an English game) is an error naming the card, never a blank box")
def _(ctx):
    mkgame(ctx, "lan", GAME_CSV.replace("Jade Lantern", "Jade Lantern 龍"), "--language", "en")
    r = ctx.run("print", "lan")
    if r.rc == 0:
        return "QUESTION", "printed (font fallback?) — check the glyph is drawn"
    return clean_refusal(r, "lantern-003", codes=(1, 2))


@case("G05", "a card larger than the paper (250×350 mm on A4): refused naming the type, no PDF")
def _(ctx):
    mkgame(ctx, "lan", GAME_CSV, "--size", "250x350")
    r = ctx.run("print", "lan")
    s = clean_refusal(r, "lantern", codes=(1, 2))
    if list(ctx.root.rglob("*.pdf")):
        return "FAIL", "a PDF was written"
    return s


@case("G06", "cut cricut of a card larger than its 6.75×9.25 in print area (180×240 mm): refused naming the type")
def _(ctx):
    mkgame(ctx, "lan", GAME_CSV, "--size", "180x240")
    r = ctx.run("cut", "lan", "--machine", "cricut", "--paper", "letter")
    s = clean_refusal(r, "180", codes=(1, 2))
    if s[0] == "HOLD" and "lantern" not in r.both:
        return "QUESTION", "refused cleanly but names only the size, not the card type (print names the types): " + r.short()
    return s


@case("G07", "hostile card-type names from a sheet ('../../pwn'): images/tts files stay inside their output folder")
def _(ctx):
    csv = "name,type,copies\nEvil,../../pwn,1\nGood,lantern,1\n"
    (ctx.root / "e.csv").write_text(csv)
    r0 = ctx.run("game", "new", "evil", "--title", "Evil", "--from", "e.csv")
    if r0.rc:
        return "HOLD", f"sheet refused: {r0.short()}"
    before = {p for p in Path("/tmp").iterdir()}
    r = ctx.run("images", "evil", "--dpi", "30")
    r2 = ctx.run("tts", "evil")
    if (e := ok_run(r) or ok_run(r2)):
        return "FAIL", e
    outside = [str(p) for p in ctx.root.rglob("*.png") if not str(p).startswith(str(ctx.out()))]
    stray = [p for p in Path("/tmp").iterdir() if p not in before and "pwn" in p.name]
    return ("FAIL", f"{outside + stray}") if outside or stray else ("HOLD", "all files inside output/")


@case("G08", "a game slugged 'calibration' cannot make 'pnp print calibration' ambiguous")
def _(ctx):
    (ctx.root / "c.csv").write_text("name,copies\nA,1\n")
    r0 = ctx.run("game", "new", "calibration", "--title", "Cal", "--from", "c.csv")
    if r0.rc:
        return "HOLD", f"slug refused: {r0.short()}"
    r = ctx.run("print", "calibration", "-o", "x.pdf")
    t = pdftext(ctx.root / "x.pdf") if (ctx.root / "x.pdf").exists() else ""
    which = "the calibration page" if "calibration" in t.lower() else "the game"
    return "QUESTION", f"slug 'calibration' accepted by game new; 'pnp print calibration' rc {r.rc} prints {which}: the game's cards cannot be printed by name"


@case("G09", "tts of a 150-copy card: the deck counts 150, each sheet ≤ 10×7 and ≤ 4096 px")
def _(ctx):
    mkgame(ctx, "lan", GAME_CSV.replace("Paper Lantern,lantern,3", "Paper Lantern,lantern,150"))
    r = ctx.run("tts", "lan")
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.out("lan", "tts")
    big = [p.name for p in d.glob("*.png") if max(png_size(p)) > 4096]
    s = (d / "lan.json").read_text()
    j = json.loads(s)
    ids = sum(len(o.get("DeckIDs", [])) for o in j.get("ObjectStates", []))
    if big:
        return "FAIL", f"over 4096 px: {big}"
    return ("HOLD", f"{ids} cards in decks") if ids == 150 + 2 + 1 + 2 + 1 else ("FAIL", f"{ids} cards in decks, 156 copies")


@case("G10", "--offset 500,500 pushes backs off the page: refused or warned, never a silent blank back")
def _(ctx):
    r = ctx.run("print", "accusation", "--offset", "500,500", "-o", "o.pdf")
    if r.tb() or r.rc == 70:
        return "FAIL", r.short()
    if r.rc == 0 and "offset" not in r.err.lower():
        return "FAIL", "accepted --offset 500,500 silently (backs land off the page)"
    return "HOLD", f"rc {r.rc}: {[l for l in r.both.splitlines() if 'offset' in l.lower()][:1]}"


@case("G11", "-o 'newdir/' (missing folder, trailing slash): the PDF goes inside newdir/")
def _(ctx):
    r = ctx.run("print", "accusation", "--type", "leader", "-o", "newdir/")
    if (e := ok_run(r)):
        return "FAIL", e
    d = ctx.root / "newdir"
    if d.is_file():
        return "FAIL", "wrote a FILE named newdir"
    return ("HOLD", f"{[p.name for p in d.iterdir()]}") if d.is_dir() and list(d.glob("*.pdf")) else ("FAIL", f"{os.listdir(ctx.root)}")


@case("G12", "damaged cache (every entry's bytes flipped): same PDF bytes as a clean cache")
def _(ctx):
    cache = ctx.root / "cache"
    a = ctx.run("print", "accusation", "-o", "a.pdf", env={"PNP_CACHE_DIR": str(cache)})
    n = 0
    for p in cache.rglob("*"):
        if p.is_file() and p.stat().st_size > 40:
            b = bytearray(p.read_bytes()); b[len(b) // 2] ^= 0xFF; b[-1] ^= 0x55; p.write_bytes(bytes(b)); n += 1
    b2 = ctx.run("print", "accusation", "-o", "b.pdf", env={"PNP_CACHE_DIR": str(cache)})
    if (e := ok_run(a) or ok_run(b2)):
        return "FAIL", e
    if n == 0:
        return "QUESTION", "cache folder empty"
    return ("HOLD", f"{n} entries damaged; identical") if sha(ctx.root / "a.pdf") == sha(ctx.root / "b.pdf") else ("FAIL", "PDF differs after cache damage")


@case("G13", "art given as an absolute path outside the database folder (/etc/hostname): placeholder + warning")
def _(ctx):
    ctx.sql("update cards set art='/etc/hostname' where game='accusation' and id='cro01'")
    r = ctx.run("print", "accusation", "-o", "x.pdf")
    if (e := ok_run(r)):
        return "FAIL", e
    w = [l for l in r.err.splitlines() if "cro01" in l]
    return ("HOLD", w[0][:140]) if w else ("FAIL", "no warning")


@case("G14", "tts-object's linked file (default place output/GAME/tts/linked/) survives the next build")
def _(ctx):
    a = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    b = ctx.run("tts-object", "accusation")
    ctx.run("cards", "set", "accusation", "cro01", "copies=2")
    c = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if (e := ok_run(a) or ok_run(b) or ok_run(c)):
        return "FAIL", e
    p = ctx.out("accusation", "tts", "linked", "accusation.json")
    return ("HOLD", "kept") if p.exists() else ("QUESTION", "the build deleted tts/linked/accusation.json that tts-object wrote by default (documented 'a build replaces output/GAME/ whole')")


@case("G15", "a rebuild that changes nothing does not repeat the warnings (manifest keeps them)")
def _(ctx):
    a = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    b = ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    if (e := ok_run(a) or ok_run(b)):
        return "FAIL", e
    wa = [l for l in a.err.splitlines() if l.startswith("Warning")]
    wb = [l for l in b.err.splitlines() if l.startswith("Warning")]
    m = json.loads(ctx.out("accusation", "manifest.json").read_text())
    if wb:
        return "FAIL", f"repeated {len(wb)} warning(s): {wb[0][:100]}"
    return ("HOLD", f"{len(wa)} warnings once, manifest keeps {len(m.get('warnings', []))}") if m.get("warnings") else ("FAIL", "manifest has no warnings")


@case("G16", "rules.md escapes raw HTML and link syntax from a bundle's rule text")
def _(ctx):
    mkgame(ctx)
    r = ctx.run("game", "export", "lan", "-o", "b.json")
    j = json.loads((ctx.root / "b.json").read_text())
    j["rules"].append({"kind": "faq", "title": "FAQ", "body": "Hi <script>alert(1)</script> [x](javascript:alert(1)) ![i](http://e.example/t.png)", "title_en": "", "source": "t"})
    (ctx.root / "b.json").write_text(json.dumps(j))
    r1 = ctx.run("game", "import", "b.json", "--replace")
    if r1.rc:
        return "QUESTION", f"bundle import refused: {r1.short()}"
    r2 = ctx.run("rules", "lan", "--format", "md", "-o", "-")
    if (e := ok_run(r2)):
        return "FAIL", e
    md = r2.out
    if "alert" not in md:
        return "QUESTION", "FAQ text not in the summary"
    bad = [rx for rx in (r"(?<!\\)<script>", r"(?<!\\)\[x\]\(javascript:", r"(?<!\\)\[i\]\(") if re.search(rx, md)]
    return ("FAIL", f"unescaped {bad}") if bad else ("HOLD", "escaped")


@case("G17", "PNP_BUSY_TIMEOUT=abc (bad environment value): one clear line or the default, no traceback")
def _(ctx):
    r = ctx.run("print", "accusation", "--type", "leader", env={"PNP_BUSY_TIMEOUT": "abc"})
    if r.tb() or r.rc == 70:
        return "FAIL", f"rc {r.rc}: {r.short()}"
    return "HOLD", f"rc {r.rc}: {r.short()}"


@case("G18", "build while a 'proof' of the same game runs: neither crashes; the kit stays consistent with its manifest")
def _(ctx):
    ctx.run("build", "accusation", "--dpi", "60", "--no-progress")
    p1 = ctx.popen("build", "accusation", "--dpi", "60", "--no-progress", "--force")
    p2 = ctx.popen("proof", "accusation")
    res = [(p.wait(timeout=600), *p.communicate()) for p in (p1, p2)]
    if any("Traceback" in o + e for _, o, e in res) or any(rc == 70 for rc, _, _ in res):
        return "FAIL", f"rcs {[r[0] for r in res]}"
    _m, files, bad = _manifest_check(ctx.out("accusation"))
    if bad:
        return "FAIL", f"{bad[:2]}"
    proof = ctx.out("accusation", "accusation-proof.png").exists()
    return ("HOLD" if proof else "QUESTION"), f"rcs {[r[0] for r in res]}; proof {'kept' if proof else 'lost (swept by the build swap)'}"


@case("P55", "-o onto a symlink to another file: the link is replaced (temp file renamed into place), the file it points to is untouched")
def _(ctx):
    victim = ctx.root / "victim.txt"
    victim.write_text("precious")
    os.symlink(victim, ctx.root / "out.pdf")
    r = ctx.run("print", "accusation", "--type", "leader", "-o", "out.pdf")
    if r.tb():
        return "FAIL", "traceback"
    if victim.read_text() != "precious":
        return "FAIL", "wrote THROUGH the symlink into victim.txt"
    if r.rc == 0:
        return "HOLD", "link replaced, victim untouched" if not (ctx.root / "out.pdf").is_symlink() else "victim untouched"
    return "HOLD", f"refused: {r.short()}"


@case("P56", "-o onto a dangling symlink: no file created at the link's target; clean")
def _(ctx):
    os.symlink(ctx.root / "nowhere" / "x.pdf", ctx.root / "dang.pdf")
    r = ctx.run("print", "accusation", "--type", "leader", "-o", "dang.pdf")
    if r.tb() or r.rc == 70:
        return "FAIL", r.short()
    if (ctx.root / "nowhere").exists():
        return "QUESTION", "followed the dangling link and created its target folder"
    return "HOLD", f"rc {r.rc}: {r.short()}"


@case("W08", "watch: a failed build is shown and the watch goes on (broken layout override), no traceback")
def _(ctx):
    (ctx.root / "templates/accusation").mkdir(parents=True)
    (ctx.root / "templates/accusation/leader.toml").write_text("not [toml\n")
    p = ctx.popen("watch", "accusation", "--no-serve")
    time.sleep(15)
    alive = p.poll() is None
    if alive:
        os.killpg(p.pid, signal.SIGINT)
    try:
        o, e = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL); o, e = p.communicate()
    if "Traceback" in o + e:
        return "FAIL", "traceback"
    if not alive:
        return "FAIL", f"watch exited (rc {p.returncode}) on a failed build: {(o + e).strip().splitlines()[-1:]}"
    shown = "leader.toml" in o + e
    return ("HOLD", "failure shown, watch went on") if shown else ("QUESTION", "went on but the failure was not named: " + (o + e)[-150:])


@case("L01", "images --lang en: PNGs into output/GAME-en/images/, output/GAME untouched")
def _(ctx):
    r = ctx.run("images", "accusation", "--lang", "en", "--type", "leader", "--dpi", "30")
    if (e := ok_run(r)):
        return "FAIL", e
    got = list(ctx.root.glob("output/accusation-en/images/*.png"))
    if ctx.out("accusation").exists():
        return "FAIL", "wrote into output/accusation"
    return ("HOLD", f"{len(got)} PNGs") if got else ("FAIL", f"no PNGs in output/accusation-en/images: {[str(p.relative_to(ctx.root)) for p in ctx.root.rglob('*.png')][:3]}")


@case("L02", "shop --lang en: files into output/GAME-en/shop/PROFILE/")
def _(ctx):
    r = ctx.run("shop", "accusation", "--lang", "en", "--profile", "mpc", "--type", "leader")
    if r.rc == 1 and not r.tb():
        return "QUESTION", f"refused: {r.short()}"
    if (e := ok_run(r)):
        return "FAIL", e
    got = list(ctx.root.glob("output/accusation-en/shop/mpc/*.png"))
    return ("HOLD", f"{len(got)} PNGs") if got else ("FAIL", f"not in output/accusation-en/shop/mpc: {[str(p.relative_to(ctx.root)) for p in ctx.root.rglob('*.png')][:3]}")


@case("L03", "rules --format md -o - into a closed pipe (| head -1) ends quietly")
def _(ctx):
    p = subprocess.run(f"'{ctx.pnp}' --db '{ctx.db}' rules enforcer --format md -o - | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}",
                       shell=True, executable="/bin/bash", cwd=ctx.root, env=ctx.env, capture_output=True, text=True, timeout=300)
    if "Traceback" in p.stderr or "BrokenPipe" in p.stderr or "Broken pipe" in p.stderr:
        return "FAIL", p.stderr.strip().splitlines()[-1][:140]
    return "HOLD", f"quiet; pnp rc {p.stdout.strip()}"


@case("L04", "tts --lang en: English sheets into output/GAME-en/tts/, saved object names English")
def _(ctx):
    r = ctx.run("tts", "accusation", "--lang", "en", "--type", "leader")
    if (e := ok_run(r)):
        return "FAIL", e
    js = list(ctx.root.glob("output/accusation-en/tts/*.json"))
    if not js:
        return "FAIL", f"no saved object in output/accusation-en/tts: {[str(p.relative_to(ctx.root)) for p in ctx.root.rglob('*.json')][:3]}"
    json.loads(js[0].read_text())
    return "HOLD", js[0].name


# --------------------------------------------------------------------------------- library API

API = "from pnpforge.api import Project\nfrom pnpforge.errors import PnpError\n"


def _api(ctx, body):
    code = API + "try:\n" + "\n".join("    " + l for l in body.strip().splitlines()) + \
        "\nexcept PnpError as e:\n    print('PNPERROR', e)\n"
    return ctx.py(code)


@case("A01", "api: Project.open of a missing file raises PnpError naming the path (not sqlite3)")
def _(ctx):
    r = _api(ctx, f"Project.open({str(ctx.root / 'nope.db')!r}, readonly=True)\nprint('OPENED')")
    if "PNPERROR" in r.out and "nope.db" in r.out and not (ctx.root / "nope.db").exists():
        return "HOLD", r.out.strip()[:120]
    return "FAIL", f"{r.out.strip()[:80]} {r.err.strip().splitlines()[-1:]} exists={(ctx.root / 'nope.db').exists()}"


@case("A02", "api: Project.game('nope') raises PnpError naming the games there are")
def _(ctx):
    r = _api(ctx, f"Project.open({str(ctx.db)!r}, readonly=True).game('nope')")
    return ("HOLD", r.out.strip()[:120]) if "PNPERROR" in r.out and "accusation" in r.out else ("FAIL", (r.out + r.err).strip()[-160:])


@case("A03", "api: print_cards on a readonly project writes a valid PDF and returns its manifest; db unchanged")
def _(ctx):
    before = sha(ctx.db)
    r = _api(ctx, f"m = Project.open({str(ctx.db)!r}, readonly=True).print_cards('accusation')\nprint('TYPE', type(m).__name__)")
    if "TYPE" not in r.out:
        return "FAIL", (r.out + r.err).strip()[-160:]
    pdfs = list(ctx.root.rglob("*.pdf"))
    if sha(ctx.db) != before:
        return "FAIL", "db changed"
    if not pdfs:
        return "FAIL", "no PDF written"
    ok, m = qpdf_ok(pdfs[0])
    return ("HOLD", f"{pdfs[0].relative_to(ctx.root)}") if ok else ("FAIL", f"qpdf {m}")


@case("A04", "api: cut(game, 'laser') raises PnpError naming the machines")
def _(ctx):
    r = _api(ctx, f"Project.open({str(ctx.db)!r}, readonly=True).cut('accusation', 'laser')")
    return ("HOLD", r.out.strip()[:120]) if "PNPERROR" in r.out and "silhouette" in r.out else ("FAIL", (r.out + r.err).strip()[-160:])


@case("A05", "api: shop(game, 'bogus') raises PnpError naming profiles; nothing written")
def _(ctx):
    r = _api(ctx, f"Project.open({str(ctx.db)!r}, readonly=True).shop('accusation', 'bogus')")
    ok = "PNPERROR" in r.out and "mpc" in r.out and not list(ctx.root.rglob("*.png"))
    return ("HOLD", r.out.strip()[:120]) if ok else ("FAIL", (r.out + r.err).strip()[-160:])


@case("A06", "api: readonly project refuses set_card; file unchanged")
def _(ctx):
    before = sha(ctx.db)
    r = _api(ctx, f"Project.open({str(ctx.db)!r}, readonly=True).set_card('accusation','cro01',{{'copies':'2'}})\nprint('WROTE')")
    if sha(ctx.db) != before:
        return "FAIL", "database changed"
    if "WROTE" in r.out:
        return "FAIL", "set_card succeeded on a readonly project"
    if "PNPERROR" in r.out:
        return "HOLD", r.out.strip()[:120]
    return "QUESTION", f"refused with a non-PnpError: {r.err.strip().splitlines()[-1][:140]}"


@case("A07", "api: Project.open(existing, create=True) refuses, file unchanged")
def _(ctx):
    before = sha(ctx.db)
    r = _api(ctx, f"Project.open({str(ctx.db)!r}, create=True)\nprint('OPENED')")
    if sha(ctx.db) != before:
        return "FAIL", "file changed"
    return ("HOLD", r.out.strip()[:120]) if "PNPERROR" in r.out else ("FAIL", (r.out + r.err).strip()[-160:])


@case("A08", "api: build(['nope'], …) raises PnpError, no output folder for it")
def _(ctx):
    r = _api(ctx, f"""
import inspect
from pnpforge import api
p = Project.open({str(ctx.db)!r}, readonly=True)
BO = inspect.signature(p.build).parameters['opts'].annotation
import pnpforge.api as A
cls = getattr(A, 'BuildOptions', None)
if cls is None:
    print('NOBUILDOPTIONS', BO)
else:
    p.build(['nope'], {str(ctx.root / 'o')!r}, cls())
    print('BUILT')""")
    if "NOBUILDOPTIONS" in r.out:
        return "QUESTION", f"BuildOptions is not importable from pnpforge.api (docs name it only as an annotation): {r.out.strip()[:100]}"
    if "PNPERROR" in r.out and not (ctx.root / "o" / "nope").exists():
        return "HOLD", r.out.strip()[:120]
    return "FAIL", (r.out + r.err).strip()[-160:]


@case("A09", "api: print_cards('nope') raises PnpError (one line naming the game)")
def _(ctx):
    r = _api(ctx, f"Project.open({str(ctx.db)!r}, readonly=True).print_cards('nope')")
    return ("HOLD", r.out.strip()[:120]) if "PNPERROR" in r.out and "nope" in r.out else ("FAIL", (r.out + r.err).strip()[-160:])


@case("A10", "api: the project folder (the database's) holds output/: print_cards from another working directory writes under Project.folder/output")
def _(ctx):
    sub = ctx.root / "elsewhere"
    sub.mkdir()
    code = (API + f"p = Project.open({str(ctx.db)!r}, readonly=True)\nm = p.print_cards('accusation')\nprint('FOLDER', p.folder)")
    r = R(subprocess.run([ctx.python, "-c", code], cwd=sub, env=ctx.env, capture_output=True, text=True, timeout=300))
    if "FOLDER" not in r.out:
        return "FAIL", (r.out + r.err).strip()[-160:]
    in_proj = list((ctx.root / "output").rglob("*.pdf")) if (ctx.root / "output").exists() else []
    in_cwd = list((sub / "output").rglob("*.pdf")) if (sub / "output").exists() else []
    if in_proj:
        return "HOLD", f"{in_proj[0].relative_to(ctx.root)}"
    if in_cwd:
        return "FAIL", "wrote under the working directory's output/, not Project.folder/output (docs/api.md: the folder 'where a project's own templates/, engines/ and output/ live')"
    return "FAIL", "no PDF found"


# --------------------------------------------------------------------------------- runner

def run_case(args, cid, promise, f):
    root = tempfile.mkdtemp(prefix=f"pnpcase-{cid}-")
    t = time.time()
    try:
        ctx = Ctx(args.pnp, args.db, root, args.cache)
        st, why = f(ctx)
    except subprocess.TimeoutExpired as ex:
        st, why = "FAIL", f"timed out: {ex.cmd[-3:] if isinstance(ex.cmd, list) else ex.cmd}"
    except Exception as ex:
        st, why = "QUESTION", f"runner error {type(ex).__name__}: {ex} @ {traceback.extract_tb(ex.__traceback__)[-1].lineno}"
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"id": cid, "status": st, "reason": " ".join(str(why).split())[:300], "promise": promise,
            "seconds": round(time.time() - t, 1)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pnp", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="results.json")
    ap.add_argument("--cache", default=None, help="PNP_CACHE_DIR for the runs (default: a fresh temp folder)")
    args = ap.parse_args()
    args.pnp = os.path.abspath(args.pnp)
    args.db = os.path.abspath(args.db)
    args.cache = args.cache or tempfile.mkdtemp(prefix="pnpcache-")
    sel = [c for c in CASES if not args.only or c[0] in args.only.split(",")]
    results = []
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [ex.submit(run_case, args, *c) for c in sel]
        for fu in futs:
            r = fu.result()
            results.append(r)
            print(f"{r['id']} {r['status']} {r['reason']}", flush=True)
    tally = {s: sum(r["status"] == s for r in results) for s in ("HOLD", "FAIL", "QUESTION")}
    print(f"TALLY {len(results)} cases: {tally['HOLD']} hold, {tally['FAIL']} fail, {tally['QUESTION']} question")
    Path(args.out).write_text(json.dumps({"pnp": args.pnp, "db": args.db, "tally": tally, "results": results},
                                         ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
