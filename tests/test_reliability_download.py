"""Root causes 1, 4 and 6 of issue 21 and the download's share of 7: a link import goes through
one guarded download (formats.download).  Every server here is a raw socket on 127.0.0.1 that
answers exactly the bytes a case needs, then closes."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pnpforge.errors import PnpError
from pnpforge.formats import download
from pnpforge.store import repo
from pnpforge.store.db import open_db

Script = Callable[[socket.socket], None]


class RawServer:
    """A loopback server running one script per connection (bounded: it stops with the test)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.scripts: dict[str, Script] = {}
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        while not self.stopping:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(5)
        try:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                request += chunk
            path = request.split(b" ", 2)[1].decode()
            script = self.scripts.get(path)
            if script is None:
                conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            else:
                script(conn)
        except OSError:
            pass
        finally:
            conn.close()

    def stop(self) -> None:
        self.stopping = True
        self.thread.join(2)
        self.sock.close()


def send(data: bytes) -> Script:
    return lambda conn: conn.sendall(data)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[RawServer]:
    monkeypatch.setenv(download.ALLOW_ENV, "1")  # these servers are on loopback
    srv = RawServer()
    yield srv
    srv.stop()


def _copies(db: Path, card_id: str) -> int:
    return repo.get_card(open_db(db, readonly=True), "mini", card_id).copies


def _refused(run: Callable[..., object], db: Path, url: str, words: str) -> str:
    before = db.read_bytes()
    res = run("--db", db, "import", "mini", url)
    assert res.exit_code == 2, res.output  # type: ignore[attr-defined]
    err = res.stderr  # type: ignore[attr-defined]
    assert words in err and url in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert db.read_bytes() == before
    return err


def test_a_cut_off_body_is_refused_and_nothing_written(mini_db: Path, run, server: RawServer) -> None:
    # root cause 1: the server promises 30 bytes and closes after 16 ('H-01,15' cut to 'H-01,1')
    full = b"id,copies\nH-01,15\nH-02,1\n\n\n\n\n\n"
    assert len(full) == 30
    server.scripts["/cut"] = send(b"HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n" + full[:16])
    _refused(run, mini_db, f"{server.url}/cut", "cut off: 16 of the 30 bytes")
    assert _copies(mini_db, "H-01") == 2
    server.scripts["/huge"] = send(
        b"HTTP/1.1 200 OK\r\nContent-Length: 2147483648\r\n\r\nid,copies\nH-01,1\n"
    )
    _refused(run, mini_db, f"{server.url}/huge", "more than 64 MB")
    server.scripts["/short"] = send(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nid,copies\nH-01,1\n")
    _refused(run, mini_db, f"{server.url}/short", "cut off: 17 of the 100 bytes")


def test_a_complete_body_imports(mini_db: Path, run, server: RawServer) -> None:
    body = b"id,copies\nH-01,5\n"
    server.scripts["/ok"] = send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    chunks = b"5\r\nid,co\r\n" + b"c\r\npies\nH-01,7\n\r\n" + b"0\r\n\r\n"
    server.scripts["/chunked"] = send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
    assert run("--db", mini_db, "import", "mini", f"{server.url}/ok").exit_code == 0
    assert _copies(mini_db, "H-01") == 5
    res = run("--db", mini_db, "import", "mini", f"{server.url}/chunked")
    assert res.exit_code == 0, res.output
    assert _copies(mini_db, "H-01") == 7


def test_malformed_answers_are_one_line_each(mini_db: Path, run, server: RawServer) -> None:
    # root cause 7, the download's cases: each used to be a traceback
    cases = {
        "/chunk-cut": (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nid,copies\nH-0",
            "chunked body ended before its last chunk",
        ),
        "/not-http": (b"SSH-2.0-OpenSSH_9.0\r\n", "not HTTP"),
        "/long-header": (b"HTTP/1.1 200 OK\r\nX-A: " + b"a" * 70_000 + b"\r\n\r\n", "longer than 8192 bytes"),
        "/many-headers": (
            b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(150)) + b"\r\n",
            "more than 100 headers",
        ),
        "/bad-length": (b"HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", "bad Content-Length"),
        "/status-cut": (b"HTTP/1.1 2", "closed in the middle of the status line"),
    }
    for path, (answer, words) in cases.items():
        server.scripts[path] = send(answer)
        _refused(run, mini_db, f"{server.url}{path}", words)


