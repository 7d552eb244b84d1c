"""The live preview page of `pnp watch`: a local web server (standard library) that reloads itself.

`/` is one HTML page: the latest build's images (or its PDF), the validation
problems and the build's error, if any.  The page asks `/state` once a
second and reloads when the build number moves.  `/files/NAME` serves the
files of the watch folder and nothing else.  It listens on 127.0.0.1 only.
"""

from __future__ import annotations

import html
import json
import mimetypes
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


class PreviewServer:
    """A background HTTP server showing the latest build of a watch folder."""

    def __init__(
        self, title: str, folder: Path, state: Callable[[], dict[str, Any]], port: int = 8765
    ) -> None:
        self.title, self.folder, self.state = title, folder, state
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
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
                return  # the terminal shows builds, not requests

            def do_GET(self) -> None:  # noqa: N802 - the base's name
                path = unquote(urlsplit(self.path).path)
                if path == "/":
                    self._send(200, "text/html; charset=utf-8", page(server.title, server.state()).encode())
                elif path == "/state":
                    self._send(
                        200, "application/json", json.dumps(server.state(), ensure_ascii=False).encode()
                    )
                elif path.startswith("/files/") and "/" not in path[len("/files/") :]:
                    self._file(server.folder / path[len("/files/") :])
                else:
                    self._send(404, "text/plain", b"not found")

            def _file(self, target: Path) -> None:
                try:
                    data = target.read_bytes()
                except OSError:
                    self._send(404, "text/plain", b"not found")
                    return
                kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                self._send(200, kind, data)

            def _send(self, code: int, kind: str, body: bytes) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        return Handler
