"""The hostile-input table: every case, by category.

Each case takes a Ctx (its own folder, copies of the databases, its own cache) and raises a
verdict: hold(reason), fail(reason) or question(reason). Written from the README, docs/cli.md and
`pnp --help` only.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import sqlite3
import subprocess
import threading
import time
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from harness import (FAIL, HOLD, QUESTION, RawServer, Verdict, basic, fail, hold, http_get,
                     http_response, ok, question, refused, sha, wait_for, can_drop_privs)

# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    category: str
    fn: object
    timeout: int
    heavy: bool
    doc: str


_CASES: list[Case] = []


def case(cid, cat, timeout=60, heavy=False, doc=None):
    def deco(fn):
        d = doc or (fn.__doc__ or "").strip().splitlines()[0] if (doc or fn.__doc__) else ""
        _CASES.append(Case(cid, cat, fn, timeout, heavy, d))
        return fn
    return deco


def all_cases():
    ids = [c.id for c in _CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    return list(_CASES)


def card(ctx, db, cid, game="sky"):
    r = ctx.pnp("cards", "show", game, cid, "--json", db=db, timeout=60)
    if r.rc != 0:
        return None
    try:
        return json.loads(r.out)
    except ValueError:
        return None


def unchanged(db, before, what="database"):
    if sha(db) != before:
        fail(f"{what} changed although the input was refused")


def refuse_unchanged(r, db, before, what=""):
    refused(r, what)
    unchanged(db, before)
    hold(f"refused: {r.brief()}")


def csv_text(ctx, mutate=None):
    rows = ctx.cfg.sky_csv.splitlines()
    if mutate:
        rows = mutate(rows)
    return "\n".join(rows) + "\n"


def set_cell(rows, rid, col, value):
    """Set a cell in the exported sky CSV (no quoted commas in it)."""
    head = rows[0].split(",")
    i = head.index(col)
    out = [rows[0]]
    for r in rows[1:]:
        cells = r.split(",")
        if cells[0] == rid:
            cells[i] = value
        out.append(",".join(cells))
    return out


def changed_csv(ctx) -> bytes:
    return csv_text(ctx, lambda rows: set_cell(rows, "S1", "cost", "4")).encode()


# ---------------------------------------------------------------------------
# 1. links: pnp import GAME URL against loopback servers
# ---------------------------------------------------------------------------

URL_ENV = {"PNP_URL_TIMEOUT": "4"}


def url_case(cid, doc, handler, expect="refuse", timeout=45, env=None, args=(), after=None, host="127.0.0.1",
             rss_limit=None):
    def fn(ctx):
        db = ctx.sky()
        before = sha(db)
        srv = RawServer(lambda c, req, s: handler(ctx, c, req, s), host=host)
        ctx.servers.append(srv)
        ctx.srv = srv
        url = srv.url() if not callable(getattr(ctx, "url_override", None)) else ctx.url_override(srv)
        r = ctx.pnp("import", "sky", url, *args, db=db, timeout=timeout, env={**URL_ENV, **(env or {})})
        if rss_limit and r.maxrss_mb > rss_limit:
            fail(f"peak memory {r.maxrss_mb:.0f} MB (limit {rss_limit} MB); {r.brief()}")
        if after:
            after(ctx, r, db, before)
        if expect == "refuse":
            refused(r)
            unchanged(db, before)
            if r.secs > 30:
                fail(f"refused only after {r.secs:.0f} s (PNP_URL_TIMEOUT=4)")
            hold(f"refused in {r.secs:.1f} s: {r.brief()}")
        elif expect == "import":
            ok(r)
            c = card(ctx, db, "S1")
            if not c or c["fields"].get("cost") != 4:
                fail("import reported success but S1.cost is not 4")
            hold("imported the change")
        else:
            basic(r)
            if r.rc != 0:
                unchanged(db, before)
            hold(f"{r.brief()}")
    _CASES.append(Case(cid, "url", fn, timeout + 20, False, doc))


def _send(c, data):
    try:
        c.sendall(data)
    except OSError:
        pass


def h_ok(ctx, c, req, s):
    _send(c, http_response(body=changed_csv(ctx)))


url_case("url_control_ok", "control: a valid CSV link imports the change", h_ok, expect="import")


def _dry(ctx, r, db, before):
    ok(r)
    unchanged(db, before, "database (dry run)")
    hold("dry run wrote nothing")


url_case("url_dry_run", "a link with --dry-run writes nothing", h_ok, args=("--dry-run",), after=_dry)
for code in ("404 Not Found", "500 Internal Server Error", "403 Forbidden", "401 Unauthorized"):
    url_case(f"url_status_{code.split()[0]}", f"HTTP {code} is one line, nothing written",
             lambda ctx, c, req, s, code=code: _send(c, http_response(code, b"nope", {"Content-Type": "text/plain"})))


def h_trunc(ctx, c, req, s):
    body = changed_csv(ctx)
    body = body.replace(b"S2,ship,Beta,,1", b"S2,ship,Beta,,1")
    cut = body.index(b"S2,") + 14  # inside row S2: 'S2,ship,Beta,,' then cut
    _send(c, http_response(body=body[:cut], headers={"Content-Length": str(len(body))}))


url_case("url_truncated_body", "body shorter than Content-Length, then close: refused, nothing written", h_trunc)


def h_cl_long_open(ctx, c, req, s):
    body = changed_csv(ctx)
    _send(c, http_response(body=body, headers={"Content-Length": str(len(body) + 5000)}))
    s.stopped.wait(60)


url_case("url_cl_long_keepopen", "Content-Length larger than the body, connection left open: times out cleanly",
         h_cl_long_open)


def h_cl_short(ctx, c, req, s):
    body = changed_csv(ctx)
    _send(c, http_response(body=body + b"S9,ship,Evil,,1,provisional,,,,,,,3,guild\n",
                           headers={"Content-Length": str(len(body))}))


def _cl_short(ctx, r, db, before):
    basic(r)
    if r.rc == 0 and card(ctx, db, "S9"):
        fail("imported bytes past the Content-Length")
    hold(f"bytes past Content-Length ignored ({r.brief()})")


url_case("url_cl_short_extra", "bytes past Content-Length are not imported", h_cl_short, after=_cl_short)


def h_drip_body(ctx, c, req, s):
    body = changed_csv(ctx)
    _send(c, http_response(body=b"", headers={"Content-Length": str(len(body))}))
    for b in body:
        if s.stopped.is_set():
            return
        _send(c, bytes([b]))
        time.sleep(0.4)


url_case("url_slow_drip_body", "body dripped 1 byte / 0.4 s: PNP_URL_TIMEOUT=4 bounds the whole download",
         h_drip_body, timeout=25)


def h_drip_head(ctx, c, req, s):
    head = http_response(body=changed_csv(ctx))
    for b in head:
        if s.stopped.is_set():
            return
        _send(c, bytes([b]))
        time.sleep(0.3)


url_case("url_slow_drip_headers", "headers dripped 1 byte / 0.3 s: bounded by the timeout", h_drip_head, timeout=25)
url_case("url_silent_server", "server accepts and never answers: one line after the timeout",
         lambda ctx, c, req, s: s.stopped.wait(60))


def h_chunk_cut(ctx, c, req, s):
    body = changed_csv(ctx)
    half = body[: len(body) // 2]
    _send(c, http_response(headers={"Transfer-Encoding": "chunked"}, length=False)
          + f"{len(half):x}\r\n".encode() + half + b"\r\n")


url_case("url_chunked_cut", "chunked body cut short (no final chunk): refused", h_chunk_cut)


def h_chunk_bad(ctx, c, req, s):
    _send(c, http_response(headers={"Transfer-Encoding": "chunked"}, length=False) + b"zz\r\nid,name\r\n0\r\n\r\n")


url_case("url_chunked_bad_size", "chunk size 'zz': refused", h_chunk_bad)


def h_chunk_huge(ctx, c, req, s):
    _send(c, http_response(headers={"Transfer-Encoding": "chunked"}, length=False) + b"7fffffffffffffff\r\nid,")
    s.stopped.wait(30)


url_case("url_chunked_huge_size", "chunk declaring 2^63 bytes: bounded, refused", h_chunk_huge, rss_limit=700)


def redirect(loc):
    return lambda ctx, c, req, s: _send(c, http_response("302 Found", b"", {"Location": loc(ctx, s) if callable(loc) else loc}))


url_case("url_redirect_file", "302 to file:///etc/passwd: refused, nothing read",
         redirect("file:///etc/passwd"))
def _ftp(ctx, r, db, before):
    refused(r)
    unchanged(db, before)
    if len(ctx.srv.requests) > 1:
        fail(f"followed the redirect to ftp:// (a second connection was made); links are http(s): {r.brief()}")
    hold(f"refused: {r.brief()}")


url_case("url_redirect_ftp", "302 to ftp://127.0.0.1/: refused without trying FTP (links are http(s))",
         redirect(lambda ctx, s: f"ftp://127.0.0.1:{s.port}/x.csv"), after=_ftp)
url_case("url_redirect_data", "302 to a data: URL holding a CSV: refused",
         redirect("data:text/csv;base64,aWQsbmFtZQpTMSxIYWNrZWQK"))
url_case("url_redirect_loop", "302 to itself forever: refused, no hang",
         redirect(lambda ctx, s: f"http://127.0.0.1:{s.port}/sheet.csv"))


def _other_addr(ctx, r, db, before):
    basic(r)
    got = card(ctx, db, "S1")
    if r.rc == 0 and got and got["fields"].get("cost") == 4:
        hold("followed the redirect to 127.0.0.2 (normal for published sheets)")
    if r.rc != 0:
        unchanged(db, before)
        hold(f"refused the cross-address redirect: {r.brief()}")
    fail("exit 0 but the change was not imported")


def h_redirect_other(ctx, c, req, s):
    if not hasattr(ctx, "srv2"):
        ctx.srv2 = RawServer(h_ok, host="127.0.0.2")
        ctx.servers.append(ctx.srv2)
        ctx.srv2.handler = lambda c2, r2, s2: h_ok(ctx, c2, r2, s2)
    _send(c, http_response("302 Found", b"", {"Location": ctx.srv2.url()}))


url_case("url_redirect_other_addr", "302 to another loopback address: followed or refused, never a traceback",
         h_redirect_other, after=_other_addr)
url_case("url_non_http", "an SSH banner instead of HTTP: one line",
         lambda ctx, c, req, s: _send(c, b"SSH-2.0-OpenSSH_9.2p1 Debian\r\n"))
url_case("url_binary_garbage", "64 KB of random bytes as the answer: one line",
         lambda ctx, c, req, s: _send(c, random.Random(1).randbytes(65536)))
url_case("url_http09_close", "status line only, then close: one line",
         lambda ctx, c, req, s: _send(c, b"HTTP/1.1 200 OK\r\n"))
url_case("url_huge_header", "a 2 MB header line: refused, bounded",
         lambda ctx, c, req, s: _send(c, b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 2_000_000 + b"\r\n\r\nid\n"),
         rss_limit=700)
url_case("url_many_headers", "500 header lines: refused or read, never a traceback",
         lambda ctx, c, req, s: _send(c, b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(500))
                                      + b"Content-Length: 3\r\n\r\nid\n"))

_BOMB = {}
_BOMB_LOCK = threading.Lock()


def gzip_bomb() -> bytes:
    """About 1 GiB of zeros, gzipped (~1 MB)."""
    with _BOMB_LOCK:
        if "b" not in _BOMB:
            co = zlib.compressobj(9, zlib.DEFLATED, 31)
            chunk = b"\0" * (1 << 20)
            parts = [co.compress(chunk) for _ in range(1024)]
            parts.append(co.flush())
            _BOMB["b"] = b"".join(parts)
        return _BOMB["b"]


url_case("url_gzip_bomb_encoding", "Content-Encoding: gzip bomb (1 GiB of zeros): refused, memory bounded",
         lambda ctx, c, req, s: _send(c, http_response(body=gzip_bomb(), headers={"Content-Encoding": "gzip"})),
         rss_limit=700)
url_case("url_gzip_bomb_body", "a gzip file (1 GiB unpacked) served as text/csv: refused, memory bounded",
         lambda ctx, c, req, s: _send(c, http_response(body=gzip_bomb())), rss_limit=700)


def h_endless(ctx, c, req, s):
    _send(c, b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nConnection: close\r\n\r\nid,name\nS1,\"")
    chunk = b"a" * (1 << 20)
    sent = 0
    while not s.stopped.is_set() and sent < 700 << 20:
        try:
            c.sendall(chunk)
        except OSError:
            return
        sent += len(chunk)


url_case("url_endless_body", "an endless body (no Content-Length): stopped at the declared limits, memory bounded",
         h_endless, rss_limit=700, timeout=60)


def h_huge_cl(ctx, c, req, s):
    _send(c, http_response(body=b"id,name\n", headers={"Content-Length": str(10 ** 12)}))
    s.stopped.wait(60)


url_case("url_huge_content_length", "Content-Length: 10^12: refused quickly (over 256 MB) or on timeout", h_huge_cl)


def h_signin(ctx, c, req, s):
    page = (b"<!DOCTYPE html><html><head><title>Sign in - Google Accounts</title></head>"
            b"<body><form>Email or phone<input name=identifier></form></body></html>")
    _send(c, http_response(body=page, headers={"Content-Type": "text/html; charset=utf-8"}))


url_case("url_signin_page", "a sign-in page (text/html): one line, nothing written (README promise)", h_signin)
url_case("url_html_as_csv", "an HTML page labelled text/csv: refused, nothing written",
         lambda ctx, c, req, s: _send(c, http_response(body=b"<html><body><table><tr><td>id</td></tr></table></body></html>\n")))
url_case("url_empty_body", "200 with an empty body: no traceback, nothing written",
         lambda ctx, c, req, s: _send(c, http_response(body=b"")), expect="any")


def url_conn_refused(ctx):
    db = ctx.sky()
    before = sha(db)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    r = ctx.pnp("import", "sky", f"http://127.0.0.1:{port}/x.csv", db=db, timeout=40, env=URL_ENV)
    refuse_unchanged(r, db, before)


_CASES.append(Case("url_connection_refused", "url", url_conn_refused, 60, False, "a closed port: one line"))


def h_rst(ctx, c, req, s):
    import struct
    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


url_case("url_reset", "connection reset after the request: one line", h_rst)


def h_latin1(ctx, c, req, s):
    body = csv_text(ctx, lambda rows: set_cell(rows, "S1", "text", "Caf\u00e9")).encode("latin-1")
    _send(c, http_response(body=body))


url_case("url_bad_utf8", "Latin-1 bytes labelled UTF-8, no --encoding: refused, nothing written", h_latin1)


def h_big5(ctx, c, req, s):
    body = csv_text(ctx, lambda rows: set_cell(set_cell(rows, "S1", "text", "駭客聯盟"), "S1", "cost", "4")).encode("big5")
    _send(c, http_response(body=body, headers={"Content-Type": "text/csv"}))


def _big5(ctx, r, db, before):
    ok(r)
    got = card(ctx, db, "S1")
    if not got or got["text"] != "駭客聯盟":
        fail(f"--encoding big5 did not decode the link's text: {got and got['text']!r}")
    hold("--encoding big5 applies to links")


url_case("url_encoding_big5", "a Big5 link with --encoding big5 imports the right text (README promise)",
         h_big5, args=("--encoding", "big5"), after=_big5)


def url_timeout_env(val):
    def fn(ctx):
        db = ctx.sky()
        before = sha(db)
        srv = RawServer(lambda c, req, s: h_ok(ctx, c, req, s))
        ctx.servers.append(srv)
        r = ctx.pnp("import", "sky", srv.url(), db=db, timeout=40, env={"PNP_URL_TIMEOUT": val})
        basic(r)
        if r.rc == 0:
            hold(f"PNP_URL_TIMEOUT={val!r}: used a default and imported")
        refused(r)
        unchanged(db, before)
        hold(f"PNP_URL_TIMEOUT={val!r} refused: {r.brief()}")
    return fn


for v, n in (("abc", "text"), ("-5", "negative"), ("nan", "nan")):
    _CASES.append(Case(f"url_timeout_env_{n}", "url", url_timeout_env(v), 60, False,
                       f"PNP_URL_TIMEOUT={v}: a clear message or the default, never a traceback"))


def url_crlf(ctx):
    db = ctx.sky()
    before = sha(db)
    srv = RawServer(lambda c, req, s: h_ok(ctx, c, req, s))
    ctx.servers.append(srv)
    r = ctx.pnp("import", "sky", f"http://127.0.0.1:{srv.port}/a.csv\r\nX-Injected: 1", db=db, timeout=40, env=URL_ENV)
    if any(b"X-Injected" in q for q in srv.requests):
        fail("CR/LF in the link injected a header")
    refuse_unchanged(r, db, before)


_CASES.append(Case("url_crlf_injection", "url", url_crlf, 60, False,
                   "CR/LF inside the link: refused, no header injected"))


def url_password(ctx):
    db = ctx.sky()
    before = sha(db)
    srv = RawServer(lambda c, req, s: _send(c, http_response("401 Unauthorized", b"no", {"Content-Type": "text/plain"})))
    ctx.servers.append(srv)
    r = ctx.pnp("import", "sky", f"http://user:s3cr3tPW@127.0.0.1:{srv.port}/a.csv", db=db, timeout=40, env=URL_ENV)
    refused(r)
    unchanged(db, before)
    if "s3cr3tPW" in r.text:
        question("the error message repeats the password from the link (user:pass@); should it be masked?")
    hold(f"refused without echoing the password: {r.brief()}")


_CASES.append(Case("url_password_in_message", "url", url_password, 60, False,
                   "a link with user:password that gets 401: message does not echo the password"))


def url_file_scheme(ctx):
    db = ctx.sky()
    before = sha(db)
    p = ctx.path("x.csv")
    p.write_bytes(changed_csv(ctx))
    r = ctx.pnp("import", "sky", f"file://{p}", db=db, timeout=40)
    basic(r)
    if r.rc == 0:
        question(f"file:// link was imported as a file; README says links are http(s) ({r.brief()})")
    refuse_unchanged(r, db, before)


_CASES.append(Case("url_file_scheme", "url", url_file_scheme, 60, False,
                   "file:///… as the link: refused (links are http(s)) or clearly a path"))


# ---------------------------------------------------------------------------
# 2. files: CSV, JSON and XLSX imports (and game new --from)
# ---------------------------------------------------------------------------


def file_case(cid, doc, make, expect="refuse", name="in.csv", args=(), timeout=60, check=None, rss_limit=None,
              mem_mb=None):
    """make(ctx, path) writes the file; expect: refuse | accept | any."""
    def fn(ctx):
        db = ctx.sky()
        before = sha(db)
        p = ctx.path(name)
        make(ctx, p)
        r = ctx.pnp("import", "sky", p, *args, db=db, timeout=timeout, mem_mb=mem_mb)
        if mem_mb and r.rc and "MemoryError" in r.text:
            fail(f"ran out of the {mem_mb} MB address space given to it (MemoryError)")
        if rss_limit and r.maxrss_mb > rss_limit:
            fail(f"peak memory {r.maxrss_mb:.0f} MB (limit {rss_limit} MB); {r.brief()}")
        if check:
            check(ctx, r, db, before)
        if expect == "refuse":
            refuse_unchanged(r, db, before)
        basic(r)
        if r.rc != 0:
            unchanged(db, before)
        hold(r.brief())
    _CASES.append(Case(cid, "files", fn, timeout + 10, False, doc))


def w(text, enc="utf-8"):
    return lambda ctx, p: p.write_bytes(text(ctx).encode(enc) if callable(text) else text)


def cell(rid, col, val):
    return lambda ctx: csv_text(ctx, lambda rows: set_cell(rows, rid, col, val))


def _roundtrip(ctx):
    db = ctx.sky()
    a, b = ctx.path("a.csv"), ctx.path("b.csv")
    ok(ctx.pnp("export", "sky", "-o", a, db=db))
    ok(ctx.pnp("cards", "set", "sky", "S1", "text==HYPERLINK(\"http://x\")", db=db))
    ok(ctx.pnp("cards", "set", "sky", "S2", "text='-1 -3", db=db))
    ok(ctx.pnp("export", "sky", "-o", a, db=db))
    ok(ctx.pnp("import", "sky", a, db=db))
    ok(ctx.pnp("export", "sky", "-o", b, db=db))
    if a.read_bytes() != b.read_bytes():
        fail("export → import → export is not byte-identical with formula-like cells")
    c1 = card(ctx, db, "S1")
    if c1["text"] != '=HYPERLINK("http://x")':
        fail(f"formula-like text changed on the round trip: {c1['text']!r}")
    if "'=HYPERLINK" not in a.read_text(encoding="utf-8"):
        fail("export did not neutralise a cell starting with '='")
    hold("formula cells escaped with one apostrophe and round-trip byte-identically")


_CASES.append(Case("csv_formula_roundtrip", "files", _roundtrip, 120, False,
                   "README promise: formula-like cells get an apostrophe; export → import → export identical"))


def _bom_check(ctx, r, db, before):
    ok(r)
    c = card(ctx, db, "S1")
    if not c or c["fields"].get("cost") != 4:
        fail("UTF-8 BOM: import exited 0 but S1.cost is not 4")
    hold("UTF-8 BOM handled")


file_case("csv_utf8_bom", "a CSV with a UTF-8 BOM (Excel's 'CSV UTF-8') imports normally",
          lambda ctx, p: p.write_bytes(b"\xef\xbb\xbf" + changed_csv(ctx)), check=_bom_check)
file_case("csv_utf16", "a UTF-16 CSV without --encoding: clear refusal",
          lambda ctx, p: p.write_bytes(changed_csv(ctx).decode().encode("utf-16")))
file_case("csv_bad_utf8", "invalid UTF-8 bytes: clear refusal", w(cell("S1", "text", "Caf\u00e9"), "latin-1"))
file_case("csv_nul_bytes", "NUL bytes inside a cell: refused", lambda ctx, p: p.write_bytes(cell("S1", "text", "a\0b")(ctx).encode()))
file_case("csv_unterminated_quote", "an unterminated quoted cell: refused",
          w(lambda ctx: csv_text(ctx) + 'S9,ship,"Never closed,,1\n'))


def _semicolon(ctx, p):
    p.write_text(csv_text(ctx, lambda rows: [r.replace(",", ";") for r in set_cell(rows, "S1", "cost", "4")]), encoding="utf-8")


file_case("csv_semicolon_delimiter", "a semicolon-delimited CSV (European Excel): refused or read correctly, never half-read",
          _semicolon, expect="any",
          check=lambda ctx, r, db, before: (basic(r), (card(ctx, db, "S1")["fields"].get("cost") == 4 or fail("exit 0 but cost not imported")) if r.rc == 0 else None, hold(r.brief())))
file_case("csv_dup_id", "the same id twice with different values: refused (which row wins?)",
          w(lambda ctx: csv_text(ctx, lambda rows: rows + [set_cell(rows, "S1", "cost", "5")[1]] if False else
                                 rows[:2] + [rows[1].replace(",3,guild", ",5,guild")] + rows[2:])))
file_case("csv_dup_id_case", "ids 'S1' and 's1' in one file: refused or clearly two cards",
          w(lambda ctx: csv_text(ctx, lambda rows: rows + [rows[1].replace("S1,ship,Alpha", "s1,ship,Alpha2")])),
          expect="any",
          check=lambda ctx, r, db, before: (basic(r), question("ids differing only in case were both accepted: on case-insensitive file systems their images collide") if r.rc == 0 else hold(f"refused: {r.brief()}")))
file_case("csv_dup_header", "two 'cost' columns: refused",
          w(lambda ctx: csv_text(ctx, lambda rows: [rows[0] + ",cost"] + [r + ",9" for r in rows[1:]])))


def _unknown_col(ctx, r, db, before):
    basic(r)
    if r.rc == 0:
        question(f"an unknown column 'cots' (typo of cost) was accepted silently: {r.brief()}")
    refused(r)
    unchanged(db, before)
    hold(f"refused: {r.brief()}")


file_case("csv_unknown_column", "a typo'd column header ('cots'): refused or at least warned",
          w(lambda ctx: csv_text(ctx, lambda rows: [rows[0] + ",cots"] + [r + ",4" for r in rows[1:]])), check=_unknown_col)
for val, n in (("nan", "nan"), ("inf", "inf"), ("1e400", "1e400"), ("3.5", "float"), ("0x10", "hex"),
               ("99999999999999999999", "int_overflow"), ("-9223372036854775809", "int_underflow"), ("4 4", "space")):
    file_case(f"csv_int_{n}", f"integer field cost={val}: refused", w(cell("S1", "cost", val)))


def _fullwidth(ctx, r, db, before):
    basic(r)
    if r.rc == 0:
        c = card(ctx, db, "S1")
        question(f"full-width digits '４' accepted as the integer {c['fields'].get('cost')!r}: normalise or refuse?")
    refused(r)
    unchanged(db, before)
    hold(f"refused: {r.brief()}")


file_case("csv_int_fullwidth", "integer field cost='４' (full-width digit)", w(cell("S1", "cost", "４")), check=_fullwidth)
file_case("csv_copies_negative", "copies=-1: refused", w(cell("S1", "copies", "-1")))
file_case("csv_copies_1000", "copies=1000 (limit 999): refused", w(cell("S1", "copies", "1000")))
file_case("csv_name_zero_width", "a name with a zero-width space: refused (README)", w(cell("S1", "name", "Al\u200bpha")))
file_case("csv_name_bidi", "a name with a right-to-left override: refused (README)", w(cell("S1", "name", "\u202eahplA")))
file_case("csv_text_control", "a BEL control character in text: refused (README)", w(cell("S1", "text", "ring\x07")))
file_case("csv_name_201", "a 201-character name: refused (limit 200)", w(cell("S1", "name", "N" * 201)))
file_case("csv_cell_200k", "a 200,000-character cell: refused (limit 100,000)", w(cell("S1", "notes", "n" * 200_000)))
file_case("csv_enum_bad", "an enum value outside the allowed list: refused", w(cell("S1", "faction", "space-elves")))
def new_row(ctx, rid, name="Newship"):
    rows = ctx.cfg.sky_csv.splitlines()
    head = rows[0].split(",")
    vals = {"id": rid, "type": "ship", "name": name, "copies": "1", "cost": "2", "faction": "guild",
            "provenance": "provisional"}
    return ",".join(vals.get(h, "") for h in head)


file_case("csv_id_dotdot", "new card id 'a..b': refused", w(lambda ctx: csv_text(ctx) + new_row(ctx, "a..b") + "\n"))
file_case("csv_id_slash", "new card id '../evil': refused", w(lambda ctx: csv_text(ctx) + new_row(ctx, "../evil") + "\n"))
file_case("csv_id_25chars", "new card id of 25 characters: refused (limit 24)",
          w(lambda ctx: csv_text(ctx) + new_row(ctx, "A" * 25) + "\n"))
file_case("csv_many_columns", "a header of 20,000 columns (200 KB): refused within 40 s",
          w(lambda ctx: ",".join(["id", "name"] + [f"c{i}" for i in range(20_000)]) + "\nS1,Alpha\n"), timeout=40)
file_case("csv_one_huge_line", "a 60 MB line with no newline: refused, memory bounded",
          lambda ctx, p: p.write_bytes(b"id,name\nS1,\"" + b"x" * (60 << 20)), rss_limit=900)


def _sparse(size, head=b"id,name\n"):
    def mk(ctx, p):
        with open(p, "wb") as f:
            f.write(head)
            f.truncate(size)
    return mk


file_case("csv_oversize_sparse", "a 300 MB CSV (limit 256 MB): refused by size, quickly and in bounded memory",
          _sparse(300 << 20), rss_limit=500)
file_case("json_oversize_sparse", "a 70 MB JSON (limit 64 MB): refused, memory bounded",
          _sparse(70 << 20, b"["), name="in.json", rss_limit=500)
file_case("json_deep_nesting", "JSON nested 200,000 deep: refused, no RecursionError traceback",
          lambda ctx, p: p.write_text("[" * 200_000 + "]" * 200_000), name="in.json")


def json_rows(mut):
    def mk(ctx, p):
        db = ctx.dir / "proj" / "sky.db"
        r = ctx.pnp("export", "sky", "--format", "json", db=db)
        data = json.loads(r.out)
        rows = data if isinstance(data, list) else data.get("cards", data)
        mut(rows)
        p.write_text(json.dumps(data if not isinstance(data, list) else rows, ensure_ascii=False), encoding="utf-8")
    return mk


def first(rows):
    return next(r for r in rows if r["id"] == "S1")


file_case("json_id_integer", "JSON id 123 (a number): refused or stored as '123', never a traceback",
          json_rows(lambda rows: rows.append({**first(rows), "id": 123, "name": "Num"})), name="in.json", expect="any")
file_case("json_id_null", "JSON id null: refused", json_rows(lambda rows: first(rows).update(id=None)), name="in.json")
file_case("json_id_list", "JSON id [1,2]: refused", json_rows(lambda rows: first(rows).update(id=[1, 2])), name="in.json")
file_case("json_field_nested", "a field value that is an object: refused (no nesting, README)",
          json_rows(lambda rows: first(rows)["fields"].update(cost={"$gt": 1}) if "fields" in first(rows) else first(rows).update(cost={"a": 1})),
          name="in.json")
file_case("json_cost_true", "cost: true (bool is an int in Python): refused",
          json_rows(lambda rows: first(rows)["fields"].update(cost=True) if "fields" in first(rows) else first(rows).update(cost=True)),
          name="in.json")
file_case("json_cost_nan", "cost: NaN literal: refused",
          lambda ctx, p: (json_rows(lambda rows: first(rows)["fields"].update(cost=1234567) if "fields" in first(rows) else first(rows).update(cost=1234567))(ctx, p),
                          p.write_text(p.read_text(encoding="utf-8").replace("1234567", "NaN"), encoding="utf-8")),
          name="in.json")
file_case("json_cost_1e400", "cost: 1e400 (infinity): refused",
          lambda ctx, p: (json_rows(lambda rows: first(rows)["fields"].update(cost=1234567) if "fields" in first(rows) else first(rows).update(cost=1234567))(ctx, p),
                          p.write_text(p.read_text(encoding="utf-8").replace("1234567", "1e400"), encoding="utf-8")),
          name="in.json")
file_case("json_lone_surrogate", "a name with a lone surrogate \\ud800: refused, no UnicodeEncodeError traceback",
          lambda ctx, p: (json_rows(lambda rows: first(rows).update(name="SURROGATE"))(ctx, p),
                          p.write_text(p.read_text(encoding="utf-8").replace("SURROGATE", "A\\ud800B"), encoding="utf-8")),
          name="in.json")
file_case("json_top_object", "a JSON object instead of a list of cards: refused",
          lambda ctx, p: p.write_text('{"hello": "world"}'), name="in.json")
file_case("json_bom", "a JSON file with a UTF-8 BOM: read or refused in one line",
          lambda ctx, p: (json_rows(lambda rows: None)(ctx, p), p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())),
          name="in.json", expect="any")
file_case("json_truncated", "a JSON file cut in half: refused",
          lambda ctx, p: (json_rows(lambda rows: None)(ctx, p), p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2])),
          name="in.json")


# ---- XLSX, hand-made ------------------------------------------------------

CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      '<Default Extension="xml" ContentType="application/xml"/>'
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
      '</Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
        '</Relationships>')
WB = ('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
      '<sheet name="ship" sheetId="1" r:id="rId1"/></sheets></workbook>')
WBRELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
          '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
          '</Relationships>')
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def _col(i):
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s


def sheet_xml(rows, dimension=None, prolog=""):
    out = [f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet {NS}>']
    if dimension:
        out.append(f'<dimension ref="{dimension}"/>')
    out.append("<sheetData>")
    for ri, row in enumerate(rows, 1):
        out.append(f'<row r="{ri}">')
        for ci, v in enumerate(row):
            ref = f"{_col(ci)}{ri}"
            if isinstance(v, tuple):  # raw cell xml
                out.append(f'<c r="{ref}"{v[0]}>{v[1]}</c>')
            elif isinstance(v, (int, float)):
                out.append(f'<c r="{ref}"><v>{v}</v></c>')
            elif v is None or v == "":
                continue
            else:
                esc = str(v).replace("&", "&amp;").replace("<", "&lt;")
                out.append(f'<c r="{ref}" t="inlineStr"><is><t>{esc}</t></is></c>')
        out.append("</row>")
    out.append("</sheetData></worksheet>")
    return "".join(out)


def xlsx(path, sheet, shared='<?xml version="1.0" encoding="UTF-8"?><sst ' + NS + ' count="0" uniqueCount="0"/>'):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CT)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WB)
        z.writestr("xl/_rels/workbook.xml.rels", WBRELS)
        z.writestr("xl/worksheets/sheet1.xml", sheet)
        z.writestr("xl/sharedStrings.xml", shared)


def sky_rows(ctx, mutate=None):
    import csv as _csv
    import io
    rows = list(_csv.reader(io.StringIO(ctx.cfg.sky_csv)))
    head, body = rows[0], [r for r in rows[1:] if r[1] == "ship"]
    out = [head]
    for r in body:
        rr = []
        for h, v in zip(head, r):
            rr.append(int(v) if h in ("copies", "cost") and v else v)
        out.append(rr)
    if mutate:
        mutate(out)
    return out


def xcase(cid, doc, make, expect="refuse", rss_limit=900, timeout=90, check=None):
    file_case(cid, doc, make, expect=expect, name="in.xlsx", rss_limit=rss_limit, timeout=timeout, check=check,
              mem_mb=1500)


def _setx(rows, rid, col, val):
    i = rows[0].index(col)
    for r in rows[1:]:
        if r[0] == rid:
            r[i] = val


def _xlsx_ok(ctx, r, db, before):
    ok(r)
    c = card(ctx, db, "S1")
    if c["fields"].get("cost") != 4:
        fail("hand-made XLSX: exit 0 but S1.cost is not 4")
    hold("a hand-made minimal XLSX imports")


xcase("xlsx_control_handmade", "control: a minimal hand-made XLSX (inline strings) imports the change",
      lambda ctx, p: xlsx(p, sheet_xml(sky_rows(ctx, lambda rows: _setx(rows, "S1", "cost", 4)))), check=_xlsx_ok)


def _xlsx_roundtrip(ctx):
    db = ctx.sky()
    before = ctx.dump(db)
    p = ctx.path("sky.xlsx")
    ok(ctx.pnp("export", "sky", "-o", p, db=db))
    r = ctx.pnp("import", "sky", p, db=db)
    ok(r)
    if ctx.dump(db) != before:
        fail("export → import of XLSX changed the cards")
    hold(f"XLSX round trip changes nothing ({r.out.strip().splitlines()[-1] if r.out.strip() else ''})")


_CASES.append(Case("xlsx_roundtrip", "files", _xlsx_roundtrip, 120, False, "README promise: an XLSX round trip changes nothing"))


def _xlsx_no_formula(ctx):
    db = ctx.sky()
    ok(ctx.pnp("cards", "set", "sky", "S1", "text==1+1", db=db))
    p = ctx.path("sky.xlsx")
    ok(ctx.pnp("export", "sky", "-o", p, db=db))
    with zipfile.ZipFile(p) as z:
        blob = b"".join(z.read(n) for n in z.namelist() if n.startswith("xl/worksheets/"))
    if b"<f>" in blob or b"<f " in blob:
        fail("exported XLSX holds a formula cell")
    hold("'=1+1' exported as text, not a formula")


_CASES.append(Case("xlsx_export_no_formula", "files", _xlsx_no_formula, 120, False,
                   "README promise: text starting with '=' is exported as text, never a formula"))


def _formula(ctx, r, db, before):
    basic(r)
    if r.rc == 0:
        c = card(ctx, db, "S1")
        question(f"a formula cell (<f>1+3</f>, cached 4) was accepted as cost={c['fields'].get('cost')!r}: take the cached value or refuse?")
    refused(r)
    unchanged(db, before)
    hold(f"formula cell refused: {r.brief()}")


xcase("xlsx_formula_cell", "a formula cell in an integer field", lambda ctx, p: xlsx(p, sheet_xml(
    sky_rows(ctx, lambda rows: _setx(rows, "S1", "cost", ("", "<f>1+3</f><v>4</v>"))))), check=_formula)
xcase("xlsx_error_cell", "an #DIV/0! error cell in an integer field: refused", lambda ctx, p: xlsx(p, sheet_xml(
    sky_rows(ctx, lambda rows: _setx(rows, "S1", "cost", (' t="e"', "<f>1/0</f><v>#DIV/0!</v>"))))))
xcase("xlsx_date_cell", "a date-styled cell in an integer field: refused or a clear message", lambda ctx, p: xlsx(p, sheet_xml(
    sky_rows(ctx, lambda rows: _setx(rows, "S1", "cost", (' t="d"', "<v>2026-01-01T00:00:00</v>"))))))
xcase("xlsx_not_zip", "random bytes named .xlsx: refused", lambda ctx, p: p.write_bytes(os.urandom(5000)))
xcase("xlsx_truncated", "an XLSX cut in half: refused", lambda ctx, p: (
    xlsx(p, sheet_xml(sky_rows(ctx))), p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2])))
xcase("xlsx_empty_zip", "an empty zip named .xlsx: refused",
      lambda ctx, p: zipfile.ZipFile(p, "w").close())


def _zip_bomb(ctx, p):
    """sheet1.xml inflates to ~512 MB of whitespace inside <sheetData>."""
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", CT)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WB)
        z.writestr("xl/_rels/workbook.xml.rels", WBRELS)
        z.writestr("xl/sharedStrings.xml", '<sst ' + NS + '/>')
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            f.write(f'<?xml version="1.0"?><worksheet {NS}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>'.encode())
            blk = b" " * (8 << 20)
            for _ in range(64):
                f.write(blk)
            f.write(b"</sheetData></worksheet>")


xcase("xlsx_zip_bomb", "a zip bomb (sheet inflating to 512 MB): refused, bounded time and memory", _zip_bomb,
      rss_limit=900, timeout=60)
xcase("xlsx_huge_dimension", "declared dimension A1:XFD1048576 with 5 real rows: no giant allocation",
      lambda ctx, p: xlsx(p, sheet_xml(sky_rows(ctx), dimension="A1:XFD1048576")), expect="any", rss_limit=600)


def _huge_sst(ctx, p):
    n = 1_000_000
    parts = ['<?xml version="1.0" encoding="UTF-8"?><sst ' + NS + f' count="{n}" uniqueCount="{n}">']
    parts.append("<si><t>x</t></si>" * n)
    parts.append("</sst>")
    xlsx(p, sheet_xml(sky_rows(ctx)), shared="".join(parts))


xcase("xlsx_huge_shared_strings", "1,000,000 shared strings (small compressed): bounded memory and time (45 s)",
      _huge_sst, expect="any", rss_limit=900, timeout=45)
BILLION = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
           + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % ("" if i == 1 else i - 1)) * 10}">' for i in range(1, 10))
           + ']>')


def _laughs(ctx, p):
    rows = sky_rows(ctx, lambda rows: _setx(rows, "S1", "text", ("", "")))
    sheet = sheet_xml(rows)
    sst = BILLION + '<sst ' + NS + ' count="1" uniqueCount="1"><si><t>&lol9;</t></si></sst>'
    sheet = sheet.replace('<c r="I2"></c>', '<c r="I2" t="s"><v>0</v></c>')
    xlsx(p, sheet, shared=sst)


xcase("xlsx_billion_laughs", "billion-laughs entities in sharedStrings.xml: refused, bounded", _laughs, rss_limit=700)


def _xxe(ctx, p):
    secret = ctx.path("secret.txt")
    secret.write_text("TOPSECRET-XXE")
    sst = (f'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file://{secret}">]>'
           f'<sst {NS} count="1" uniqueCount="1"><si><t>&xxe;</t></si></sst>')
    rows = sky_rows(ctx, lambda rows: _setx(rows, "S1", "text", ("", "")))
    sheet = sheet_xml(rows).replace('<c r="I2"></c>', '<c r="I2" t="s"><v>0</v></c>')
    xlsx(p, sheet, shared=sst)


def _xxe_check(ctx, r, db, before):
    basic(r)
    c = card(ctx, db, "S1")
    if "TOPSECRET" in r.text or (c and "TOPSECRET" in json.dumps(c)):
        fail("an external entity read a local file into the import")
    if r.rc != 0:
        unchanged(db, before)
    hold(f"external entity not resolved ({r.brief()})")


xcase("xlsx_xxe", "an external entity (file://) in sharedStrings.xml: never read", _xxe, expect="any", check=_xxe_check)
xcase("xlsx_sheet_dtd_entity", "a DTD with an internal entity in the sheet: no expansion surprises",
      lambda ctx, p: xlsx(p, sheet_xml(sky_rows(ctx, lambda rows: _setx(rows, "S1", "text", ("", ""))),
                                       prolog='<!DOCTYPE w [<!ENTITY e "ENTITYTEXT">]>').replace(
          '<c r="I2"></c>', '<c r="I2" t="inlineStr"><is><t>&e;</t></is></c>')), expect="any")


# ---- game new --from ------------------------------------------------------

def gamenew_case(cid, doc, content, expect="refuse", name="sheet.csv", extra=(), check=None, slug="newgame"):
    def fn(ctx):
        proj = ctx.path("p")
        proj.mkdir()
        db = proj / "g.db"
        ok(ctx.pnp("db", "init", db=db, cwd=proj))
        before = sha(db)
        p = proj / name
        content(ctx, p) if callable(content) else p.write_bytes(content)
        r = ctx.pnp("game", "new", slug, "--title", "T", "--from", p, *extra, db=db, cwd=proj, timeout=90)
        outside = [x for x in ctx.dir.rglob("*.toml") if proj not in x.parents]
        if outside:
            fail(f"wrote a layout outside the project: {outside[0]}")
        if check:
            check(ctx, r, db, before, proj)
        if expect == "refuse":
            refuse_unchanged(r, db, before)
        basic(r)
        hold(r.brief())
    _CASES.append(Case(cid, "files", fn, 120, False, doc))


gamenew_case("gamenew_empty_csv", "game new from an empty CSV: refused", b"")
gamenew_case("gamenew_header_only", "game new from a header-only CSV: refused", b"name,type,copies\n")
gamenew_case("gamenew_type_traversal", "a card type named '../../../evil': no file written outside templates/",
             "name,type\nA,../../../evil\nB,../../../evil\n".encode(), expect="any")
gamenew_case("gamenew_bad_slug", "slug '../x': refused", b"name\nA\n", slug="../x")


def _never_overwritten(ctx):
    proj = ctx.path("p")
    proj.mkdir()
    db = proj / "g.db"
    ok(ctx.pnp("db", "init", db=db, cwd=proj))
    (proj / "templates" / "mine").mkdir(parents=True)
    mine = proj / "templates" / "mine" / "ship.toml"
    mine.write_text("# my own layout, hand-edited\nextends = \"base\"\n")
    (proj / "s.csv").write_text("name,type,copies\nA,ship,1\nB,ship,2\n")
    r = ctx.pnp("game", "new", "mine", "--title", "Mine", "--from", proj / "s.csv", db=db, cwd=proj, timeout=90)
    basic(r)
    if "hand-edited" not in mine.read_text():
        fail("game new overwrote a designer's layout (README: never overwritten)")
    hold(f"existing layout kept ({r.brief()})")


_CASES.append(Case("gamenew_never_overwrites_layout", "files", _never_overwritten, 120, False,
                   "README promise: starter layouts are never overwritten"))


# ---------------------------------------------------------------------------
# 3. the cache folder (PNP_CACHE_DIR): damage must never change the PDF
# ---------------------------------------------------------------------------


def damage(path: Path, how: str, rng: random.Random):
    data = path.read_bytes()
    if how == "bitflip":
        if data:
            i = rng.randrange(len(data))
            data = data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    elif how == "truncate":
        data = data[: len(data) // 2]
    elif how == "random":
        data = rng.randbytes(max(len(data), 1))
    elif how == "empty":
        data = b""
    path.write_bytes(data)


def print_sky_same(ctx, what, env=None, drop=False, db=None):
    db = db or ctx.dir / "proj" / "sky.db"
    out = ctx.path("out.pdf")
    r = ctx.pnp("print", "sky", "-o", out, db=db, env=env, drop=drop, timeout=120)
    ok(r, what)
    if out.read_bytes() != ctx.cfg.ref_sky:
        fail(f"{what}PDF bytes differ from a clean run")
    return r


def cache_case(cid, doc, sub, how):
    def fn(ctx):
        ctx.sky()
        files = [f for f in (ctx.dir / "cache" / sub).rglob("*") if f.is_file()] if (ctx.dir / "cache" / sub).exists() else []
        if not files:
            question(f"no cache files under {sub}/ to damage (cache layout changed?)")
        rng = random.Random(cid)
        for f in files:
            damage(f, how, rng)
        print_sky_same(ctx, f"{how} {sub}: ")
        hold(f"{len(files)} damaged {sub} entries: same PDF bytes")
    _CASES.append(Case(cid, "cache", fn, 150, False, doc))


for sub in ("layouts", "templates", "patterns", "fonts"):
    for how in ("bitflip", "truncate", "random", "empty"):
        cache_case(f"cache_{how}_{sub}", f"every {sub}/ cache entry {how}: print still gives the clean PDF bytes", sub, how)


def _all_random(ctx):
    ctx.sky()
    rng = random.Random(7)
    n = 0
    for f in (ctx.dir / "cache").rglob("*"):
        if f.is_file():
            damage(f, rng.choice(["bitflip", "truncate", "random", "empty"]), rng)
            n += 1
    print_sky_same(ctx, "mixed damage: ")
    hold(f"{n} entries damaged in mixed ways: same PDF")


_CASES.append(Case("cache_mixed_damage", "cache", _all_random, 150, False, "every cache entry damaged at random: same PDF"))


def _cold(ctx):
    ctx.sky(warm=False)
    print_sky_same(ctx, "cold cache: ")
    hold("cold-cache PDF is byte-identical to the warm one (README promise)")


_CASES.append(Case("cache_cold_equals_warm", "cache", _cold, 200, True, "README promise: a cold cache gives the same PDF bytes"))


def _hackers_glyphs(ctx):
    db = ctx.shipped()
    rng = random.Random(3)
    files = [f for f in (ctx.dir / "cache" / "fonts").rglob("*") if f.is_file()]
    for f in files:
        damage(f, rng.choice(["bitflip", "truncate", "random"]), rng)
    out = ctx.path("h.pdf")
    r = ctx.pnp("print", "hackers", "-o", out, db=db, timeout=240)
    ok(r)
    if out.read_bytes() != ctx.cfg.ref_hackers:
        fail("damaged CJK glyph/subset cache changed the hackers PDF")
    hold(f"{len(files)} font cache files damaged: same hackers PDF")


_CASES.append(Case("cache_cjk_glyphs_damaged", "cache", _hackers_glyphs, 260, True,
                   "converted CJK glyphs and subsets damaged: the zh-Hant PDF is unchanged"))


def _cache_file(ctx):
    ctx.sky(warm=False)
    f = ctx.path("cachefile")
    f.write_text("not a folder")
    r = ctx.pnp("print", "sky", "-o", ctx.path("out.pdf"), db=ctx.dir / "proj" / "sky.db",
                env={"PNP_CACHE_DIR": str(f)}, timeout=200)
    basic(r)
    if f.read_text() != "not a folder":
        fail("the regular file named by PNP_CACHE_DIR was overwritten")
    if r.rc == 0:
        if ctx.path("out.pdf").read_bytes() != ctx.cfg.ref_sky:
            fail("PDF differs when the cache is a regular file")
        hold("prints the same PDF without a cache")
    refused(r)
    question(f"PNP_CACHE_DIR is a regular file: print refused ({r.brief()}); README says the cache only makes runs faster")


_CASES.append(Case("cache_is_regular_file", "cache", _cache_file, 230, True, "PNP_CACHE_DIR names a regular file"))


def _cache_ro(ctx):
    ctx.sky()
    c = ctx.dir / "cache"
    for f in sorted(c.rglob("*"), reverse=True):
        os.chmod(f, 0o555 if f.is_dir() else 0o444)
    os.chmod(c, 0o555)
    print_sky_same(ctx, "read-only warm cache: ", drop=True)
    hold("read-only warm cache: same PDF")


_CASES.append(Case("cache_readonly_warm", "cache", _cache_ro, 150, False, "a read-only warm cache: same PDF, no error"))


def _cache_ro_cold(ctx):
    ctx.sky(warm=False)
    c = ctx.dir / "cache"
    c.mkdir()
    os.chmod(c, 0o555)
    print_sky_same(ctx, "read-only empty cache: ", drop=True)
    hold("read-only empty cache: same PDF")


_CASES.append(Case("cache_readonly_cold", "cache", _cache_ro_cold, 230, True, "an empty read-only cache folder: same PDF"))


def _cache_sub_file(ctx):
    ctx.sky()
    c = ctx.dir / "cache"
    for sub in ("layouts", "templates", "patterns"):
        shutil.rmtree(c / sub, ignore_errors=True)
        (c / sub).write_text("i am a file")
    print_sky_same(ctx, "cache sub-folders replaced by files: ")
    hold("sub-folders replaced by files: same PDF")


_CASES.append(Case("cache_subdir_is_file", "cache", _cache_sub_file, 150, False, "cache sub-folders replaced by regular files"))


def _cache_loop(ctx):
    ctx.sky()
    c = ctx.dir / "cache"
    shutil.rmtree(c / "layouts")
    os.symlink("layouts", c / "layouts")
    print_sky_same(ctx, "symlink loop: ")
    hold("a symlink loop in the cache: same PDF")


_CASES.append(Case("cache_symlink_loop", "cache", _cache_loop, 150, False, "cache/layouts is a symlink to itself"))


def _cache_evil_pickle(ctx):
    import pickle
    ctx.sky()
    marker = ctx.path("PWNED")

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))
    blob = pickle.dumps(Evil())
    n = 0
    for f in (ctx.dir / "cache").rglob("*.pickle"):
        f.write_bytes(blob)
        n += 1
    if not n:
        question("no *.pickle cache entries found")
    try:
        print_sky_same(ctx, "planted pickles: ")
    except Verdict as v:
        if marker.exists():
            fail(f"a pickle planted in the cache ran a command, and then: {v.reason}")
        raise
    if marker.exists():
        question("a pickle planted in the cache folder ran code when printing (the cache is trusted like code: is that acceptable?)")
    hold("planted pickles did not run")


_CASES.append(Case("cache_planted_pickle", "cache", _cache_evil_pickle, 150, False,
                   "cache entries replaced by pickles that run a command: never executed, same PDF"))


def _cache_bound(ctx):
    ctx.sky()
    lay = ctx.dir / "cache" / "layouts"
    shutil.rmtree(lay, ignore_errors=True)  # so the print must write fresh entries (a trim may run on write)
    lay.mkdir()
    old = time.time() - 86400 * 30
    for i in range(2100):
        f = lay / (f"{i:064x}.pickle")
        f.write_bytes(b"junk")
        os.utime(f, (old, old))
    print_sky_same(ctx, "2,100 stale entries: ")
    n = sum(1 for _ in lay.iterdir())
    if n > 2000 + 20:
        fail(f"layouts/ holds {n} entries after a print (README: bounded at 2,000 per folder)")
    hold(f"layouts/ trimmed to {n} entries")


_CASES.append(Case("cache_bounded_2000", "cache", _cache_bound, 150, False,
                   "README promise: a cache folder beyond 2,000 entries is trimmed"))


def _cache_concurrent(ctx):
    db = ctx.sky(warm=False)
    outs = [ctx.path(f"o{i}.pdf") for i in range(2)]
    ps = [ctx.pnp("print", "sky", "-o", o, db=db, wait=False) for o in outs]
    rs = [ctx.wait(p, 240) for p in ps]
    for r in rs:
        ok(r)
    for o in outs:
        if o.read_bytes() != ctx.cfg.ref_sky:
            fail("two prints filling one cold cache at once: a PDF differs")
    hold("two concurrent cold-cache prints: both PDFs identical to the clean run")


_CASES.append(Case("cache_concurrent_cold", "cache", _cache_concurrent, 260, True,
                   "two prints fill the same empty cache at once"))


# ---------------------------------------------------------------------------
# 4. databases
# ---------------------------------------------------------------------------


def db_case(cid, doc, timeout=90, heavy=False):
    def deco(fn):
        _CASES.append(Case(cid, "db", fn, timeout, heavy, doc))
        return fn
    return deco


WRITE = ("cards", "set", "sky", "S1", "cost=4")


@db_case("db_readonly_file_write", "a read-only cards.db: a write is refused in one line, file unchanged")
def _ro_write(ctx):
    db = ctx.sky()
    os.chmod(db, 0o444)
    before = sha(db)
    r = ctx.pnp(*WRITE, db=db, drop=True)
    refuse_unchanged(r, db, before)


@db_case("db_readonly_file_read", "a read-only cards.db: read commands work")
def _ro_read(ctx):
    db = ctx.sky()
    os.chmod(db, 0o444)
    r = ctx.pnp("cards", "list", "sky", db=db, drop=True)
    ok(r)
    hold("read works on a read-only file")


@db_case("db_readonly_folder_read", "cards.db in a read-only folder: read commands work, nothing created")
def _ro_dir_read(ctx):
    db = ctx.sky()
    os.chmod(db.parent, 0o555)
    listing = sorted(os.listdir(db.parent))
    r = ctx.pnp("cards", "search", "sky", "cost>=2", db=db, drop=True)
    os.chmod(db.parent, 0o755)
    ok(r)
    if sorted(os.listdir(db.parent)) != listing:
        fail("a read command left files beside the database")
    hold("read works in a read-only folder")


@db_case("db_readonly_folder_write", "cards.db in a read-only folder: a write is refused cleanly or done, never half")
def _ro_dir_write(ctx):
    db = ctx.sky()
    os.chmod(db.parent, 0o555)
    before = sha(db)
    r = ctx.pnp(*WRITE, db=db, drop=True)
    os.chmod(db.parent, 0o755)
    basic(r)
    if r.rc == 0:
        c = card(ctx, db, "S1")
        if c["fields"]["cost"] != 4:
            fail("exit 0 but the change is missing")
        hold("write done in place (journal allowed)")
    refuse_unchanged(r, db, before)


LOCKER = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=5, isolation_level=None)
c.execute("BEGIN " + sys.argv[2])
if sys.argv[2] == "IMMEDIATE":
    c.execute("UPDATE cards SET notes = notes WHERE 0")
print("locked", flush=True)
sys.stdin.readline()
c.execute("ROLLBACK")
"""


