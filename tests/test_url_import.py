"""Import from an http(s) CSV link, against a local server: success, dry run, 404, timeout, a web page."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnpforge.design.urlimport import as_url
from pnpforge.store import repo
from pnpforge.store.db import open_db

PAGES: dict[str, bytes] = {}


class _Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/slow"):
            time.sleep(2)
        body = PAGES.get(self.path.split("?")[0])
        if body is None:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/csv; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except BrokenPipeError:
            pass


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("PNP_ALLOW_PRIVATE_NETWORK", "1")  # the test server is on loopback
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_url_is_recognised_even_after_path_dropped_a_slash() -> None:
    assert as_url("https://docs.example.com/pub?output=csv") == "https://docs.example.com/pub?output=csv"
    assert (
        as_url(Path("https://docs.example.com/d/e/pub?output=csv"))
        == "https://docs.example.com/d/e/pub?output=csv"
    )
    assert as_url("cards.csv") is None and as_url(Path("http.csv")) is None


def test_import_from_a_published_csv_link(mini_db: Path, run, server: str) -> None:
    exported = run("--db", mini_db, "export", "mini").stdout
    PAGES["/pub"] = exported.replace("冰凍術", "寒冰術").encode("utf-8-sig")  # Excel-style BOM
    res = run("--db", mini_db, "import", "mini", f"{server}/pub?output=csv", "--dry-run")
    assert res.exit_code == 0, res.output
    assert "~ S-01" in res.output and "冰凍術" in res.output and "dry run" in res.output
    assert repo.get_card(open_db(mini_db, readonly=True), "mini", "S-01").name == "冰凍術"
    res = run("--db", mini_db, "import", "mini", f"{server}/pub?output=csv")
    assert res.exit_code == 0 and "updated 1" in res.output
    assert repo.get_card(open_db(mini_db, readonly=True), "mini", "S-01").name == "寒冰術"


def test_bad_rows_from_a_link_refuse_everything(mini_db: Path, run, server: str) -> None:
    PAGES["/bad"] = "id,type,name,power\nH-01,hero,火龍騎士,99\n".encode()
    res = run("--db", mini_db, "import", "mini", f"{server}/bad")
    assert res.exit_code == 1 and f"{server}/bad, line 2" in res.stderr
    assert f"import of {server}/bad refused" in res.stderr  # the link as given, not as a path


def test_big5_link_with_encoding(mini_db: Path, run, server: str) -> None:
    PAGES["/big5"] = "id,type,name\nS-01,spell,寒冰術\n".encode("big5")
    res = run("--db", mini_db, "import", "mini", f"{server}/big5")
    assert res.exit_code == 2 and "--encoding" in res.stderr
    res = run("--db", mini_db, "import", "mini", f"{server}/big5", "--encoding", "big5")
    assert res.exit_code == 0, res.output


def test_404_timeout_html_and_no_server_are_one_line_errors(
    mini_db: Path, run, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    res = run("--db", mini_db, "import", "mini", f"{server}/missing")
    assert res.exit_code == 2 and "404" in res.stderr and "published" in res.stderr
    monkeypatch.setenv("PNP_URL_TIMEOUT", "0.3")
    PAGES["/slow"] = b"id,name\n"
    start = time.perf_counter()
    res = run("--db", mini_db, "import", "mini", f"{server}/slow")
    assert res.exit_code == 2 and "timed out" in res.stderr
    assert time.perf_counter() - start < 1.9
    PAGES["/page"] = b"<!DOCTYPE html><html><body>Sign in</body></html>"
    res = run("--db", mini_db, "import", "mini", f"{server}/page")
    assert res.exit_code == 2 and "web page, not CSV" in res.stderr
    res = run("--db", mini_db, "import", "mini", "http://127.0.0.1:9/x.csv")
    assert res.exit_code == 2 and "cannot connect" in res.stderr
    for r in (res,):
        assert "Traceback" not in r.output
