"""One guarded HTTP(S) download: the only way pnpforge reads a link.

Why not urllib: its timeout bounds each socket read, not the download (a
server sending a byte a second holds it for ever), it accepts a body shorter
than its Content-Length when the server closes early, it follows a redirect to
any scheme its handlers know, and its header parser raises exceptions of its
own for malformed answers.  Here one small HTTP/1.1 reader owns every step:

- a whole-download deadline (`PNP_URL_TIMEOUT`, default 30 s): every socket
  wait is bounded by the time left, from the connection to the last byte;
- a body is complete or an error naming the URL: exactly Content-Length
  bytes, or a chunked body up to its final zero-size chunk (a body without
  either ends when the server closes, as HTTP/1.0 defines it);
- only http and https, on every hop of up to five redirects;
- an address policy checked on every hop, on the address actually connected
  to (no second DNS answer in between): loopback, link-local, private and
  other non-global addresses are refused unless the caller allows them
  (`--allow-private-network` or `PNP_ALLOW_PRIVATE_NETWORK=1`);
- an answer that is not HTTP, a header line over 8 KB, more than 100 headers
  or a body over the size limit is one line naming the URL.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import ssl
import time
import urllib.parse
from dataclasses import dataclass

from pnpforge.errors import PnpError

MAX_BODY_BYTES = 64 * 1024 * 1024  # held in memory whole, like a JSON import
MAX_HEADER_LINE = 8192
MAX_HEADERS = 100
MAX_REDIRECTS = 5
_RECV = 65536
_REDIRECTS = (301, 302, 303, 307, 308)
ALLOW_ENV = "PNP_ALLOW_PRIVATE_NETWORK"


def timeout_seconds() -> float:
    """Seconds the whole download may take ($PNP_URL_TIMEOUT, default 30)."""
    try:
        value = float(os.environ.get("PNP_URL_TIMEOUT", "30"))
    except ValueError:
        return 30.0
    return max(0.1, value) if value == value else 30.0  # NaN → the default


def private_allowed(flag: bool = False) -> bool:
    """Whether non-global addresses may be reached: the flag, or $PNP_ALLOW_PRIVATE_NETWORK=1."""
    return flag or os.environ.get(ALLOW_ENV, "").strip().lower() in ("1", "true", "yes")


@dataclass(frozen=True)
class Answer:
    """A finished download: the final URL (after redirects), its status, headers and body."""

    url: str
    status: int
    headers: dict[str, str]
    body: bytes


class _Failed(Exception):
    """A reason the download stopped; fetch() words it with the URL."""


class _Deadline:
    """The time left of the whole download."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        remaining = self.end - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        return remaining


def redact(url: str) -> str:
    """The link as messages show it: a password in it (`user:secret@host`) becomes `***`."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def fetch(
    url: str,
    *,
    allow_private: bool = False,
    timeout: float | None = None,
    accept: str = "*/*",
    limit: int = MAX_BODY_BYTES,
) -> Answer:
    """The body of `url` (a 2xx answer after at most five redirects), or PnpError naming the URL.

    Nothing is returned unless the body is complete, so a caller never sees half of one."""
    shown = redact(url)  # no message repeats a password the link carries
    deadline = _Deadline(timeout if timeout is not None else timeout_seconds())
    allow = private_allowed(allow_private)
    current = url
    try:
        for _hop in range(MAX_REDIRECTS + 1):
            answer = _get(current, accept, allow, deadline, limit)
            if answer.status in _REDIRECTS and "location" in answer.headers:
                current = urllib.parse.urljoin(current, answer.headers["location"].strip())
                continue
            if not 200 <= answer.status < 300:
                published = answer.status in (401, 403, 404)
                hint = " (is the sheet published to the web as CSV?)" if published else ""
                raise PnpError(f"{shown}: the server answered {answer.status}{hint}; nothing was imported")
            return answer
        raise _Failed(f"more than {MAX_REDIRECTS} redirects")
    except TimeoutError:
        raise PnpError(
            f"{shown}: the download did not finish within {deadline.seconds:g} s (timed out); "
            f"check the link and the network, or raise PNP_URL_TIMEOUT; nothing was imported"
        ) from None
    except _Failed as exc:
        raise PnpError(f"{shown}: {exc}; nothing was imported") from None
    except ssl.SSLError as exc:
        reason = exc.reason or str(exc)
        raise PnpError(f"{shown}: secure connection failed ({reason}); nothing was imported") from None
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise PnpError(
            f"{shown}: cannot connect ({reason}); check the link and the network; nothing was imported"
        ) from None


def _split(url: str) -> tuple[str, str, int, str]:
    """Scheme, host, port and request target of an http(s) URL; _Failed for anything else."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise _Failed(f"not a valid link ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise _Failed(f"a link (or a redirect) may lead only to http or https, not '{scheme}:' ({url[:200]})")
    host = parts.hostname
    if not host:
        raise _Failed("the link names no host")
    if any(ord(ch) < 33 or ord(ch) == 127 for ch in url):
        raise _Failed("the link holds spaces or control characters")
    target = urllib.parse.quote(parts.path or "/", safe=_SAFE)
    if parts.query:
        target += "?" + urllib.parse.quote(parts.query, safe=_SAFE)
    return scheme, host, port or (443 if scheme == "https" else 80), target


