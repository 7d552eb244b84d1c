"""The one factory for Jinja2 environments: card faces, layout checks, summaries and aids.

Every template pnpforge runs comes from a designer's files, so each runs
sandboxed, with the same whitespace rules (`trim_blocks`, `lstrip_blocks`)
whether it draws a card region or writes a summary line; callers differ only
in what they add (a finalize that prints values as cards show them, a file
loader with strict undefined names for documents).  The code Jinja generates
is compiled once per machine, not once per run: Jinja's bytecode cache over the
verified disk cache (render.code_cache).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined, Template, TemplateNotFound, Undefined, nodes
from jinja2.environment import TemplateExpression
from jinja2.exceptions import TemplateSyntaxError
from jinja2.parser import Parser
from jinja2.sandbox import SandboxedEnvironment

from pnpforge.render import template_budget
from pnpforge.render.code_cache import TemplateBytecode, cached_code


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
        options["loader"] = _confined_loader(FileSystemLoader)([str(p) for p in folders])
    return _sandbox_class(SandboxedEnvironment)(**options)


def _confined_loader(base: Any) -> Any:
    """A FileSystemLoader that loads (and so includes) only files whose real path lies inside
    one of its folders: a symbolic link out of templates/ is refused like a missing file."""

    class ConfinedLoader(base):
        def get_source(self, environment: Any, template: str) -> Any:
            source, filename, uptodate = super().get_source(environment, template)
            real = Path(filename).resolve()
            roots = [Path(p).resolve() for p in self.searchpath]
            if not any(real == root or root in real.parents for root in roots):
                raise TemplateNotFound(f"{template} (a link out of the templates folder: {real})")
            return source, filename, uptodate

    return ConfinedLoader


_SANDBOX: Any = None


def _sandbox_class(base: Any) -> Any:
    """SandboxedEnvironment whose compiled template code is kept in Jinja's bytecode cache,
    on disk (render.code_cache.TemplateBytecode)."""
    global _SANDBOX
    if _SANDBOX is None:

        class BudgetTemplate(Template):
            """A template whose render runs within its time and output budget (template_budget)."""

            def render(self, *args: Any, **kwargs: Any) -> str:
                named = self.filename if self.filename and not self.filename.startswith("<") else None
                label = named or self.name or "(inline)"
                ctx = self.new_context(dict(*args, **kwargs))
                try:
                    with template_budget.within_budget(label):
                        return self.environment.concat(
                            template_budget.counted(label, self.root_render_func(ctx))
                        )
                except template_budget.TemplateBudgetExceeded:
                    raise
                except Exception:
                    self.environment.handle_exception()

        class CachedSandbox(base):
            template_class = BudgetTemplate
            intercepted_binops = frozenset({"*", "**", "%"})

            def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
                """The sandbox's binary operators, refused past the size budget before they run."""
                template_budget.checked_binop(operator, left, right, context.name or "(inline)")
                return super().call_binop(context, operator, left, right)

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self.bytecode_cache = TemplateBytecode()  # templates loaded by name use it too

            def from_string(self, source: Any, globals: Any = None, template_class: Any = None) -> Any:
                """Jinja's from_string, its code read from the bytecode cache when this text
                was compiled before (syntax errors are never cached: they raise each time)."""
                if not isinstance(source, str):
                    return super().from_string(source, globals, template_class)
                code = cached_code(self, source, "<string>", lambda: self.compile(source))
                cls = template_class or self.template_class
                return cls.from_code(self, code, self.make_globals(globals), None)

            def compile_expression(self, source: str, undefined_to_none: bool = True) -> Any:
                """Jinja's compile_expression, its code cached like a template's (a warm run
                neither parses nor generates an expression); a syntax error is raised by
                Jinja's own method, so it reads as it always did."""
                if not isinstance(source, str):
                    return super().compile_expression(source, undefined_to_none)
                try:
                    code = cached_code(self, source, "<expression>", lambda: self._expression_code(source))
                except TemplateSyntaxError:
                    return super().compile_expression(source, undefined_to_none)
                template = self.template_class.from_code(self, code, self.make_globals(None), None)
                return TemplateExpression(template, undefined_to_none)

            def _expression_code(self, source: str) -> Any:
                """The code object compile_expression builds for `source` (its own steps)."""
                parser = Parser(self, source, state="variable")
                expr = parser.parse_expression()
                if not parser.stream.eos:
                    raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno)
                expr.set_environment(self)
                body = [nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)]
                return self.compile(nodes.Template(body, lineno=1))

        _SANDBOX = CachedSandbox
    return _SANDBOX
