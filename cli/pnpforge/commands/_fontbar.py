"""Progress bars on stderr: fonts being converted (first run, or new characters), and long
renders (images, TTS sheets, shop files; pnpforge.progress).

The render layer only reports, as records of the `pnpforge.fonts` logger
(render.fonts.progress_log); this is where they reach the terminal.  The user
is told once per process what is happening and where the result is cached;
after that each conversion step only moves the bar.
"""

from __future__ import annotations

import logging
import sys

_WIDTH = 30
_LOGGER = "pnpforge.fonts"


class _FontBar(logging.Handler):
    """Draws `font glyphs [#####-----] done/total` on stderr, rewriting one line on a terminal."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.told = False

    def emit(self, record: logging.LogRecord) -> None:
        font, done, total = (getattr(record, key, None) for key in ("font", "done", "total"))
        if not isinstance(done, int) or not isinstance(total, int):
            return
        err = sys.stderr
        if not self.told:
            err.write("Preparing fonts (first use only; converted glyphs are cached)\n")
            self.told = True
        if total == 0:
            err.write(f"  {font}: metrics\n")
        elif err.isatty():
            filled = _WIDTH * done // total
            end = "\n" if done == total else ""
            err.write(f"\r  {font} glyphs [{'#' * filled}{'-' * (_WIDTH - filled)}] {done}/{total}{end}")
        err.flush()


class _WorkBar(logging.Handler):
    """Draws `task [#####-----] done/total` for pnpforge.progress reports, on a terminal only."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)

    def emit(self, record: logging.LogRecord) -> None:
        task, done, total = (getattr(record, key, None) for key in ("task", "done", "total"))
        err = sys.stderr
        if not isinstance(done, int) or not isinstance(total, int) or total <= 0 or not err.isatty():
            return
        filled = _WIDTH * done // total
        end = "\n" if done >= total else ""
        err.write(f"\r  {task} [{'#' * filled}{'-' * (_WIDTH - filled)}] {done}/{total}{end}")
        err.flush()


def install() -> None:
    """Send font conversion and render progress to stderr for this process (once, however often)."""
    for name, kind in ((_LOGGER, _FontBar), ("pnpforge.progress", _WorkBar)):
        log = logging.getLogger(name)
        if not any(isinstance(h, kind) for h in log.handlers):
            log.addHandler(kind())
            log.setLevel(logging.INFO)
            log.propagate = False
