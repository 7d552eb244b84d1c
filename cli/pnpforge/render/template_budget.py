"""A time and size budget for every Jinja template pnpforge runs (faces, layouts, summaries, aids).

The sandbox stops a template from reaching Python's internals, not from
running for ever or filling memory: `('a'*10**6)*10**4` asks for ten billion
characters in one C call, and three nested loops over one range never call
anything the sandbox sees.  So the budget works at two mechanisms:

- size: `*`, `**` and `~`-style growth go through the sandbox's binary-operator
  hook (`call_binop`), which refuses a string, list or number result larger
  than MAX_RESULT before it is made;
- time: while a template renders, its thread is registered with one watchdog
  thread that raises TemplateBudgetExceeded inside it once the render has run
  longer than PNP_TEMPLATE_SECONDS (default 10 s).  Generated template code is
  plain Python, so the exception lands at the next bytecode of the loop.

Either way the render stops with one line naming the template; nothing is
written (writers stage their output and rename it only when complete).
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from pnpforge.errors import PnpError

MAX_RESULT = 2_000_000  # characters of one string (or items of one list) a template may build
MAX_EXPONENT_BITS = 4_096  # bits of a number `**` may produce
MAX_OUTPUT = 8_000_000  # characters one render may write
_TICK = 0.05  # how often the watchdog looks
_LINGER = 1.0  # how long the watchdog waits for the next render before it ends

T = TypeVar("T")


class TemplateBudgetExceeded(PnpError):
    """A template ran past its time budget or built a value past its size budget."""


def seconds() -> float:
    """The time budget of one render ($PNP_TEMPLATE_SECONDS, default 10)."""
    try:
        value = float(os.environ.get("PNP_TEMPLATE_SECONDS", "10"))
    except ValueError:
        return 10.0
    return value if value > 0 and value == value else 10.0


class _Overdue(BaseException):
    """Raised asynchronously in a render that ran out of time; turned into the PnpError by
    `within_budget` (a BaseException, so no `except Exception` in a filter swallows it)."""


class _Watchdog:
    """One thread that raises _Overdue in every render thread past its deadline."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.deadlines: dict[int, float] = {}  # thread id → monotonic deadline
        self.running = False

    def watch(self, thread_id: int, deadline: float) -> None:
        with self.lock:
            self.deadlines[thread_id] = deadline
            if not self.running:
                self.running = True
                threading.Thread(target=self._run, name="pnp-template-budget", daemon=True).start()

    def release(self, thread_id: int) -> None:
        with self.lock:
            self.deadlines.pop(thread_id, None)

    def _run(self) -> None:
        """Look every tick while any render runs; end after _LINGER seconds with none (the
        next render restarts it).  Lingering keeps a print of many short renders from
        starting a thread for each burst of them."""
        idle_since: float | None = None
        while True:
            time.sleep(_TICK)
            now = time.monotonic()
            with self.lock:
                for thread_id, deadline in list(self.deadlines.items()):
                    if now >= deadline:
                        del self.deadlines[thread_id]  # once: never a second, late exception
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(
                            ctypes.c_ulong(thread_id), ctypes.py_object(_Overdue)
                        )
                if self.deadlines:
                    idle_since = None
                elif idle_since is None:
                    idle_since = now
                elif now - idle_since >= _LINGER:
                    self.running = False
                    return


_WATCHDOG = _Watchdog()
_depth = threading.local()


@contextmanager
def within_budget(template: str) -> Iterator[None]:
    """Run a render under the time budget (nested renders share the outermost one's)."""
    if getattr(_depth, "value", 0):
        _depth.value += 1
        try:
            yield
        finally:
            _depth.value -= 1
        return
    budget = seconds()
    thread_id = threading.get_ident()
    _depth.value = 1
    try:
        try:
            _WATCHDOG.watch(thread_id, time.monotonic() + budget)
            try:
                yield
            finally:
                _WATCHDOG.release(thread_id)
        finally:
            _depth.value = 0
    except _Overdue:
        raise TemplateBudgetExceeded(
            f"template {template} ran longer than {budget:g} s and was stopped "
            f"(PNP_TEMPLATE_SECONDS raises the budget)"
        ) from None


def rendered(template: str, render: Callable[[], T]) -> T:
    """`render()` within the budget."""
    with within_budget(template):
        return render()


_FORMAT_WIDTHS = re.compile(r"%(?:\([^)]*\))?[-#0 +]*([0-9]+)?(?:\.([0-9]+))?")


def counted(template: str, pieces: Iterator[str]) -> Iterator[str]:
    """The pieces a render writes, stopped once they pass MAX_OUTPUT characters."""
    total = 0
    for piece in pieces:
        total += len(piece)
        if total > MAX_OUTPUT:
            raise TemplateBudgetExceeded(
                f"template {template} wrote more than {MAX_OUTPUT:,} characters and was stopped"
            )
        yield piece


def _size(value: Any) -> int:
    return len(value) if isinstance(value, str | bytes | list | tuple) else 0


def checked_binop(operator: str, left: Any, right: Any, template: str) -> None:
    """Refuse a `*` or `**` whose result would be past the size budget, before it is made."""
    if operator == "*":
        for seq, count in ((left, right), (right, left)):
            if _size(seq) and isinstance(count, int) and _size(seq) * max(count, 0) > MAX_RESULT:
                raise TemplateBudgetExceeded(
                    f"template {template}: a value of {_size(seq):,} × {count:,} would pass the "
                    f"budget of {MAX_RESULT:,} characters or items and was refused"
                )
    elif operator == "%" and isinstance(left, str):
        for width in _FORMAT_WIDTHS.findall(left):
            if any(part and int(part[:12]) > MAX_RESULT for part in width):
                raise TemplateBudgetExceeded(
                    f"template {template}: a format width past the budget of {MAX_RESULT:,} "
                    f"characters was refused"
                )
    elif operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0:
        if abs(left) > 1 and right * max(abs(left).bit_length(), 1) > MAX_EXPONENT_BITS:
            raise TemplateBudgetExceeded(
                f"template {template}: {left} ** {right} would pass the budget of "
                f"{MAX_EXPONENT_BITS:,} bits and was refused"
            )
