"""The shape of pnpforge's imports: package-level cycles and function-local imports.

Run:  python bench/import_graph.py [--list PREFIX]

Prints the cycles among pnpforge's top-level packages and modules (each engine
package of rules/games counts as its own node), found with grimp (import-linter's
graph library) over every import, module-level or inside a function; then how many
imports sit inside functions, per package.  `lint-imports` checks the layering
contract itself; this shows what the contract does not list (a cycle among siblings).
"""

from __future__ import annotations

import argparse
import ast
import collections
from pathlib import Path

import grimp

PACKAGE = Path(__file__).resolve().parents[1] / "cli" / "pnpforge"


def node(module: str) -> str:
    """The top-level package or module `module` belongs to (engines one each)."""
    parts = module.split(".")
    if parts[1:3] == ["rules", "games"] and len(parts) > 3:
        return ".".join(parts[:4])
    return ".".join(parts[:2])


def cycles() -> list[tuple[list[str], list[tuple[str, str]]]]:
    """Strongly connected groups of more than one node, each with its edges."""
    graph = grimp.build_graph("pnpforge")
    edges: dict[str, set[str]] = collections.defaultdict(set)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = node(module), node(imported)
            if a != b:
                edges[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            groups.append(sorted(group))

    for v in sorted({n for e in edges.items() for n in (e[0], *e[1])}):
        if v not in index:
            visit(v)
    return [(g, [(a, b) for a in g for b in sorted(edges[a]) if b in g]) for g in groups if len(g) > 1]


def local_imports() -> list[tuple[str, int, str]]:
    """(file, line, module) of every import statement inside a function."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        seen: dict[int, ast.stmt] = {}
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for stmt in ast.walk(fn):
                    if isinstance(stmt, ast.Import | ast.ImportFrom):
                        seen[id(stmt)] = stmt
        for stmt in seen.values():
            module = stmt.module if isinstance(stmt, ast.ImportFrom) else stmt.names[0].name
            found.append((path.relative_to(PACKAGE).as_posix(), stmt.lineno, module or ""))
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--list", metavar="PREFIX", help="List the local imports of files under PREFIX.")
    args = parser.parse_args()
    found = cycles()
    print(f"package-level cycles: {len(found)}")
    for group, edges in found:
        print("  " + " <-> ".join(n.removeprefix("pnpforge.") for n in group))
        for a, b in edges:
            print(f"      {a.removeprefix('pnpforge.')} -> {b.removeprefix('pnpforge.')}")
    local = local_imports()
    per = collections.Counter(f.split("/")[0] if "/" in f else f for f, _, _ in local)
    print(f"function-local imports: {len(local)}")
    for where, count in per.most_common():
        print(f"  {where}: {count}")
    if args.list:
        for f, line, module in local:
            if f.startswith(args.list):
                print(f"  {f}:{line}  {module}")


if __name__ == "__main__":
    main()
