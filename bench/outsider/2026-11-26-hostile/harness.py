"""Harness for the hostile-input table: running pnp, verdicts, tiny loopback servers.

Written from pnpforge's README.md, docs/cli.md and `pnp --help` only.
Standard library only (openpyxl is not needed here).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HOLD, FAIL, QUESTION = "HOLD", "FAIL", "QUESTION"
TB = "Traceback (most recent call last)"


@dataclass
class Result:
    args: list
    rc: int | None
    out: str
    err: str
    secs: float
    timed_out: bool
    maxrss_mb: float

    @property
    def text(self) -> str:
        return self.out + "\n" + self.err

    @property
    def traceback(self) -> bool:
        return TB in self.out or TB in self.err

    def brief(self) -> str:
        lines = [ln.strip() for ln in (self.err.strip() or self.out.strip()).splitlines() if ln.strip()]
        errs = [ln for ln in lines if ln.lower().startswith(("error", "fail"))]
        first = errs[0] if errs else (lines[0] if lines else "")
        return f"rc={self.rc} {first[:140]!r}"


class Verdict(Exception):
    def __init__(self, status: str, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def hold(reason: str):
    raise Verdict(HOLD, reason)


def fail(reason: str):
    raise Verdict(FAIL, reason)


def question(reason: str):
    raise Verdict(QUESTION, reason)


def sha(path) -> str | None:
    p = Path(path)
    if not p.exists():
        return None
    if p.is_dir():
        h = hashlib.sha256()
        for f in sorted(p.rglob("*")):
            if f.is_file():
                h.update(str(f.relative_to(p)).encode())
                h.update(f.read_bytes())
        return h.hexdigest()
    return hashlib.sha256(p.read_bytes()).hexdigest()


def can_drop_privs() -> bool:
    return os.geteuid() == 0 and shutil.which("setpriv") is not None


DROP = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner,-linux_immutable"]


class Ctx:
    """One case: its own folder, environment and processes."""

    def __init__(self, cfg, case_id: str, root: Path):
        self.cfg = cfg
        self.id = case_id
        self.dir = root / case_id
        self.dir.mkdir(parents=True)
        self.procs: list[subprocess.Popen] = []
        self.servers: list = []
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.dir / "home"),
            "LC_ALL": "C.UTF-8",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "COLUMNS": "200",
            "NO_COLOR": "1",
            "PNP_CACHE_DIR": str(self.dir / "cache"),
            "PNP_URL_TIMEOUT": "8",
            "PNP_BUSY_TIMEOUT": "3",
        }
        (self.dir / "home").mkdir()
        self.deadline = None

    # ---- fixtures -------------------------------------------------------
    def warm_cache(self) -> Path:
        dst = self.dir / "cache"
        if not dst.exists():
            shutil.copytree(self.cfg.base / "warm_cache", dst, symlinks=True)
        return dst

    def sky(self, warm: bool = True) -> Path:
        """A copy of the small fixture game 'sky' (4 cards) with its templates; returns the db."""
        shutil.copytree(self.cfg.base / "sky", self.dir / "proj", dirs_exist_ok=True)
        if warm:
            self.warm_cache()
        return self.dir / "proj" / "sky.db"

    def shipped(self) -> Path:
        d = self.dir / "ship"
        d.mkdir(exist_ok=True)
        dst = d / "cards.db"
        shutil.copy2(self.cfg.db, dst)
        self.warm_cache()
        return dst

    def path(self, *parts) -> Path:
        return self.dir.joinpath(*parts)

    # ---- running --------------------------------------------------------
    def pnp(self, *args, db=None, timeout=60, env=None, cwd=None, stdin=None, drop=False, wait=True, mem_mb=None):
        cmd = [self.cfg.pnp]
        if db is not None:
            cmd += ["--db", str(db)]
        cmd += [str(a) for a in args]
        return self.run(cmd, timeout=timeout, env=env, cwd=cwd, stdin=stdin, drop=drop, wait=wait, mem_mb=mem_mb)

    def run(self, cmd, timeout=60, env=None, cwd=None, stdin=None, drop=False, wait=True, mem_mb=None):
        e = dict(self.env)
        if env:
            for k, v in env.items():
                if v is None:
                    e.pop(k, None)
                else:
                    e[k] = v
        if drop and can_drop_privs():
            cmd = DROP + list(cmd)
        n = len(self.procs)
        outp, errp = self.dir / f".out{n}", self.dir / f".err{n}"
        fin = subprocess.DEVNULL
        if stdin is not None:
            sp = self.dir / f".in{n}"
            sp.write_bytes(stdin if isinstance(stdin, bytes) else stdin.encode())
            fin = open(sp, "rb")
        if mem_mb and shutil.which("prlimit"):
            cmd = ["prlimit", f"--as={int(mem_mb) << 20}", "--"] + list(cmd)
        with open(outp, "wb") as fo, open(errp, "wb") as fe:
            p = subprocess.Popen(cmd, stdout=fo, stderr=fe, stdin=fin, env=e,
                                 cwd=str(cwd or self.dir), start_new_session=True)
        if fin is not subprocess.DEVNULL:
            fin.close()
        p._pnp_out, p._pnp_err, p._pnp_t0, p._pnp_args = outp, errp, time.monotonic(), cmd
        self.procs.append(p)
        if not wait:
            return p
        return self.wait(p, timeout)

    def wait(self, p, timeout=60) -> Result:
        t0 = p._pnp_t0
        t_call = time.monotonic()
        timed_out = False
        rc = None
        ru = None
        while True:
            try:
                pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            except ChildProcessError:
                pid, status = p.pid, 0
                rc = p.returncode
                break
            if pid:
                rc = os.waitstatus_to_exitcode(status)
                p.returncode = rc
                break
            if time.monotonic() - t_call > timeout:
                timed_out = True
                self._kill(p)
                try:
                    _, status, ru = os.wait4(p.pid, 0)
                    rc = os.waitstatus_to_exitcode(status)
                    p.returncode = rc
                except ChildProcessError:
                    pass
                break
            time.sleep(0.05)
        secs = time.monotonic() - t0
        out = p._pnp_out.read_bytes()[:400_000].decode("utf-8", "replace")
        err = p._pnp_err.read_bytes()[:400_000].decode("utf-8", "replace")
        rss = (ru.ru_maxrss / 1024.0) if ru else 0.0
        return Result(p._pnp_args, rc, out, err, secs, timed_out, rss)

    def _kill(self, p):
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def cleanup(self):
        for p in self.procs:
            if p.returncode is None:
                self._kill(p)
                try:
                    os.wait4(p.pid, 0)
                except ChildProcessError:
                    pass
        for s in self.servers:
            s.stop()

    # ---- common verdicts ------------------------------------------------
    def dump(self, db) -> str:
        r = self.pnp("db", "dump", db=db, timeout=60)
        return r.out if r.rc == 0 else f"<dump failed {r.rc}>"


def basic(r: Result, what: str = ""):
    """Failures every run is held to: no hang, no traceback, no crash by signal."""
    if r.timed_out:
        fail(f"{what}hung: killed after {r.secs:.0f} s")
    if r.rc is not None and r.rc < 0:
        try:
            name = signal.Signals(-r.rc).name
        except ValueError:
            name = str(-r.rc)
        fail(f"{what}the pnp process crashed with {name}")
    if r.traceback:
        import re
        lines = [ln.strip() for ln in r.text.splitlines() if ln.strip()]
        exc = [ln for ln in lines if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning|IncompleteRead|LineTooLong|BadStatusLine|error)\b", ln)]
        line = exc[-1] if exc else (lines[-1] if lines else "")
        fail(f"{what}Python traceback ({line[:120]})")


def refused(r: Result, what: str = "", max_lines: int = 40):
    """A clear refusal: non-zero exit, a message, no traceback, not a wall of text."""
    basic(r, what)
    if r.rc == 0:
        fail(f"{what}accepted (exit 0): {r.brief()}")
    msg = (r.err.strip() or r.out.strip())
    if not msg:
        fail(f"{what}exit {r.rc} with no message")
    if len(msg.splitlines()) > max_lines:
        fail(f"{what}refused but with {len(msg.splitlines())} lines of output")
    if r.rc < 0:
        fail(f"{what}died from signal {-r.rc}")


def ok(r: Result, what: str = ""):
    basic(r, what)
    if r.rc != 0:
        fail(f"{what}expected success: {r.brief()}")


# ---------------------------------------------------------------------------
# tiny loopback servers
# ---------------------------------------------------------------------------

class RawServer:
    """Listens on 127.0.0.1 (or another loopback address); handler(conn, request, server) answers."""

    def __init__(self, handler, host="127.0.0.1"):
        self.handler = handler
        self.stopped = threading.Event()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.host = host
        self.port = self.sock.getsockname()[1]
        self.requests: list[bytes] = []
        self.conns: list[socket.socket] = []
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def url(self, path="/sheet.csv"):
        return f"http://{self.host}:{self.port}{path}"

    def _loop(self):
        while not self.stopped.is_set():
            try:
                c, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            self.conns.append(c)
            threading.Thread(target=self._serve, args=(c,), daemon=True).start()

    def _serve(self, c):
        try:
            c.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data and len(data) < 1_000_000:
                chunk = c.recv(65536)
                if not chunk:
                    break
                data += chunk
            self.requests.append(data)
            c.settimeout(30)
            self.handler(c, data, self)
        except OSError:
            pass
        finally:
            try:
                c.close()
            except OSError:
                pass

    def stop(self):
        self.stopped.set()
        try:
            self.sock.close()
        except OSError:
            pass
        for c in self.conns:
            try:
                c.close()
            except OSError:
                pass


def http_response(status="200 OK", body=b"", headers=None, length=True) -> bytes:
    h = [f"HTTP/1.1 {status}"]
    hd = {"Content-Type": "text/csv; charset=utf-8", "Connection": "close"}
    if headers:
        hd.update(headers)
    if length and "Content-Length" not in hd:
        hd["Content-Length"] = str(len(body))
    for k, v in hd.items():
        if v is not None:
            h.append(f"{k}: {v}")
    return ("\r\n".join(h) + "\r\n\r\n").encode("latin-1") + body


def wait_for(pred, timeout, step=0.2):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return None


def http_get(port, path="/", host_header=None, raw=None, timeout=8, addr="127.0.0.1"):
    """A raw HTTP/1.0 GET; returns (status line, headers+body bytes) or (None, error)."""
    try:
        with socket.create_connection((addr, port), timeout=timeout) as s:
            if raw is None:
                hh = host_header if host_header is not None else f"127.0.0.1:{port}"
                raw = f"GET {path} HTTP/1.0\r\nHost: {hh}\r\n\r\n".encode("latin-1")
            s.sendall(raw)
            buf = b""
            while len(buf) < 5_000_000:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
            status = buf.split(b"\r\n", 1)[0].decode("latin-1", "replace")
            return status, buf
    except OSError as e:
        return None, repr(e).encode()