def locked(ctx, db, mode):
    """Hold a SQLite lock from another process (a POSIX lock held in this process would be
    dropped as soon as this process closes any descriptor of the file, e.g. to hash it)."""
    import sys
    p = subprocess.Popen([sys.executable, "-c", LOCKER, str(db), mode], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, start_new_session=True)
    line = p.stdout.readline()
    if "locked" not in line:
        raise RuntimeError("could not take the lock")

    class Rel:
        def set(self):
            if p.poll() is None:
                try:
                    p.stdin.write("\n")
                    p.stdin.flush()
                except OSError:
                    pass
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()

        def stop(self):
            self.set()
            if p.poll() is None:
                p.kill()
    rel = Rel()
    ctx.servers.append(rel)
    return rel


@db_case("db_locked_write", "another program holds the write lock: 'locked … nothing was changed' after PNP_BUSY_TIMEOUT")
def _locked_write(ctx):
    db = ctx.sky()
    locked(ctx, db, "EXCLUSIVE")
    before = sha(db)
    r = ctx.pnp(*WRITE, db=db, env={"PNP_BUSY_TIMEOUT": "2"})
    refused(r)
    unchanged(db, before)
    if "lock" not in r.text.lower():
        fail(f"the message does not say the database is locked: {r.brief()}")
    if r.secs > 20:
        fail(f"waited {r.secs:.0f} s with PNP_BUSY_TIMEOUT=2")
    hold(f"{r.brief()} after {r.secs:.1f} s")


