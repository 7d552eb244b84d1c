"""Progress of long renders (images, TTS sheets, shop files), reported without any terminal.

The library only reports, as records of the `pnpforge.progress` logger; the command layer
(commands/_fontbar.py) draws them as a bar on a terminal's standard error.  Without a handler
(tests, library use) a report costs one `isEnabledFor` check.
"""

from __future__ import annotations

import logging

log = logging.getLogger("pnpforge.progress")


def report(task: str, done: int, total: int) -> None:
    """`done` of `total` steps of `task` are finished (call it with done == total at the end)."""
    if log.isEnabledFor(logging.INFO):
        log.info("%s %d/%d", task, done, total, extra={"task": task, "done": done, "total": total})
