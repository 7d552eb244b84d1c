"""The card search language: `pnp cards search [GAME] QUERY` and composition rules.

    type:obligor difficulty>=8 -traits:大戶
    (name:稅 or text:查封) copies>1 is:provisional

Terms are `field OP value` (OP one of : = != < <= > >=), bare words and
"quoted phrases" (matched against name, English name and rules text), `-` to
negate, `or`, optional `and`, and parentheses.  AND binds tighter than OR, as
on Scryfall: `a or b c` means `a or (b and c)`.  Built-in keys: name, name_en,
text, flavor, notes, source, id, type, game, copies, provenance,
is:provisional, is:<yes/no field>, has:<field>.  Any other key is one of the
game's fields, by name or by its label (難度).  See compile.py for per-type meaning.
"""

from pnpforge.query.compile import compile_query
from pnpforge.query.lexer import QueryError
from pnpforge.query.parser import And, Not, Or, Query, Term, parse
from pnpforge.query.search import count_copies, field_defs_of, search, type_aliases_of

__all__ = [
    "And",
    "Not",
    "Or",
    "Query",
    "QueryError",
    "Term",
    "compile_query",
    "count_copies",
    "field_defs_of",
    "parse",
    "search",
    "type_aliases_of",
]