@db_case("db_locked_read", "another program holds an exclusive lock: a read waits or says so in one line")
def _locked_read(ctx):
    db = ctx.sky()
    locked(ctx, db, "EXCLUSIVE")
    r = ctx.pnp("cards", "list", "sky", db=db, env={"PNP_BUSY_TIMEOUT": "2"})
    basic(r)
    if r.rc == 0:
        hold("read succeeded")
    refused(r)
    hold(r.brief())


@db_case("db_busy_timeout_bad", "PNP_BUSY_TIMEOUT=abc: a clear message or the default, never a traceback")
def _busy_bad(ctx):
    db = ctx.sky()
    r = ctx.pnp(*WRITE, db=db, env={"PNP_BUSY_TIMEOUT": "abc"})
    basic(r)
    hold(r.brief())


def corrupt_case(cid, doc, mangle):
    def fn(ctx):
        db = ctx.sky()
        mangle(db)
        before = sha(db)
        for args in (WRITE, ("print", "sky", "-o", ctx.path("x.pdf")), ("cards", "list", "sky")):
            r = ctx.pnp(*args, db=db)
            basic(r, f"{args[0]}: ")
            unchanged(db, before, "damaged database")
        if r.rc == 0:
            hold("damage not on the pages read; no traceback, file untouched")
        refused(r)
        hold(f"{r.brief()}")
    _CASES.append(Case(cid, "db", fn, 120, False, doc))