_SAFE = "/?&=%:@!$'()*+,;~-._"


def _ascii_host(host: str) -> str:
    """The host as it goes on the wire (an internationalised name in its IDNA form)."""
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        raise _Failed(f"{host[:100]} is not a valid host name") from None


def check_address(address: str, host: str, allow_private: bool) -> None:
    """Refuse a non-global address (loopback, link-local, private, reserved…) unless allowed."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_global or allow_private:
        return
    kind = (
        "loopback"
        if ip.is_loopback
        else "link-local"
        if ip.is_link_local
        else "private"
        if ip.is_private
        else "non-public"
    )
    raise _Failed(
        f"{host} is a {kind} address ({ip}); links may reach only public addresses "
        f"(pass --allow-private-network to reach this machine or your own network)"
    )


def _connect(scheme: str, host: str, port: int, allow: bool, deadline: _Deadline) -> socket.socket:
    """A socket to the first checked address of `host`, TLS-wrapped for https."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    if not infos:
        raise _Failed(f"{host} has no address")
    for info in infos:  # every address the name has must pass: none is tried that would not
        check_address(str(info[4][0]), host, allow)
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.settimeout(deadline.left())
        sock.connect(address)
        if scheme == "https":
            context = ssl.create_default_context()
            sock.settimeout(deadline.left())
            sock = context.wrap_socket(sock, server_hostname=host)
    except BaseException:
        sock.close()
        raise
    return sock


