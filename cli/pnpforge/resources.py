"""Where templates come from: one resolver for card faces, backs, aids and summaries.

pnpforge ships its templates inside the package (the top-level `templates/`
folder is mapped to `pnpforge/templates` in the wheel), so a regular install
prints exactly what a checkout prints.  A project may keep its own
`templates/` folder beside its `cards.db`: any file there overrides the
shipped file of the same relative path, one file at a time, so a designer
restyles one layout without copying the rest.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from pnpforge.errors import PnpError


@lru_cache(maxsize=1)
def shipped_templates() -> Path:
    """The templates that come with pnpforge: inside the installed package, else the checkout's.

    An editable install (and a plain checkout on PYTHONPATH) has no copy in the
    package, so the top-level folder of the repository is used.
    """
    installed = Path(str(importlib.resources.files("pnpforge") / "templates"))
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parents[2] / "templates"


def _relative(rel: str | PurePosixPath) -> PurePosixPath:
    """A template path relative to a templates folder; one that climbs out of it is refused."""
    path = PurePosixPath(rel)
    if path.is_absolute() or ".." in path.parts:
        raise PnpError(f"template path '{rel}' leaves the templates folder")
    return path


@dataclass(frozen=True)
class TemplateRoots:
    """Template folders searched in order: a project's own first, the shipped ones last."""

    folders: tuple[Path, ...]

    def find(self, rel: str | PurePosixPath) -> Path:
        """The first existing file (or folder) at `rel`; else its place in the first folder."""
        path = _relative(rel)
        candidates = [folder / path for folder in self.folders]
        return next((c for c in candidates if c.exists()), candidates[0])

    def exists(self, rel: str | PurePosixPath) -> bool:
        return self.find(rel).exists()

    def files(self, rel_dir: str, pattern: str) -> list[Path]:
        """Files matching `pattern` in `rel_dir` across the folders, one per name (first wins), by name."""
        chosen: dict[str, Path] = {}
        for folder in self.folders:
            base = folder / _relative(rel_dir)
            if base.is_dir():
                for path in base.glob(pattern):
                    chosen.setdefault(path.name, path)
        return [chosen[name] for name in sorted(chosen)]

    def relative(self, path: Path) -> PurePosixPath | None:
        """`path` relative to whichever folder holds it (None when none does)."""
        resolved = path.resolve()
        for folder in self.folders:
            try:
                return PurePosixPath(resolved.relative_to(folder.resolve()).as_posix())
            except ValueError:
                continue
        return None

    def label(self, path: Path) -> str:
        """A short name for messages: 'templates/GAME/FILE' for any folder, else the full path."""
        rel = self.relative(path)
        return f"templates/{rel}" if rel is not None else str(path)


def template_roots(project: Path | Iterable[Path] | None = None) -> TemplateRoots:
    """The search order for a project's templates folder(s), the shipped templates last."""
    if project is None:
        given: list[Path] = []
    elif isinstance(project, Path):
        given = [project]
    else:
        given = [Path(p) for p in project]
    shipped = shipped_templates()
    folders: list[Path] = []
    for folder in [*given, shipped]:
        if all(folder.resolve() != f.resolve() for f in folders):
            folders.append(folder)
    return TemplateRoots(tuple(folders))


def project_templates(db_folder: Path) -> Path | None:
    """The project's own templates/ beside its database, when there is one."""
    local = db_folder / "templates"
    return local if local.is_dir() else None


def as_roots(root: Path | Sequence[Path] | TemplateRoots | None) -> TemplateRoots:
    """Accept what callers hold (a folder, folders, or roots) and give the search order."""
    if isinstance(root, TemplateRoots):
        return root
    return template_roots(root)
