"""Root cause 9 of issue 21 and the preview server's design question: `pnp watch` serves only the
files of its latest build, to a local page only, and no client or FIFO can hold a thread."""

from __future__ import annotations

import http.client
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnpforge.design import preview
from pnpforge.design.preview import PreviewServer
from pnpforge.design.watch import BuildResult


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PreviewServer, Path]]:
    monkeypatch.setattr(preview, "SOCKET_TIMEOUT", 0.5)
    (tmp_path / "g-proof.png").write_bytes(b"\x89PNG fake")
    (tmp_path / ".secret").write_bytes(b"token")
    (tmp_path / "notes.txt").write_bytes(b"not built")
    os.mkfifo(tmp_path / "g-fifo.png")
    state = BuildResult(2, True, 0.1, [str(tmp_path / "g-proof.png"), str(tmp_path / "g-fifo.png")])
    server = PreviewServer("g", tmp_path, state.to_dict, port=0)
    server.start()
    yield server, tmp_path
    server.stop()


def _get(server: PreviewServer, path: str, host: str | None = None) -> tuple[int, bytes]:
    port = server.httpd.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path, headers={"Host": host or f"127.0.0.1:{port}"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body


def test_only_the_latest_builds_files_are_served(served: tuple[PreviewServer, Path]) -> None:
    server, _folder = served
    assert _get(server, "/files/g-proof.png") == (200, b"\x89PNG fake")
    for path in (
        "/files/.secret",
        "/files/notes.txt",
        "/files/%00",
        "/files/g-proof.png%00.txt",
        "/files/..%2f..%2fetc%2fpasswd",
        "/files/../notes.txt",
        "/files/%2e%2e/notes.txt",
        "/files/",
    ):
        status, body = _get(server, path)
        assert status == 404 and b"token" not in body and b"not built" not in body, path


def test_a_fifo_in_place_of_a_built_file_never_blocks(served: tuple[PreviewServer, Path]) -> None:
    server, _folder = served
    assert _get(server, "/files/g-fifo.png")[0] == 404  # answered at once: opened without blocking
    assert _get(server, "/files/g-proof.png")[0] == 200


def test_a_foreign_host_header_is_refused(served: tuple[PreviewServer, Path]) -> None:
    server, _folder = served
    port = server.httpd.server_address[1]
    for host in ("attacker.example", f"attacker.example:{port}", "127.0.0.1.nip.io", "localhost:1"):
        assert _get(server, "/state", host)[0] == 421, host
        assert _get(server, "/files/g-proof.png", host)[0] == 421, host
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost"):
        assert _get(server, "/state", host)[0] == 200, host


def test_an_idle_connection_is_closed_by_the_server(served: tuple[PreviewServer, Path]) -> None:
    server, _folder = served
    with socket.create_connection(("127.0.0.1", server.httpd.server_address[1]), timeout=5) as idle:
        idle.sendall(b"GET / HTTP/1.1\r\n")  # never finishes its request
        assert idle.recv(100) == b""  # the server gave up on it (SOCKET_TIMEOUT) and closed