def _hdr(db):
    b = bytearray(db.read_bytes())
    b[0:16] = b"garbage garbage!"
    db.write_bytes(bytes(b))


def _mid(db):
    b = bytearray(db.read_bytes())
    rng = random.Random(5)
    for i in range(4096, len(b), 997):
        b[i] = rng.randrange(256)
    db.write_bytes(bytes(b))


def _trunc(db):
    b = db.read_bytes()
    db.write_bytes(b[: len(b) // 2 + 123])


corrupt_case("db_corrupt_header", "the SQLite header overwritten: one line (restore/salvage advice), file untouched", _hdr)
corrupt_case("db_corrupt_pages", "bytes scribbled over every page: one line per command, file untouched", _mid)
corrupt_case("db_truncated", "cards.db cut in half: one line, file untouched", _trunc)


def odd_db(cid, doc, make):
    def fn(ctx):
        p = ctx.path("odd.db")
        make(ctx, p)
        before = sha(p) if p.is_file() else None
        for args in (("games",), WRITE, ("db", "upgrade")):
            r = ctx.pnp(*args, db=p, timeout=30)
            refused(r, f"{' '.join(args[:2])}: ")
            if p.is_file() and sha(p) != before:
                fail(f"{args[0]} changed the file")
        hold(r.brief())
    _CASES.append(Case(cid, "db", fn, 120, False, doc))


odd_db("db_empty_file", "an empty file as --db: refused, left as it was (README)", lambda ctx, p: p.write_bytes(b""))
odd_db("db_folder", "a folder as --db: refused (README)", lambda ctx, p: p.mkdir())
odd_db("db_fifo", "a FIFO as --db: refused, no hang (README)", lambda ctx, p: os.mkfifo(p))
odd_db("db_text_file", "a text file as --db: refused, unchanged", lambda ctx, p: p.write_text("hello, I am notes\n" * 50))


def _other_sqlite(ctx, p):
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    con.execute("INSERT INTO invoices VALUES (1, 9.5)")
    con.commit()
    con.close()


odd_db("db_other_program", "another program's SQLite file: refused, byte for byte unchanged (README)", _other_sqlite)
odd_db("db_pdf_file", "a PDF as --db: refused, unchanged", lambda ctx, p: p.write_bytes(ctx.cfg.ref_sky))


@db_case("db_missing_not_created", "a missing --db for a read command: one line, no file created")
def _missing(ctx):
    p = ctx.path("nope.db")
    r = ctx.pnp("games", db=p)
    refused(r)
    if p.exists():
        fail("a read command created the missing database")
    hold(r.brief())


@db_case("db_init_existing", "db init on an existing database: refused, nothing wiped")
def _init_existing(ctx):
    db = ctx.sky()
    before = sha(db)
    r = ctx.pnp("db", "init", db=db)
    basic(r)
    if sha(db) != before:
        fail("db init changed an existing card database")
    if r.rc == 0:
        question(f"db init on an existing database exits 0 ({r.brief()}); harmless, but is silence right?")
    hold(r.brief())


@db_case("db_init_over_file", "db init over a text file: refused, file unchanged")
def _init_file(ctx):
    p = ctx.path("notes.db")
    p.write_text("my precious notes\n")
    r = ctx.pnp("db", "init", db=p)
    refused(r)
    if p.read_text() != "my precious notes\n":
        fail("db init overwrote a non-database file")
    hold(r.brief())


@db_case("db_path_specials", "a --db path with #, ? and % works (README)")
def _specials(ctx):
    db = ctx.sky()
    d = ctx.path("a#b?c%20d")
    d.mkdir()
    p = d / "x#y?z%41.db"
    shutil.copy(db, p)
    r = ctx.pnp("cards", "set", "sky", "S1", "cost=4", db=p)
    ok(r)
    c = card(ctx, p, "S1")
    if c["fields"]["cost"] != 4:
        fail("write not visible")
    stray = [x.name for x in ctx.dir.iterdir() if x.name not in ("proj", "a#b?c%20d", "cache", "home") and not x.name.startswith(".")]
    if stray:
        fail(f"opened a different file: created {stray}")
    hold("works on the exact path")


@db_case("db_newer_schema", "a database from a newer pnpforge (user_version 9999): refused, unchanged (README)")
def _newer(ctx):
    db = ctx.sky()
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 9999")
    con.close()
    before = sha(db)
    for args in (("games",), WRITE, ("db", "upgrade")):
        r = ctx.pnp(*args, db=db)
        refused(r, f"{args[0]}: ")
        unchanged(db, before)
    hold(r.brief())


@db_case("db_read_commands_readonly", "README promise: read commands never change the file (bytes, no -wal/-journal left)")
def _reads(ctx):
    db = ctx.sky()
    before = sha(db)
    listing = sorted(os.listdir(db.parent))
    for args in (("games",), ("cards", "list", "sky"), ("cards", "search", "sky", "cost>=1"), ("validate",),
                 ("export", "sky", "-o", ctx.path("e.csv")), ("print", "sky", "-o", ctx.path("p.pdf")),
                 ("check", "sky", "--games", "0"), ("diff", "sky"), ("db", "dump"), ("rules", "sky", "-o", ctx.path("r.pdf"))):
        r = ctx.pnp(*args, db=db, timeout=120)
        basic(r, f"{args[0]}: ")
        if sha(db) != before:
            fail(f"'{' '.join(args[:2])}' changed the database file")
    extra = sorted(set(os.listdir(db.parent)) - set(listing))
    extra = [x for x in extra if x != "output"]
    if extra:
        fail(f"read commands left {extra} beside the database")
    hold("10 read commands: database byte-identical")


@db_case("db_two_writers_same_card", "two `cards set` on one card at once: both changes kept (no lost update)")
def _two_writers(ctx):
    db = ctx.sky()
    ps = [ctx.pnp("cards", "set", "sky", "S1", "cost=4", db=db, wait=False),
          ctx.pnp("cards", "set", "sky", "S1", "text=Changed", db=db, wait=False)]
    rs = [ctx.wait(p, 60) for p in ps]
    for r in rs:
        basic(r)
    c = card(ctx, db, "S1")
    got = (c["fields"]["cost"] == 4, c["text"] == "Changed")
    okc = [r.rc == 0 for r in rs]
    if okc == [True, True] and got != (True, True):
        fail(f"both writers exited 0 but a change was lost: cost ok={got[0]}, text ok={got[1]}")
    if [r.rc == 0 for r in rs] != list(got):
        fail(f"exit codes {[r.rc for r in rs]} do not match what was written {got}")
    hold(f"exits {[r.rc for r in rs]}, changes kept {got}")


@db_case("db_two_writers_same_name", "two `cards add` with the same new name at once: exactly one wins")
def _two_adds(ctx):
    db = ctx.sky()
    ps = [ctx.pnp("cards", "add", "sky", "ship", f"N{i}", "name=Twin", "copies=1", "cost=2", "faction=guild", db=db, wait=False)
          for i in (1, 2)]
    rs = [ctx.wait(p, 60) for p in ps]
    for r in rs:
        basic(r)
    n = sum(1 for i in (1, 2) if card(ctx, db, f"N{i}"))
    if n != 1:
        fail(f"{n} cards named 'Twin' were added by two concurrent writers")
    hold(f"one added, one refused ({[r.rc for r in rs]})")


@db_case("db_writer_vs_lock_release", "a writer waiting on a lock that is released in time succeeds")
def _wait_ok(ctx):
    db = ctx.sky()
    rel = locked(ctx, db, "IMMEDIATE")
    p = ctx.pnp(*WRITE, db=db, env={"PNP_BUSY_TIMEOUT": "15"}, wait=False)
    time.sleep(1.5)
    rel.set()
    r = ctx.wait(p, 60)
    ok(r)
    if card(ctx, db, "S1")["fields"]["cost"] != 4:
        fail("write lost")
    hold(f"waited for the lock and wrote ({r.secs:.1f} s)")


def big_csv(ctx, n):
    rows = ctx.cfg.sky_csv.splitlines()
    out = [rows[0]] + rows[1:]
    for i in range(n):
        out.append(new_row(ctx, f"N{i}", f"Ship {i}"))
    return "\n".join(out) + "\n"


@db_case("db_kill9_during_import", "kill -9 in the middle of a big import: all or nothing, upgrade finishes, validate passes",
         timeout=200, heavy=True)
def _kill_import(ctx):
    db = ctx.sky()
    p = ctx.path("big.csv")
    p.write_text(big_csv(ctx, 15000))
    proc = ctx.pnp("import", "sky", p, db=db, wait=False)
    t0 = time.monotonic()
    # kill once the import is writing (a journal or WAL beside the db), else after 4 s
    wait_for(lambda: any(db.parent.glob("sky.db-*")) or time.monotonic() - t0 > 4, 10, 0.02)
    time.sleep(0.3)
    ctx._kill(proc)
    r0 = ctx.wait(proc, 30)
    r = ctx.pnp("cards", "list", "sky", "--json", db=db, timeout=60)
    basic(r, "read after kill: ")
    if r.rc != 0:
        ru = ctx.pnp("db", "upgrade", db=db, timeout=60)
        ok(ru, "db upgrade after kill: ")
        r = ctx.pnp("cards", "list", "sky", "--json", db=db, timeout=60)
        ok(r, "read after upgrade: ")
    n = len(json.loads(r.out))
    if n not in (7, 15007):
        fail(f"{n} cards after kill -9 (expected 7 or 15007: all or nothing)")
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    ic = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    if ic != "ok":
        fail(f"integrity_check: {ic}")
    rv = ctx.pnp("validate", "sky", db=db, timeout=120)
    basic(rv)
    hold(f"killed after {r0.secs:.1f} s: {n} cards, integrity ok")


@db_case("db_raw_sql_trigger", "README: raw SQL setting copies=5000 is stopped by a trigger")
def _trigger(ctx):
    db = ctx.sky()
    con = sqlite3.connect(db)
    try:
        con.execute("UPDATE cards SET copies = 5000 WHERE id = 'S1'")
        con.commit()
    except sqlite3.DatabaseError as e:
        con.close()
        hold(f"trigger refused: {e}")
    con.close()
    fail("raw SQL wrote copies=5000 (README: triggers hold raw SQL to the editor's limits)")


@db_case("db_raw_broken_row", "a row broken around the triggers (copies='abc'): print/check name the card, no crash")
def _broken(ctx):
    db = ctx.sky()
    con = sqlite3.connect(db)
    trig = con.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall()
    for (t,) in trig:
        con.execute(f'DROP TRIGGER "{t}"')
    try:
        con.execute("UPDATE cards SET copies = 'abc' WHERE id = 'S1'")
        con.commit()
    except sqlite3.DatabaseError as e:
        con.close()
        hold(f"even without triggers the schema refuses it (CHECK): {e}")
    con.close()
    for args in (("print", "sky", "-o", ctx.path("x.pdf")), ("check", "sky", "--games", "0"), ("validate",), ("cards", "list", "sky")):
        r = ctx.pnp(*args, db=db, timeout=120)
        basic(r, f"{args[0]}: ")
        if args[0] in ("print", "validate") and r.rc == 0:
            fail(f"{args[0]} accepted a card with copies='abc'")
        if args[0] in ("print", "validate") and "S1" not in r.text:
            fail(f"{args[0]} did not name card S1: {r.brief()}")
    r = ctx.pnp("cards", "set", "sky", "S1", "copies=2", db=db)
    ok(r, "fixing with cards set: ")
    hold("broken row named, and fixable with cards set")


@db_case("db_dump_deterministic", "db dump twice gives the same text")
def _dump(ctx):
    db = ctx.sky()
    a, b = ctx.dump(db), ctx.dump(db)
    if a != b or a.startswith("<dump failed"):
        fail("db dump differs between runs (or failed)")
    hold(f"{len(a)} characters, identical")


@db_case("db_dryrun_no_write", "import --dry-run of a change leaves the file byte-identical")
def _dry(ctx):
    db = ctx.sky()
    before = sha(db)
    p = ctx.path("c.csv")
    p.write_bytes(changed_csv(ctx))
    r = ctx.pnp("import", "sky", p, "--dry-run", db=db)
    ok(r)
    unchanged(db, before)
    hold("dry run wrote nothing")


# ---------------------------------------------------------------------------
# 5. output paths
# ---------------------------------------------------------------------------


def out_case(cid, doc, timeout=120, heavy=False):
    def deco(fn):
        _CASES.append(Case(cid, "output", fn, timeout, heavy, doc))
        return fn
    return deco


def leftovers(folder: Path, keep=()):
    return [x.name for x in folder.iterdir() if x.name not in keep and (".tmp" in x.name or x.name.startswith(".") or "tmp" in x.name.lower())]


@out_case("out_export_onto_db", "export -o onto the database itself: refused, database intact")
def _onto_db(ctx):
    db = ctx.sky()
    before = sha(db)
    r = ctx.pnp("export", "sky", "-o", db, db=db)
    basic(r)
    if sha(db) != before:
        fail("export overwrote the card database with CSV")
    refused(r)
    hold(r.brief())


@out_case("out_print_onto_db", "print -o onto the database itself: refused, database intact")
def _print_onto_db(ctx):
    db = ctx.sky()
    before = sha(db)
    r = ctx.pnp("print", "sky", "-o", db, db=db)
    basic(r)
    if sha(db) != before:
        fail("print overwrote the card database with a PDF")
    refused(r)
    hold(r.brief())


@out_case("out_symlink_target", "print -o onto a symlink to another file: the other file is not silently clobbered")
def _symlink(ctx):
    db = ctx.sky()
    victim = ctx.path("victim.txt")
    victim.write_text("precious")
    link = ctx.path("out.pdf")
    os.symlink(victim, link)
    r = ctx.pnp("print", "sky", "-o", link, db=db)
    basic(r)
    if victim.read_text(errors="replace") != "precious":
        question("print -o LINK wrote through the symlink into its target (like a shell redirect): acceptable?")
    hold(f"target untouched ({'link replaced' if not link.is_symlink() else 'refused'}; {r.brief()})")


@out_case("out_readonly_folder", "print -o into a read-only folder: one line naming the path, nothing left")
def _ro_out(ctx):
    db = ctx.sky()
    d = ctx.path("ro")
    d.mkdir()
    os.chmod(d, 0o555)
    r = ctx.pnp("print", "sky", "-o", d / "x.pdf", db=db, drop=True)
    os.chmod(d, 0o755)
    refused(r)
    if list(d.iterdir()):
        fail(f"left {list(d.iterdir())}")
    hold(r.brief())


@out_case("out_readonly_existing_file", "print -o onto a read-only existing file: refused or replaced whole, never half")
def _ro_file(ctx):
    db = ctx.sky()
    f = ctx.path("x.pdf")
    f.write_bytes(b"OLD")
    os.chmod(f, 0o444)
    r = ctx.pnp("print", "sky", "-o", f, db=db, drop=True)
    basic(r)
    data = f.read_bytes()
    if data not in (b"OLD", ctx.cfg.ref_sky):
        fail("the file is neither the old one nor the full new PDF")
    hold(f"{'replaced whole' if data != b'OLD' else 'left as it was'} ({r.brief()})")


@out_case("out_dev_null", "print -o /dev/null: refused as a device (README), /dev/null still a device")
def _devnull(ctx):
    db = ctx.sky()
    r = ctx.pnp("print", "sky", "-o", "/dev/null", db=db)
    import stat
    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        fail("/dev/null is no longer a device!")
    basic(r)
    if r.rc == 0:
        question("print -o /dev/null accepted; README says a device is refused")
    refused(r)
    hold(r.brief())


@out_case("out_fifo", "print -o FIFO: refused, no hang (README)")
def _fifo(ctx):
    db = ctx.sky()
    f = ctx.path("pipe.pdf")
    os.mkfifo(f)
    r = ctx.pnp("print", "sky", "-o", f, db=db, timeout=40)
    refused(r)
    import stat
    if not stat.S_ISFIFO(os.stat(f).st_mode):
        fail("the FIFO was replaced")
    hold(r.brief())


@out_case("out_export_fifo", "export -o FIFO: refused, no hang")
def _efifo(ctx):
    db = ctx.sky()
    f = ctx.path("pipe.csv")
    os.mkfifo(f)
    r = ctx.pnp("export", "sky", "-o", f, db=db, timeout=40)
    refused(r)
    hold(r.brief())


@out_case("out_missing_parents", "print -o a/b/c/x.pdf: folders created (README)")
def _parents(ctx):
    db = ctx.sky()
    f = ctx.path("a", "b", "c", "x.pdf")
    r = ctx.pnp("print", "sky", "-o", f, db=db)
    ok(r)
    if f.read_bytes() != ctx.cfg.ref_sky:
        fail("PDF differs")
    hold("created")


@out_case("out_parent_is_file", "print -o file.txt/x.pdf: one line naming the path")
def _parent_file(ctx):
    db = ctx.sky()
    ctx.path("file.txt").write_text("x")
    r = ctx.pnp("print", "sky", "-o", ctx.path("file.txt", "x.pdf"), db=db)
    refused(r)
    if ctx.path("file.txt").read_text() != "x":
        fail("file.txt changed")
    hold(r.brief())


@out_case("out_name_too_long", "print -o with a 300-byte file name: one line")
def _long(ctx):
    db = ctx.sky()
    r = ctx.pnp("print", "sky", "-o", ctx.path("x" * 300 + ".pdf"), db=db)
    refused(r)
    hold(r.brief())


@out_case("out_existing_folder", "print -o EXISTING_FOLDER writes inside it (README: file or directory)")
def _folder(ctx):
    db = ctx.sky()
    d = ctx.path("kit")
    d.mkdir()
    r = ctx.pnp("print", "sky", "-o", d, db=db)
    ok(r)
    pdfs = list(d.glob("*.pdf"))
    if len(pdfs) != 1 or pdfs[0].read_bytes() != ctx.cfg.ref_sky:
        fail(f"expected one PDF identical to the clean run, got {pdfs}")
    hold(f"wrote {pdfs[0].name}")


@out_case("out_kill9_print_keeps_old", "kill -9 during print over an existing file: old file or full new, never half",
          timeout=180, heavy=True)
def _kill_print(ctx):
    db = ctx.shipped()
    f = ctx.path("e.pdf")
    f.write_bytes(b"OLD-FILE")
    p = ctx.pnp("print", "enforcer", "-o", f, db=db, wait=False)
    time.sleep(2.5)
    ctx._kill(p)
    ctx.wait(p, 30)
    data = f.read_bytes()
    if data != b"OLD-FILE" and not (data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")):
        fail(f"half-written PDF after kill -9 ({len(data)} bytes)")
    hold("old file intact" if data == b"OLD-FILE" else "print had finished: full PDF")


@out_case("out_failed_print_no_partial", "a print that fails (template error) leaves no partial or temp file")
def _failed_print(ctx):
    db = ctx.sky()
    t = ctx.dir / "proj" / "templates" / "sky" / "ship.toml"
    t.write_text(t.read_text().replace("{{ card.text }}", "{{ 1/0 }}"))
    d = ctx.path("o")
    d.mkdir()
    r = ctx.pnp("print", "sky", "-o", d / "x.pdf", db=db)
    refused(r)
    if list(d.iterdir()):
        fail(f"left {[x.name for x in d.iterdir()]} after a failed print")
    hold(r.brief())


@out_case("out_build_kill9_then_rebuild", "kill -9 during build leaves .GAME.building-*; the next build removes it (README)",
          timeout=300, heavy=True)
def _kill_build(ctx):
    db = ctx.sky()
    out = ctx.path("kits")
    p = ctx.pnp("build", "sky", "-o", out, "--jobs", "1", db=db, wait=False)
    wait_for(lambda: out.exists() and any(x.name.startswith(".") for x in out.iterdir()), 60, 0.05)
    time.sleep(0.5)
    ctx._kill(p)
    ctx.wait(p, 30)
    r = ctx.pnp("build", "sky", "-o", out, "--jobs", "1", db=db, timeout=240)
    ok(r)
    left = [x.name for x in out.iterdir() if x.name.startswith(".")]
    if left:
        fail(f"hidden build folders left after the next build: {left}")
    if not (out / "sky" / "manifest.json").exists():
        fail("no manifest.json after the rebuild")
    hold("next build cleaned up and finished")


@out_case("out_failed_build_keeps_kit", "a failed build keeps the previous kit intact (README)", timeout=300, heavy=True)
def _failed_build(ctx):
    db = ctx.sky()
    out = ctx.path("kits")
    ok(ctx.pnp("build", "sky", "-o", out, "--jobs", "1", db=db, timeout=240), "first build: ")
    before = sha(out / "sky")
    t = ctx.dir / "proj" / "templates" / "sky" / "ship.toml"
    t.write_text(t.read_text().replace("{{ card.text }}", "{{ 1/0 }}"))
    r = ctx.pnp("build", "sky", "-o", out, "--force", "--jobs", "1", db=db, timeout=240)
    refused(r)
    if sha(out / "sky") != before:
        fail("the failed build changed the previous kit")
    hold(f"previous kit intact ({r.brief()})")


def _images_ids(ctx, ids):
    db = ctx.sky()
    for i, cid in enumerate(ids):
        r = ctx.pnp("cards", "add", "sky", "ship", cid, f"name=Odd{i}", "copies=1", "cost=2", "faction=guild", db=db)
        basic(r)
    out = ctx.path("img")
    r = ctx.pnp("images", "sky", "-o", out, "--dpi", "30", db=db, timeout=180)
    basic(r)
    escaped = [x for x in ctx.dir.rglob("*.png") if out not in x.parents]
    if escaped:
        fail(f"images written outside the output folder: {escaped[:2]}")
    return r, db, out


@out_case("out_images_reserved_ids", "card ids CON, NUL.x, aux: images written; are Windows-reserved names accepted?", timeout=240)
def _reserved(ctx):
    r, db, out = _images_ids(ctx, ["CON", "NUL.x", "aux"])
    added = [c for c in ("CON", "NUL.x", "aux") if card(ctx, db, c)]
    if added:
        question(f"Windows-reserved card ids {added} accepted; their image files cannot exist on Windows")
    hold("reserved ids refused")


# ---------------------------------------------------------------------------
# 6. names and ids
# ---------------------------------------------------------------------------


def add_case(cid, doc, card_id, name, expect="refuse", extra=()):
    def fn(ctx):
        db = ctx.sky()
        before = sha(db)
        r = ctx.pnp("cards", "add", "sky", "ship", card_id, f"name={name}", "copies=1", "cost=2", "faction=guild", *extra, db=db)
        if expect == "refuse":
            refuse_unchanged(r, db, before)
        basic(r)
        if r.rc == 0:
            question(expect)
        unchanged(db, before)
        hold(f"refused: {r.brief()}")
    _CASES.append(Case(cid, "names", fn, 60, False, doc))


add_case("id_traversal", "card id '../../x': refused", "../../x", "Newname")
add_case("id_slash", "card id 'a/b': refused", "a/b", "Newname")
add_case("id_dotdot", "card id 'a..b': refused (README)", "a..b", "Newname")
add_case("id_empty", "empty card id: refused", "", "Newname")
add_case("id_too_long", "25-character card id: refused", "A" * 25, "Newname")
add_case("id_zero_width", "card id with a zero-width space: refused", "S\u200b9", "Newname")
add_case("id_leading_dot", "card id '.hidden': refused (must start with a letter or digit)", ".hidden", "Newname")
add_case("id_newline", "card id with a newline: refused", "S9\nS10", "Newname")
add_case("id_case_collision", "card id 's1' beside 'S1'", "s1", "Newname",
         expect="card id 's1' accepted beside 'S1': on case-insensitive file systems their images/files collide")
add_case("id_fullwidth", "card id 'Ｓ１' (full-width)", "Ｓ１", "Newname",
         expect="full-width card id 'Ｓ１' accepted: is a full-width letter a 'letter or digit' for a file name?")
add_case("name_dup_casefold", "name ' alpha ' (case and spaces differ from 'Alpha'): refused as a duplicate (README)", "S9", " alpha ")
add_case("name_dup_zero_width", "name 'Alpha\\u200b': refused (README)", "S9", "Alpha\u200b")
add_case("name_dup_fullwidth", "name 'Ａｌｐｈａ' (full-width of 'Alpha')", "S9", "Ａｌｐｈａ",
         expect="full-width 'Ａｌｐｈａ' accepted beside 'Alpha' (NFC does not fold width; NFKC would): duplicate or not?")
add_case("name_bidi", "name with U+202E (right-to-left override): refused", "S9", "Evil\u202etxt.exe")
add_case("name_control", "name with ESC (terminal escape): refused", "S9", "\x1b[31mRed")
add_case("name_too_long", "a 201-character name: refused", "S9", "n" * 201)
add_case("name_only_spaces", "a name of spaces only: refused", "S9", "   ")


def set_case(cid, doc, *assign):
    def fn(ctx):
        db = ctx.sky()
        before = sha(db)
        r = ctx.pnp("cards", "set", "sky", "S1", *assign, db=db)
        refuse_unchanged(r, db, before)
    _CASES.append(Case(cid, "names", fn, 60, False, doc))


set_case("set_unknown_field", "cards set an unknown field: refused", "speeed=3")
set_case("set_int_19digits", "cards set cost=10^19 (past 64-bit): refused", "cost=10000000000000000000")
set_case("set_no_equals", "cards set with an assignment without '=': refused", "cost")
set_case("set_empty_name", "cards set name= (empty): refused", "name=")
set_case("set_copies_float", "cards set copies=1.5: refused", "copies=1.5")
set_case("set_text_4001", "cards set a 4,001-character text: refused (limit 4,000)", "text=" + "t" * 4001)


@case("rm_without_yes_no_tty", "names")
def _rm(ctx):
    """cards rm without --yes and stdin not a terminal: nothing removed"""
    db = ctx.sky()
    before = sha(db)
    r = ctx.pnp("cards", "rm", "sky", "S1", db=db, stdin=b"")
    basic(r)
    unchanged(db, before)
    hold(r.brief())


@case("rm_missing_card", "names")
def _rm_missing(ctx):
    """cards rm of a card that does not exist: one line, nothing changed"""
    db = ctx.sky()
    before = sha(db)
    r = ctx.pnp("cards", "rm", "sky", "NOPE", "--yes", db=db)
    refuse_unchanged(r, db, before)


def q_case(cid, doc, query, timeout=60):
    def fn(ctx):
        db = ctx.sky()
        before = sha(db)
        r = ctx.pnp("cards", "search", "sky", query, db=db, timeout=timeout)
        basic(r)
        unchanged(db, before)
        if r.rc == 0:
            hold(f"answered: {r.brief()}")
        refused(r)
        hold(r.brief())
    _CASES.append(Case(cid, "names", fn, timeout + 10, False, doc))


q_case("query_sql_injection", "search with SQL-looking text: parameterized, no change", "name:'); DROP TABLE cards;--")
q_case("query_deep_parens", "search nested 50,000 parentheses deep: a message, no RecursionError", "(" * 50000 + "x" + ")" * 50000)
q_case("query_huge_int", "search cost>=10^30: a message or no hits, no OverflowError", "cost>=1000000000000000000000000000000")
q_case("query_many_or", "search with 8,000 'or' terms: bounded", " or ".join(f"name:n{i}" for i in range(8000)), timeout=60)
q_case("query_like_wildcards", "search name:% and name:_ match literally, not as SQL wildcards", "name:%")


@case("query_caret", "names")
def _caret(ctx):
    """README promise: a malformed query gets a caret under the offending position"""
    db = ctx.sky()
    r = ctx.pnp("cards", "search", "sky", "cost>=", db=db)
    refused(r)
    if "^" not in r.text:
        fail("no caret in the message")
    hold(r.brief())


@case("query_leading_negation", "names")
def _neg(ctx):
    """README promise: a query may start with -term (no --)"""
    db = ctx.shipped()
    r = ctx.pnp("cards", "search", "enforcer", "-traits:大戶", db=db)
    ok(r)
    if "OB-06" in r.out:
        fail("negation ignored: OB-06 (大戶) listed")
    hold("leading negation works")


@case("release_tag_traversal", "names")
def _tag(ctx):
    """release tag '../../x': refused, or stored as a plain name with no file written"""
    db = ctx.sky()
    r = ctx.pnp("release", "sky", "../../x", db=db)
    basic(r)
    if any(ctx.dir.parent.glob("x*")):
        fail("a release tag created a file outside")
    hold(r.brief())


@case("constraint_bad_json", "names")
def _cjson(ctx):
    """constraints add with broken JSON params: refused in one line"""
    db = ctx.sky()
    before = sha(db)
    r = ctx.pnp("constraints", "add", "sky", "c1", "--kind", "unique", "--params", "{fields: [", "--label", "x", "--source", "y", db=db)
    refuse_unchanged(r, db, before)


@case("constraint_deep_json", "names")
def _cdeep(ctx):
    """constraints add with params nested 50,000 deep: refused, no RecursionError"""
    db = ctx.sky()
    before = sha(db)
    r = ctx.pnp("constraints", "add", "sky", "c1", "--kind", "unique", "--params", "[" * 50000 + "]" * 50000,
                "--label", "x", "--source", "y", db=db)
    refuse_unchanged(r, db, before)


# ---------------------------------------------------------------------------
# 7. layouts a designer writes
# ---------------------------------------------------------------------------


def tpl_case(cid, doc, edit, expect="refuse", timeout=60, marker=None, check=None, mem_mb=1000):
    def fn(ctx):
        db = ctx.sky()
        tdir = ctx.dir / "proj" / "templates" / "sky"
        edit(ctx, tdir)
        out = ctx.path("o", "x.pdf")
        r = ctx.pnp("print", "sky", "-o", out, db=db, timeout=timeout, mem_mb=mem_mb)
        if marker and ctx.path(marker).exists():
            fail("the layout ran code on this machine")
        if "MemoryError" in r.text:
            fail(f"ran out of the {mem_mb} MB address space given to it (MemoryError) after {r.secs:.0f} s")
        if check:
            check(ctx, r, out)
        if expect == "refuse":
            refused(r)
            if out.exists():
                fail("a PDF was written although the print failed")
            hold(r.brief())
        basic(r)
        hold(r.brief())
    _CASES.append(Case(cid, "layouts", fn, timeout + 20, False, doc))


def sub_text(new):
    def edit(ctx, tdir):
        t = tdir / "ship.toml"
        s = t.read_text()
        s = s.replace('text = "{{ card.text }}"', "text = " + json.dumps(new(ctx) if callable(new) else new))
        t.write_text(s)
    return edit


def _names_card(ctx, r, out):
    basic(r)
    if r.rc != 0:
        low = r.text
        if "ship.toml" not in low or "rules" not in low:
            fail(f"the error does not name the layout file and region: {r.brief()}")
    hold(r.brief())


tpl_case("tpl_div_zero", "{{ 1/0 }}: error names card, region and layout file (README)", sub_text("{{ 1/0 }}"), check=_names_card)
tpl_case("tpl_huge_loop", "a loop of 10^9 iterations: bounded (error or sandbox limit), no hang",
         sub_text("{% for i in range(1000000000) %}x{% endfor %}"), expect="any", timeout=60)
tpl_case("tpl_huge_string", "{{ 'x' * 10**9 }}: bounded memory, clear error", sub_text("{{ 'x' * 1000000000 }}"), expect="any", timeout=60)
tpl_case("tpl_pow_bomb", "{{ 9**9**9 }}: no hang", sub_text("{{ 9**9**9 }}"), expect="any", timeout=60)
tpl_case("tpl_ssti_globals", "Jinja sandbox escape via cycler.__init__.__globals__.os: refused, nothing runs",
         sub_text(lambda ctx: "{{ cycler.__init__.__globals__.os.system('touch " + str(ctx.path("PWN1")) + "') }}"),
         marker="PWN1", expect="any")
tpl_case("tpl_ssti_subclasses", "Jinja ''.__class__.__mro__ walk: refused, nothing runs",
         sub_text(lambda ctx: "{{ ''.__class__.__mro__[1].__subclasses__() }}"), expect="any")
tpl_case("tpl_expr_eval", "a size expression with __import__('os'): refused, nothing runs",
         lambda ctx, tdir: (tdir / "ship.toml").write_text((tdir / "ship.toml").read_text().replace(
             'w = "W - 6"', 'w = "__import__(\'os\').system(\'touch ' + str(ctx.path("PWN2")) + '\') or 6"', 1)),
         marker="PWN2")
tpl_case("tpl_expr_pow", "a size expression 9**9**9: no hang",
         lambda ctx, tdir: (tdir / "ship.toml").write_text((tdir / "ship.toml").read_text().replace('w = "W - 6"', 'w = "9**9**9"', 1)),
         timeout=60)


def _outside(ctx, name, body):
    p = ctx.path(name)
    p.write_text(body)
    return p


def _include_escape(ctx, tdir):
    _outside(ctx, "outside.txt", "{{ 1/0 }}OUTSIDE-INCLUDED")
    sub_text("{% include '../../../outside.txt' %}")(ctx, tdir)


def _esc_check(ctx, r, out):
    basic(r)
    if r.rc == 0:
        question("an include reaching outside templates/ printed without an error (could not tell whether the file was read)")
    if "division" in r.text.lower() or "zero" in r.text.lower():
        fail(f"the include read a file outside the templates folder: {r.brief()}")
    hold(f"refused: {r.brief()}")


tpl_case("tpl_include_escape", "{% include '../../../outside.txt' %}: not read", _include_escape, check=_esc_check)
tpl_case("tpl_include_absolute", "{% include '/etc/passwd' %}: refused",
         sub_text("{% include '/etc/passwd' %}"), check=lambda ctx, r, out: (basic(r), (question("absolute include printed without error") if r.rc == 0 else hold(r.brief()))))


def _extends_escape(ctx, tdir):
    _outside(ctx, "evil.toml", 'zzz_outside_option = 1\n[card]\nbackground = "#000000"\n')
    t = tdir / "ship.toml"
    t.write_text(t.read_text().replace('extends = "base"', 'extends = "../../../evil"'))


def _ext_check(ctx, r, out):
    basic(r)
    if "zzz_outside" in r.text:
        fail("extends read a layout outside the templates folder")
    if r.rc == 0:
        if out.read_bytes() != ctx.cfg.ref_sky:
            fail("extends '../../../evil' was followed (the PDF changed)")
        question("extends '../../../evil' ignored silently")
    hold(f"refused: {r.brief()}")


tpl_case("tpl_extends_escape", "extends = '../../../evil': a layout outside the folder is not read", _extends_escape, check=_ext_check)
tpl_case("tpl_extends_cycle", "ship extends base, base extends ship: a clear error, no RecursionError",
         lambda ctx, tdir: (tdir / "base.toml").write_text('extends = "ship"\n' + (tdir / "base.toml").read_text()))
tpl_case("tpl_extends_self", "a layout that extends itself: a clear error",
         lambda ctx, tdir: (tdir / "ship.toml").write_text((tdir / "ship.toml").read_text().replace('extends = "base"', 'extends = "ship"')))
tpl_case("tpl_toml_syntax", "a TOML syntax error: one line naming the file",
         lambda ctx, tdir: (tdir / "ship.toml").write_text("[[regions]\nname = "),
         check=lambda ctx, r, out: (refused(r), ("ship.toml" in r.text or fail("file not named")), hold(r.brief())))
tpl_case("tpl_unknown_option", "an unknown layout option: refused listing what is allowed (CONTRIBUTING)",
         lambda ctx, tdir: (tdir / "ship.toml").write_text((tdir / "ship.toml").read_text() + "\nfont_sise = 9\n"))
tpl_case("tpl_size_huge", "text size = 1e9 in a region: a clear error or clamped, no hang",
         lambda ctx, tdir: (tdir / "ship.toml").write_text((tdir / "ship.toml").read_text().replace("size = 10", "size = 1e9")),
         expect="any")
tpl_case("tpl_negative_box", "a region with w = -50: a clear error", lambda ctx, tdir: (tdir / "ship.toml").write_text(
    (tdir / "ship.toml").read_text().replace('w = "W - 6"', "w = -50", 1)), expect="any")
tpl_case("tpl_100k_regions", "a layout with 20,000 regions: bounded time", lambda ctx, tdir: (tdir / "ship.toml").write_text(
    (tdir / "ship.toml").read_text() + "".join(f'\n[[regions]]\nname = "r{i}"\nkind = "shape"\nx = 0\ny = 0\nw = 1\nh = 1\nfill = "#000000"\n'
                                               for i in range(20000))), expect="any", timeout=120)


def art_case(cid, doc, make):
    def fn(ctx):
        db = ctx.sky()
        art = make(ctx)
        r = ctx.pnp("cards", "set", "sky", "S1", f"art={art}", db=db)
        basic(r)
        out = ctx.path("o.pdf")
        r2 = ctx.pnp("print", "sky", "-o", out, db=db, timeout=120, mem_mb=2500)
        basic(r2)
        if r.rc != 0:
            hold(f"art path refused at edit time: {r.brief()}")
        if r2.rc != 0:
            question(f"bad art failed the whole print ({r2.brief()}); README says placeholder + warning")
        if "S1" not in r2.err:
            fail("no warning naming the card for unusable art (README)")
        if r2.maxrss_mb > 1200:
            fail(f"peak memory {r2.maxrss_mb:.0f} MB")
        hold("placeholder and a warning naming the card")
    _CASES.append(Case(cid, "layouts", fn, 200, False, doc))


def _png_header(w, h):
    import struct
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    idat = zlib.compress(b"\0" * 1000)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


art_case("art_outside_folder", "art = /etc/hostname (outside the database's folder): placeholder + warning (README)",
         lambda ctx: "/etc/hostname")
art_case("art_symlink_out", "art is a symlink inside the folder pointing outside: placeholder + warning",
         lambda ctx: (os.symlink("/etc/hostname", ctx.dir / "proj" / "link.png"), "link.png")[1])
art_case("art_dimension_bomb", "art PNG declaring 60000×60000 pixels: placeholder + warning, bounded memory (README: 40 MP)",
         lambda ctx: ((ctx.dir / "proj" / "bomb.png").write_bytes(_png_header(60000, 60000)), "bomb.png")[1])
art_case("art_fifo", "art is a FIFO: placeholder + warning, no hang",
         lambda ctx: (os.mkfifo(ctx.dir / "proj" / "fifo.png"), "fifo.png")[1])
art_case("art_traversal", "art = ../../../etc/hostname: placeholder + warning",
         lambda ctx: "../../../../../../../etc/hostname")


@case("name_dup_nfd", "names")
def _nfd(ctx):
    """a name typed in NFD ('Cafe' + combining accent) beside 'Café' (NFC): refused as a duplicate (README: NFC)"""
    db = ctx.sky()
    ok(ctx.pnp("cards", "set", "sky", "S1", "name=Caf\u00e9", db=db))
    before = sha(db)
    r = ctx.pnp("cards", "add", "sky", "ship", "S9", "name=Cafe\u0301", "copies=1", "cost=2", "faction=guild", db=db)
    refuse_unchanged(r, db, before)


# ---------------------------------------------------------------------------
# 8. the preview server: pnp watch
# ---------------------------------------------------------------------------


def start_watch(ctx, extra=(), db=None):
    db = db or ctx.sky()
    p = ctx.pnp("watch", "sky", "--port", "0", "--interval", "0.2", *extra, db=db, cwd=ctx.dir / "proj", wait=False)
    import re

    def port():
        m = re.search(r"127\.0\.0\.1:(\d+)", p._pnp_out.read_text(errors="replace"))
        return int(m.group(1)) if m else None
    pt = wait_for(lambda: port() or (p.poll() is not None and -1), 90, 0.2)
    if not pt or pt == -1:
        r = ctx.wait(p, 5)
        fail(f"watch did not start a preview: {r.brief()}")
    return p, pt, db


def watch_case(cid, doc, timeout=150):
    def deco(fn):
        _CASES.append(Case(cid, "watch", fn, timeout, True, doc))
        return fn
    return deco


def stop_watch(ctx, p):
    import signal
    try:
        os.killpg(p.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    r = ctx.wait(p, 20)
    return r


@watch_case("watch_host_header", "preview server answers a request with Host: evil.example (DNS rebinding)?")
def _host(ctx):
    p, port, db = start_watch(ctx)
    st, body = http_get(port, "/", host_header="evil.example")
    st2, _ = http_get(port, "/state", host_header="attacker.test:80")
    stop_watch(ctx, p)
    if st and " 200" in st:
        question(f"the preview answers Host: evil.example with {st!r} (a DNS-rebinding page could read the preview and /state); check Host?")
    hold(f"foreign Host refused: {st!r}")


def _files_get(ctx, path, prepare=None):
    p, port, db = start_watch(ctx)
    if prepare:
        prepare(ctx)
    st, body = http_get(port, path)
    st2, body2 = http_get(port, "/")
    r = stop_watch(ctx, p)
    if r.traceback:
        fail(f"the preview server printed a Python traceback for GET {path!r} (answer {st!r})")
    basic(r)
    return st, body, st2


def served(body, needle):
    return needle in body.split(b"\r\n\r\n", 1)[-1] if body else False


for cid, path, doc in (
        ("watch_traversal_dotdot", "/files/../../sky.db", "GET /files/../../sky.db: not served"),
        ("watch_traversal_encoded", "/files/%2e%2e/%2e%2e/sky.db", "GET /files/%2e%2e/%2e%2e/sky.db: not served"),
        ("watch_traversal_encoded_slash", "/files/..%2f..%2fsky.db", "GET /files/..%2f..%2fsky.db: not served"),
        ("watch_absolute_path", "/files//etc/passwd", "GET /files//etc/passwd: not served"),
        ("watch_backslash", "/files/..\\..\\sky.db", "GET with backslashes: not served"),
        ("watch_nul_in_path", "/files/x%00.png", "GET with %00: no crash")):
    def fn(ctx, path=path):
        st, body, st2 = _files_get(ctx, path)
        if served(body, b"SQLite format 3") or served(body, b"root:x:0:0"):
            fail(f"{path} served a file outside the output folder")
        if not st2 or " 200" not in st2:
            fail(f"the server stopped answering after {path!r}: {st2!r}")
        hold(f"{st!r}")
    _CASES.append(Case(cid, "watch", fn, 150, True, doc))


@watch_case("watch_dotfile", "a dotfile in the watch output folder is not served")
def _dot(ctx):
    def prep(ctx):
        d = ctx.dir / "proj" / "output" / "sky" / "watch"
        wait_for(lambda: d.exists(), 30)
        (d / ".secret").write_text("DOTFILE-SECRET")
    st, body, st2 = _files_get(ctx, "/files/.secret", prep)
    if served(body, b"DOTFILE-SECRET"):
        fail("served a dotfile")
    hold(f"{st!r}")


@watch_case("watch_symlink_out", "a symlink in the output folder pointing to the database is not served")
def _symlink_out(ctx):
    def prep(ctx):
        d = ctx.dir / "proj" / "output" / "sky" / "watch"
        wait_for(lambda: d.exists(), 30)
        os.symlink(ctx.dir / "proj" / "sky.db", d / "db.png")
    st, body, st2 = _files_get(ctx, "/files/db.png", prep)
    if served(body, b"SQLite format 3"):
        question("the preview follows a symlink in its output folder out to the database; should it?")
    hold(f"{st!r}")


@watch_case("watch_idle_connections", "20 idle connections do not stop the preview from answering")
def _idle(ctx):
    p, port, db = start_watch(ctx)
    socks = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        socks.append(s)
    t0 = time.monotonic()
    st, body = http_get(port, "/state", timeout=10)
    dt = time.monotonic() - t0
    for s in socks:
        s.close()
    stop_watch(ctx, p)
    if not st or " 200" not in st:
        fail(f"with 20 idle connections open, /state got {st!r} after {dt:.1f} s")
    hold(f"answered in {dt:.2f} s")


@watch_case("watch_slowloris", "one client dripping its request does not block others")
def _slow(ctx):
    p, port, db = start_watch(ctx)
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    stop = threading.Event()

    def drip():
        while not stop.is_set():
            try:
                s.sendall(b"X-a: b\r\n")
            except OSError:
                return
            time.sleep(0.5)
    th = threading.Thread(target=drip, daemon=True)
    th.start()
    time.sleep(1)
    st, _ = http_get(port, "/state", timeout=10)
    stop.set()
    s.close()
    stop_watch(ctx, p)
    if not st or " 200" not in st:
        fail(f"a dripping client blocked the preview: {st!r}")
    hold(st)


@watch_case("watch_huge_request", "a 1 MB request line: rejected, server survives")
def _hugereq(ctx):
    p, port, db = start_watch(ctx)
    st, _ = http_get(port, raw=b"GET /" + b"a" * 1_000_000 + b" HTTP/1.0\r\n\r\n", timeout=10)
    st2, _ = http_get(port, "/state")
    r = stop_watch(ctx, p)
    basic(r)
    if not st2 or " 200" not in st2:
        fail(f"the server stopped answering after a huge request: {st2!r}")
    hold(f"{st!r}; then /state {st2!r}")


@watch_case("watch_methods", "POST/PUT/DELETE to the preview: refused, nothing changes on disk")
def _methods(ctx):
    p, port, db = start_watch(ctx)
    before = sha(db)
    sts = []
    for m in ("POST", "PUT", "DELETE"):
        st, _ = http_get(port, raw=f"{m} /files/sky-proof.png HTTP/1.0\r\nContent-Length: 4\r\n\r\nxxxx".encode())
        sts.append(st)
    stop_watch(ctx, p)
    unchanged(db, before)
    if any(s and " 2" in s[8:11] for s in sts if s):
        fail(f"a write method got a 2xx: {sts}")
    hold(f"{sts}")


@watch_case("watch_loopback_only", "the preview listens on 127.0.0.1 only (not reachable via 127.0.0.2)")
def _loop(ctx):
    p, port, db = start_watch(ctx)
    st, body = http_get(port, "/state", addr="127.0.0.2", timeout=3)
    stop_watch(ctx, p)
    if st and " 200" in st:
        fail("the preview answered on 127.0.0.2: bound to all addresses?")
    hold("not reachable on 127.0.0.2")


@watch_case("watch_fifo_in_layouts", "a FIFO in the game's layouts folder and art: watch still rebuilds on a db change", timeout=180)
def _fifo(ctx):
    db = ctx.sky()
    os.mkfifo(ctx.dir / "proj" / "templates" / "sky" / "zz.toml")
    os.mkfifo(ctx.dir / "proj" / "art.png")
    p, port, _ = start_watch(ctx, db=db)
    time.sleep(1)
    ok(ctx.pnp("cards", "set", "sky", "S1", "cost=4", db=db), "edit during watch: ")
    got = wait_for(lambda: "build 2" in p._pnp_out.read_text(errors="replace") + p._pnp_err.read_text(errors="replace"), 60, 0.3)
    r = stop_watch(ctx, p)
    basic(r)
    if not got:
        fail(f"no rebuild within 60 s after an edit (FIFOs in the watched folders): {r.out[-200:]!r}")
    hold("rebuilt despite FIFOs")


@watch_case("watch_failed_build_goes_on", "a broken layout shows a failed build; fixing it rebuilds (README)", timeout=200)
def _failbuild(ctx):
    p, port, db = start_watch(ctx)
    t = ctx.dir / "proj" / "templates" / "sky" / "ship.toml"
    good = t.read_text()
    time.sleep(0.5)
    t.write_text(good + "\n[[regions]\nbroken")
    both = lambda: p._pnp_out.read_text(errors="replace") + p._pnp_err.read_text(errors="replace")
    got_fail = wait_for(lambda: "build 2" in both(), 60, 0.3)
    st, body = http_get(port, "/")
    t.write_text(good + "\n# fixed\n")
    got_ok = wait_for(lambda: "build 3" in both(), 60, 0.3)
    r = stop_watch(ctx, p)
    basic(r)
    if not got_fail or not got_ok:
        fail(f"watch did not go on after a failed build (build 2: {bool(got_fail)}, build 3: {bool(got_ok)})")
    hold("failed build shown, then rebuilt")


@watch_case("watch_port_in_use", "--port already taken: one line, non-zero exit")
def _port(ctx):
    db = ctx.sky()
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    p = ctx.pnp("watch", "sky", "--port", port, db=db, cwd=ctx.dir / "proj", wait=False)
    r = ctx.wait(p, 60)
    s.close()
    if r.timed_out:
        fail("watch kept running although its port was taken")
    refused(r)
    hold(r.brief())


@watch_case("watch_ctrl_c", "Ctrl-C (SIGINT) stops watch cleanly: no traceback (README)")
def _ctrlc(ctx):
    p, port, db = start_watch(ctx)
    r = stop_watch(ctx, p)
    basic(r)
    if r.rc not in (0, 130, 1):
        question(f"exit code {r.rc} after Ctrl-C")
    hold(f"stopped, exit {r.rc}: {r.out.strip().splitlines()[-1] if r.out.strip() else ''}")


@watch_case("watch_interval_zero", "--interval 0 (outside 0.05-10): refused")
def _interval(ctx):
    db = ctx.sky()
    r = ctx.pnp("watch", "sky", "--interval", "0", "--port", "0", db=db, timeout=20)
    refused(r)
    hold(r.brief())


# ---------------------------------------------------------------------------
# 9. other README promises
# ---------------------------------------------------------------------------


def promise(cid, doc, timeout=120, heavy=False):
    def deco(fn):
        _CASES.append(Case(cid, "promises", fn, timeout, heavy, doc))
        return fn
    return deco


@promise("prm_print_deterministic", "same database and options give a byte-identical PDF")
def _det(ctx):
    db = ctx.sky()
    a, b = ctx.path("a.pdf"), ctx.path("b.pdf")
    ok(ctx.pnp("print", "sky", "-o", a, db=db))
    time.sleep(1.1)
    ok(ctx.pnp("print", "sky", "-o", b, db=db))
    if a.read_bytes() != b.read_bytes():
        fail("two prints differ")
    hold("identical")


@promise("prm_dryrun_refuses_same", "import --dry-run refuses exactly what the import refuses")
def _dry_same(ctx):
    db = ctx.sky()
    p = ctx.path("bad.csv")
    p.write_text(cell("S2", "cost", "many")(ctx))
    before = sha(db)
    r1 = ctx.pnp("import", "sky", p, "--dry-run", db=db)
    r2 = ctx.pnp("import", "sky", p, db=db)
    refused(r1)
    refused(r2)
    unchanged(db, before)
    strip = lambda s: s.replace("would ", "")
    if r1.rc != r2.rc:
        fail(f"dry run exit {r1.rc}, import exit {r2.rc}")
    hold("both refused alike")


@promise("prm_check_json_error", "check --json on an unknown game prints {\"error\": …} and exits non-zero")
def _cj(ctx):
    db = ctx.sky()
    r = ctx.pnp("check", "nosuchgame", "--json", db=db)
    basic(r)
    try:
        j = json.loads(r.out)
    except ValueError:
        fail(f"not JSON: {r.out[:100]!r}")
    if r.rc == 0 or "error" not in j:
        fail(f"exit {r.rc}, {j}")
    hold("JSON error")


@promise("prm_games_bound", "check --games 100001: refused (bounded at 100,000)")
def _gb(ctx):
    db = ctx.sky()
    r = ctx.pnp("check", "sky", "--games", "100001", db=db)
    refused(r)
    hold(r.brief())


@promise("prm_unknown_profile", "shop --profile nope: refused before any work, naming the allowed ones")
def _prof(ctx):
    db = ctx.sky()
    r = ctx.pnp("shop", "sky", "--profile", "nope", "-o", ctx.path("shop"), db=db)
    refused(r)
    if ctx.path("shop").exists():
        fail("files written for an unknown profile")
    if "mpc" not in r.text:
        fail("does not name the allowed profiles")
    hold(r.brief())


for cid, args, doc in (
        ("prm_bleed_range", ("--bleed", "11"), "--bleed 11 (range 0-10): refused"),
        ("prm_bleed_nan", ("--bleed", "nan"), "--bleed nan: refused"),
        ("prm_gap_negative", ("--gap", "-1"), "--gap -1: refused"),
        ("prm_offset_garbage", ("--offset", "a,b"), "--offset a,b: refused in one line"),
        ("prm_offset_inf", ("--offset", "inf,0"), "--offset inf,0: refused"),
        ("prm_paper_bad", ("--paper", "a0"), "--paper a0: refused"),
        ("prm_changed_since_unknown", ("--changed-since", "v9.9"), "--changed-since an unknown tag: one line"),
        ("prm_query_bad", ("--query", "cost>="), "--query malformed: one line with a caret")):
    def fn(ctx, args=args):
        db = ctx.sky()
        out = ctx.path("x.pdf")
        r = ctx.pnp("print", "sky", "-o", out, *args, db=db)
        refused(r)
        if out.exists():
            fail("a PDF was written anyway")
        hold(r.brief())
    _CASES.append(Case(cid, "promises", fn, 90, False, doc))


@promise("prm_images_dpi_huge", "images --dpi 100000 (range 30-1200): refused before any work")
def _dpi(ctx):
    db = ctx.sky()
    r = ctx.pnp("images", "sky", "--dpi", "100000", "-o", ctx.path("img"), db=db, timeout=60)
    refused(r)
    hold(r.brief())


@promise("prm_rules_stdout", "rules --format md -o - writes Markdown to standard output")
def _rules(ctx):
    db = ctx.sky()
    r = ctx.pnp("rules", "sky", "--format", "md", "-o", "-", db=db)
    ok(r)
    if not r.out.lstrip().startswith("#"):
        fail("no Markdown on stdout")
    hold("Markdown on stdout")


@promise("prm_correction_history", "--correction keeps the reason in history (README)")
def _corr(ctx):
    db = ctx.shipped()
    r = ctx.pnp("cards", "set", "enforcer", "OB-12", "difficulty=18", "--correction", "OCR read 8 for 18", db=db)
    ok(r)
    h = ctx.pnp("cards", "history", "enforcer", "OB-12", db=db)
    ok(h)
    if "OCR read 8 for 18" not in h.out:
        fail("the correction reason is not in the history")
    c = json.loads(ctx.pnp("cards", "show", "enforcer", "OB-12", "--json", db=db).out)
    if "difficulty" in (c.get("provisional_fields") or []):
        fail("a correction made the value provisional")
    hold("reason kept, provenance kept")


@promise("prm_edit_makes_provisional", "editing a rulebook value makes it provisional (README)")
def _prov(ctx):
    db = ctx.shipped()
    ok(ctx.pnp("cards", "set", "enforcer", "OB-02", "difficulty=6", db=db))
    c = json.loads(ctx.pnp("cards", "show", "enforcer", "OB-02", "--json", db=db).out)
    if "difficulty" not in (c.get("provisional_fields") or []):
        fail(f"provisional_fields = {c.get('provisional_fields')}")
    hold("marked provisional")


@promise("prm_game_bundle_hostile", "game import of a bundle with a card id '../x' and a 10^30 copies: refused, unchanged")
def _bundle(ctx):
    db = ctx.sky()
    b = ctx.path("g.json")
    ok(ctx.pnp("game", "export", "sky", "-o", b, db=db))
    data = json.loads(b.read_text(encoding="utf-8"))
    s = json.dumps(data)
    s = s.replace('"S1"', '"../x"', 1)
    b.write_text(s)
    before = sha(db)
    r = ctx.pnp("game", "import", b, "--replace", db=db)
    refuse_unchanged(r, db, before)


@promise("prm_game_bundle_roundtrip", "game export → game import --replace changes no card")
def _bundle_rt(ctx):
    db = ctx.sky()
    b = ctx.path("g.json")
    ok(ctx.pnp("game", "export", "sky", "-o", b, db=db))
    before = ctx.pnp("cards", "list", "sky", "--json", db=db).out
    r = ctx.pnp("game", "import", b, "--replace", db=db)
    ok(r)
    if ctx.pnp("cards", "list", "sky", "--json", db=db).out != before:
        fail("a bundle round trip changed the cards")
    hold("cards unchanged")


@promise("prm_tts_object_base_url", "tts-object --base-url 'javascript:alert(1)//': refused or kept as given, no traceback",
         timeout=240, heavy=True)
def _tts(ctx):
    db = ctx.sky()
    r = ctx.pnp("tts-object", "sky", "--base-url", "javascript:alert(1)//", "--from", ctx.path("tts"),
                "-o", ctx.path("linked.json"), db=db, timeout=200)
    basic(r)
    if r.rc == 0:
        question("tts-object accepted base URL 'javascript:alert(1)//'; only http(s)/file addresses make sense")
    hold(r.brief())


@promise("prm_calibration", "print calibration -o FILE writes a PDF")
def _calib(ctx):
    db = ctx.sky()
    out = ctx.path("cal.pdf")
    r = ctx.pnp("print", "calibration", "-o", out, db=db)
    ok(r)
    if not out.read_bytes().startswith(b"%PDF"):
        fail("not a PDF")
    hold("PDF written")


@promise("prm_version", "pnp --version prints a version and exits 0")
def _ver(ctx):
    r = ctx.pnp("--version")
    ok(r)
    hold(r.out.strip()[:60])


# ---------------------------------------------------------------------------
# The default run is the core table; these near-duplicates run with --extended
# (kept so the table can be widened without writing them again).
# ---------------------------------------------------------------------------

EXTENDED = set("""
url_status_403 url_status_401 url_timeout_env_nan url_timeout_env_negative url_http09_close url_redirect_data
url_html_as_csv url_empty_body url_reset url_cl_short_extra url_gzip_bomb_body url_dry_run
csv_int_hex csv_int_space csv_int_int_underflow csv_int_inf csv_copies_negative csv_name_201 csv_text_control
csv_name_bidi json_id_list json_cost_1e400 json_truncated json_top_object xlsx_date_cell xlsx_empty_zip
xlsx_truncated csv_id_slash csv_id_25chars gamenew_header_only xlsx_sheet_dtd_entity csv_unterminated_quote
csv_utf16 csv_nul_bytes csv_enum_bad json_bom gamenew_empty_csv json_id_null csv_dup_header csv_int_1e400
cache_empty_templates cache_empty_patterns cache_truncate_templates cache_truncate_patterns
cache_random_templates cache_random_patterns cache_subdir_is_file
db_pdf_file db_text_file db_busy_timeout_bad db_dump_deterministic db_dryrun_no_write db_readonly_file_read
db_corrupt_pages db_locked_read db_init_over_file
out_name_too_long out_export_fifo
id_slash id_newline id_leading_dot id_empty id_too_long name_only_spaces name_too_long name_control
set_no_equals set_copies_float set_empty_name query_like_wildcards query_huge_int rm_missing_card
constraint_bad_json release_tag_traversal
tpl_extends_self tpl_negative_box tpl_ssti_subclasses art_traversal tpl_unknown_option tpl_include_absolute
tpl_pow_bomb
watch_backslash watch_traversal_encoded_slash watch_interval_zero watch_methods watch_huge_request
watch_ctrl_c watch_absolute_path
prm_offset_inf prm_paper_bad prm_gap_negative prm_version prm_bleed_range prm_changed_since_unknown
prm_query_bad prm_calibration prm_edit_makes_provisional prm_rules_stdout
""".split())


def core_cases():
    missing = EXTENDED - {c.id for c in _CASES}
    assert not missing, f"unknown ids in EXTENDED: {missing}"
    return [c for c in all_cases() if c.id not in EXTENDED]
