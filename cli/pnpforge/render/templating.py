"""The one factory for Jinja2 environments: card faces, layout checks, summaries and aids.

Every template pnpforge runs comes from a designer's files, so each runs
sandboxed, with the same whitespace rules (`trim_blocks`, `lstrip_blocks`)
whether it draws a card region or writes a summary line; callers differ only
in what they add (a finalize that prints values as cards show them, a file
loader with strict undefined names for documents).  The code Jinja generates
is compiled once per machine, not once per run (render.code_cache).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def sandboxed_environment(
    *,
    finalize: Callable[[Any], str] | None = None,
    folders: Sequence[Path] | None = None,
    strict: bool = False,
    keep_trailing_newline: bool = False,
) -> Any:
    """A new sandboxed environment.

    `folders` loads templates by name from those folders, first match wins (the
    project's templates before the shipped ones); `strict` makes an undefined
    name an error instead of an empty string, which documents want and card
    regions (whose optional fields may be absent) do not.
    """
    from jinja2 import FileSystemLoader, StrictUndefined, Undefined
    from jinja2.sandbox import SandboxedEnvironment

    options: dict[str, Any] = {
        "autoescape": False,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": keep_trailing_newline,
        "undefined": StrictUndefined if strict else Undefined,
    }
    if finalize is not None:
        options["finalize"] = finalize
    if folders is not None:
        options["loader"] = FileSystemLoader([str(p) for p in folders])
    return _sandbox_class(SandboxedEnvironment)(**options)


_SANDBOX: Any = None


def _sandbox_class(base: Any) -> Any:
    """SandboxedEnvironment whose compiled template code is cached on disk (render.code_cache)."""
    global _SANDBOX
    if _SANDBOX is None:
        from pnpforge.render.code_cache import compile_cached

        class CachedSandbox(base):
            def _compile(self, source: str, filename: str) -> Any:
                return compile_cached(source, filename)

        _SANDBOX = CachedSandbox
    return _SANDBOX
