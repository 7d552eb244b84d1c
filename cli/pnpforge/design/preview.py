"""The live preview page of `pnp watch`: a local web server (standard library) that reloads itself.

`/` is one HTML page: the latest build's images (or its PDF), the validation
problems and the build's error, if any.  The page asks `/state` once a
second and reloads when the build number moves.  It listens on 127.0.0.1 only
and holds against a page on another site and against odd files:

- a request whose `Host` is not 127.0.0.1, localhost or [::1] at this port is
  refused (a DNS-rebinding page, whose name now points at 127.0.0.1, sends its
  own host name);
- `/files/NAME` serves only a file the latest build wrote, by exact name (so
  no dotfile, no `%00`, no `..`, nothing else of the folder), and only a
  regular file, opened without blocking (a FIFO put in its place never holds
  a thread);
- every connection has a socket timeout, so an idle client's thread ends.
"""

from __future__ import annotations

import html
import json
import mimetypes
import os
import stat
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pnpforge.errors import PnpError

_SCRIPT = """<script>
let seen = BUILD;
setInterval(async () => {
  try {
    const state = await (await fetch('/state', {cache: 'no-store'})).json();
    if (state.build !== seen) location.reload();
  } catch (e) { document.title = 'pnp watch (stopped)'; }
}, 1000);
</script>"""


def page(title: str, state: dict[str, Any]) -> str:
    """The preview page for a build's state (`BuildResult.to_dict()`)."""
    parts = [
        f"<!doctype html><meta charset='utf-8'><title>{html.escape(title)} · pnp watch</title>",
        "<style>body{font:14px sans-serif;margin:1em}img{max-width:100%;border:1px solid #ccc;margin:4px}"
        ".bad{color:#b03a2e}.ok{color:#2e8b57}embed{width:100%;height:85vh}</style>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    if not state:
        parts.append("<p>Building…</p>")
    else:
        status = "ok" if state["ok"] and not state["problems"] else "bad"
        parts.append(
            f"<p class='{status}'>build {state['build']} · {html.escape(state['reason'])} · "
            f"{state['seconds']:.2f} s</p>"
        )
        if state["error"]:
            parts.append(f"<pre class='bad'>{html.escape(state['error'])}</pre>")
        if state["problems"]:
            items = "".join(f"<li>{html.escape(p)}</li>" for p in state["problems"])
            parts.append(f"<h2 class='bad'>Validation problems</h2><ul class='bad'>{items}</ul>")
        for name in state["files"]:
            src = f"/files/{html.escape(name)}?b={state['build']}"
            parts.append(
                f"<embed src='{src}' type='application/pdf'>"
                if name.endswith(".pdf")
                else f"<a href='{src}'><img src='{src}' alt='{html.escape(name)}'></a>"
            )
    parts.append(_SCRIPT.replace("BUILD", str(state.get("build", 0) if state else 0)))
    return "\n".join(parts)


SOCKET_TIMEOUT = 10.0  # seconds a connection may sit idle before its thread ends
MAX_FILE_BYTES = 512 * 1024 * 1024


def host_allowed(host: str | None, port: int) -> bool:
    """Whether a request's Host header names this server as only a local page would."""
    given = (host or "").strip().lower()
    return any(given in (name, f"{name}:{port}") for name in ("127.0.0.1", "localhost", "[::1]"))


def read_regular(target: Path) -> bytes | None:
    """The bytes of `target` if it is a regular file; opened without blocking, so a FIFO or
    a device in its place is refused at once instead of holding the thread."""
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError:
        return None
    finally:
        os.close(fd)


MAX_PORT = 65535  # TCP ports are 16-bit; 0 asks the OS for a free one


class PreviewServer:
    """A background HTTP server showing the latest build of a watch folder."""

    def __init__(
        self, title: str, folder: Path, state: Callable[[], dict[str, Any]], port: int = 8765
    ) -> None:
        self.title, self.folder, self.state = title, folder, state
        if type(port) is not int or not 0 <= port <= MAX_PORT:  # bind() would raise OverflowError
            raise PnpError(
                f"--port must be a whole number from 0 to {MAX_PORT} (0: any free port); got {port!r}"
            )
        handler = self._handler()
        try:
            self.httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        except OSError as exc:
            raise PnpError(
                f"cannot serve the preview on 127.0.0.1:{port} ({exc.strerror}); "
                f"pass --port with another number, or --no-serve"
            ) from None
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="pnp-preview", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            timeout = SOCKET_TIMEOUT  # set on each connection's socket by the base class

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
                return  # the terminal shows builds, not requests

            def do_GET(self) -> None:  # noqa: N802 - the base's name
                if not host_allowed(self.headers.get("Host"), server.httpd.server_address[1]):
                    self._send(421, "text/plain", b"this preview answers only to 127.0.0.1 or localhost")
                    return
                path = unquote(urlsplit(self.path).path)
                if path == "/":
                    self._send(200, "text/html; charset=utf-8", page(server.title, server.state()).encode())
                elif path == "/state":
                    self._send(
                        200, "application/json", json.dumps(server.state(), ensure_ascii=False).encode()
                    )
                elif path.startswith("/files/"):
                    self._file(path[len("/files/") :])
                else:
                    self._send(404, "text/plain", b"not found")

            def _file(self, name: str) -> None:
                built = (server.state() or {}).get("files", [])
                data = read_regular(server.folder / name) if name in built else None
                if data is None:
                    self._send(404, "text/plain", b"not found")
                    return
                kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
                self._send(200, kind, data)

            def _send(self, code: int, kind: str, body: bytes) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        return Handler
