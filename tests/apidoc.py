"""The library API's reference (docs/api.md), generated from pnpforge.api's docstrings and signatures."""

from __future__ import annotations

import dataclasses
import inspect

from pnpforge import api

HEADER = """# pnpforge library API

Generated from the docstrings of `cli/pnpforge/api.py`; do not edit by hand:
`PNP_UPDATE_DOCS=1 pytest tests/test_api.py` regenerates it after a change.

"""


def _signature(obj: object, name: str) -> str:
    sig = str(inspect.signature(obj))  # type: ignore[arg-type]
    sig = sig.replace("(self, ", "(").replace("(self)", "()").replace("(cls, ", "(")
    return f"{name}{sig}"


def _doc(obj: object) -> str:
    return inspect.cleandoc(inspect.getdoc(obj) or "(undocumented)")


def _members(cls: type) -> list[str]:
    out = []
    for name, member in cls.__dict__.items():
        if name.startswith("_"):
            continue
        if isinstance(member, staticmethod | classmethod):
            func = member.__func__
        elif isinstance(member, property):
            out.append(f"#### `{cls.__name__}.{name}` (property)\n\n{_doc(member)}\n")
            continue
        elif inspect.isfunction(member):
            func = member
        else:
            continue
        out.append(f"#### `{cls.__name__}.{_signature(func, name)}`\n\n{_doc(func)}\n")
    return out


def reference() -> str:
    """The whole reference as Markdown: the module's docstring, then each public name in order."""
    parts = [HEADER, inspect.cleandoc(api.__doc__ or ""), "\n"]
    for name in api.__all__:
        obj = getattr(api, name)
        if inspect.isclass(obj) and obj.__module__ == api.__name__:
            kind = "dataclass" if dataclasses.is_dataclass(obj) else "class"
            parts.append(f"\n## `{name}` ({kind})\n\n{_doc(obj)}\n")
            if dataclasses.is_dataclass(obj):
                fields = ", ".join(f"`{f.name}`" for f in dataclasses.fields(obj))
                parts.append(f"\nFields: {fields}.\n")
            parts.append("\n" + "\n".join(_members(obj)))
        elif inspect.isclass(obj):
            parts.append(
                f"\n## `{name}`\n\n`{obj.__module__}.{obj.__qualname__}`: {_doc(obj).splitlines()[0]}\n"
            )
        elif callable(obj):
            parts.append(f"\n## `{_signature(obj, name)}`\n\n{_doc(obj)}\n")
        else:
            parts.append(f"\n## `{name}`\n\n`{obj!r}`\n")
    return "".join(parts).rstrip() + "\n"