class _Reader:
    """Buffered reads from a socket, each wait bounded by the deadline."""

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        self.sock, self.deadline = sock, deadline
        self.buffer = bytearray()
        self.closed = False

    def _fill(self) -> bool:
        if self.closed:
            return False
        self.sock.settimeout(self.deadline.left())
        data = self.sock.recv(_RECV)  # TimeoutError when the deadline passes while waiting
        if not data:
            self.closed = True
            return False
        self.buffer += data
        return True

    def line(self, what: str) -> bytes:
        """One CRLF- (or LF-) ended line without its end; _Failed when over-long or cut off."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                if end > MAX_HEADER_LINE:
                    raise _Failed(f"the server sent a {what} longer than {MAX_HEADER_LINE} bytes")
                out = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return out.rstrip(b"\r")
            if len(self.buffer) > MAX_HEADER_LINE:
                raise _Failed(f"the server sent a {what} longer than {MAX_HEADER_LINE} bytes")
            if not self._fill():
                raise _Failed(f"the connection closed in the middle of the {what}")

    def exactly(self, count: int) -> bytes:
        """`count` bytes; _Incomplete (with what came) when the connection closes first."""
        while len(self.buffer) < count:
            if not self._fill():
                raise _Incomplete(len(self.buffer))
        out = bytes(self.buffer[:count])
        del self.buffer[:count]
        return out

    def rest(self, limit: int) -> bytes:
        """Everything until the server closes (a body delimited by the end of the connection)."""
        while self._fill():
            if len(self.buffer) > limit:
                raise _TooBig
        return bytes(self.buffer)


class _Incomplete(Exception):
    def __init__(self, got: int) -> None:
        self.got = got


class _TooBig(Exception):
    pass


def _get(url: str, accept: str, allow: bool, deadline: _Deadline, limit: int) -> Answer:
    """One request and its answer (a redirect is returned for fetch() to follow)."""
    scheme, host, port, target = _split(url)
    sock = _connect(scheme, host, port, allow, deadline)
    try:
        host_header = _ascii_host(host) if ":" not in host else f"[{host}]"
        if port != (443 if scheme == "https" else 80):
            host_header += f":{port}"
        request = (
            f"GET {target} HTTP/1.1\r\nHost: {host_header}\r\nUser-Agent: pnpforge\r\n"
            f"Accept: {accept}\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n"
        )
        sock.settimeout(deadline.left())
        sock.sendall(request.encode("ascii"))
        reader = _Reader(sock, deadline)
        status = _status(reader.line("status line"))
        headers = _headers(reader)
        if status in _REDIRECTS or status >= 300:
            return Answer(url, status, headers, b"")
        return Answer(url, status, headers, _body(reader, headers, limit))
    finally:
        sock.close()


def _status(line: bytes) -> int:
    """The status code of an HTTP status line; _Failed when the answer is not HTTP."""
    parts = line.split(None, 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit() or len(parts[1]) != 3:
        shown = line[:60].decode("latin-1").encode("unicode_escape").decode()
        raise _Failed(f"the server's answer is not HTTP (it began '{shown}')")
    return int(parts[1])


def _headers(reader: _Reader) -> dict[str, str]:
    headers: dict[str, str] = {}
    for _count in range(MAX_HEADERS + 1):
        line = reader.line("header line")
        if not line:
            return headers
        name, sep, value = line.partition(b":")
        if not sep or not name.strip():
            raise _Failed("the server sent a malformed header line")
        key = name.strip().lower().decode("latin-1")
        text = value.strip().decode("latin-1")
        if key in headers and key == "content-length" and headers[key] != text:
            raise _Failed("the server sent two different Content-Length headers")
        headers[key] = text
    raise _Failed(f"the server sent more than {MAX_HEADERS} headers")


def _body(reader: _Reader, headers: dict[str, str], limit: int) -> bytes:
    """The whole body by Content-Length, chunks or the end of the connection."""
    too_big = _Failed(f"more than {limit // 2**20} MB; download it and import the file")
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return _chunked(reader, limit, too_big)
    length_text = headers.get("content-length")
    if length_text is not None:
        if not length_text.isdigit() or len(length_text) > 18:
            raise _Failed(f"the server sent a bad Content-Length ({length_text[:40]!r})")
        length = int(length_text)
        if length > limit:
            raise too_big
        try:
            return reader.exactly(length)
        except _Incomplete as exc:
            raise _Failed(
                f"the download was cut off: {exc.got} of the {length} bytes the server announced"
            ) from None
    try:
        return reader.rest(limit)
    except _TooBig:
        raise too_big from None


def _chunked(reader: _Reader, limit: int, too_big: _Failed) -> bytes:
    body = bytearray()
    try:
        while True:
            size_text = reader.line("chunk size").split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise _Failed("the server sent a malformed chunked body") from None
            if size < 0 or len(body) + size > limit:
                raise too_big
            if size == 0:
                while reader.line("trailer"):  # trailers up to the blank line
                    pass
                return bytes(body)
            body += reader.exactly(size)
            if reader.line("chunk end"):
                raise _Failed("the server sent a malformed chunked body")
    except _Incomplete:
        raise _Failed("the download was cut off: the chunked body ended before its last chunk") from None
    except _Failed as exc:
        if "closed in the middle" in str(exc):
            raise _Failed("the download was cut off: the chunked body ended before its last chunk") from None
        raise