def test_the_deadline_covers_the_whole_download(
    mini_db: Path, run, server: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # root cause 4: a byte every 0.1 s never waits a whole timeout between reads, yet the
    # download as a whole must stop at PNP_URL_TIMEOUT (the body would take 3 s)
    body = b"id,copies\nH-01,9\n" + b"\n" * 13

    def drip(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body))
        for byte in body:
            conn.sendall(bytes([byte]))
            time.sleep(0.1)

    server.scripts["/drip"] = drip
    monkeypatch.setenv("PNP_URL_TIMEOUT", "1")
    _refused(run, mini_db, f"{server.url}/drip", "did not finish within 1 s")
    assert _copies(mini_db, "H-01") == 2


def test_redirects_stay_on_http_and_are_followed(mini_db: Path, run, server: RawServer) -> None:
    # root cause 6: a redirect to ftp:// (or file:) is refused; to http it is followed
    for target in ("ftp://127.0.0.1/x.csv", "file:///etc/passwd", "gopher://127.0.0.1/"):
        server.scripts["/away"] = send(f"HTTP/1.1 302 Found\r\nLocation: {target}\r\n\r\n".encode())
        _refused(run, mini_db, f"{server.url}/away", "may lead only to http or https")
    body = b"id,copies\nH-01,4\n"
    server.scripts["/final"] = send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    server.scripts["/moved"] = send(b"HTTP/1.1 301 Moved\r\nLocation: /final\r\n\r\n")
    assert run("--db", mini_db, "import", "mini", f"{server.url}/moved").exit_code == 0
    assert _copies(mini_db, "H-01") == 4
    server.scripts["/loop"] = send(b"HTTP/1.1 302 Found\r\nLocation: /loop\r\n\r\n")
    _refused(run, mini_db, f"{server.url}/loop", "more than 5 redirects")


def test_private_addresses_need_the_flag(
    mini_db: Path, run, server: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(download.ALLOW_ENV)
    body = b"id,copies\nH-01,6\n"
    server.scripts["/csv"] = send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    _refused(run, mini_db, f"{server.url}/csv", "loopback address (127.0.0.1)")
    res = run("--db", mini_db, "import", "mini", f"{server.url}/csv", "--allow-private-network")
    assert res.exit_code == 0, res.output
    assert _copies(mini_db, "H-01") == 6


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("10.1.2.3", "private"),
        ("192.168.0.1", "private"),
        ("172.16.5.4", "private"),
        ("::ffff:10.0.0.1", "private"),
        ("100.64.0.1", "non-public"),
        ("0.0.0.0", "private"),
    ],
)
def test_the_address_policy_refuses_every_non_public_address(address: str, kind: str) -> None:
    # checked without connecting anywhere: the policy is a pure function of the address
    with pytest.raises(download._Failed, match=kind):
        download.check_address(address, "example.test", allow_private=False)
    download.check_address(address, "example.test", allow_private=True)
    download.check_address("93.184.216.34", "example.test", allow_private=False)


def test_a_redirect_to_a_private_address_is_refused_after_the_hop(server: RawServer) -> None:
    # the policy is checked on every hop: a first hop let through cannot bounce to another
    # non-public address (127.0.0.2 stands for any: it is refused before any connection)
    server.scripts["/hop"] = send(b"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:9/x\r\n\r\n")
    allowed_first: list[str] = []
    real = download.check_address

    def first_hop_allowed(address: str, host: str, allow_private: bool) -> None:
        allowed_first.append(address)
        real(address, host, allow_private or len(allowed_first) == 1)

    mp = pytest.MonkeyPatch()
    mp.delenv(download.ALLOW_ENV)
    mp.setattr(download, "check_address", first_hop_allowed)
    try:
        with pytest.raises(PnpError, match=r"127\.0\.0\.2 is a loopback address"):
            download.fetch(f"{server.url}/hop")
    finally:
        mp.undo()
    assert allowed_first == ["127.0.0.1", "127.0.0.2"]


def test_a_password_in_the_link_is_never_repeated(mini_db: Path, run, server: RawServer) -> None:
    """A link may carry credentials (`user:secret@host`): messages name the link with `***`."""
    server.scripts["/cut"] = send(b"HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\nid,copies\n")
    url = server.url.replace("http://", "http://ann:s3cret@") + "/cut"
    res = run("--db", mini_db, "import", "mini", url)
    assert res.exit_code == 2 and "cut off" in res.stderr, res.output
    assert "s3cret" not in res.output and "ann:***@" in res.stderr
    assert download.redact("https://example.org/a?b=1") == "https://example.org/a?b=1"
