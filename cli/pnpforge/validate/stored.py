"""The outputs' guard: a selection is drawn only when every card in it obeys its card type.

`card_from_row` refuses a row in a shape pnpforge never writes, but a row of the
right shape can still hold a value no write path lets through ('abc' in an
integer field, written with another tool).  `pnp validate` reports such a card;
every reader that draws or counts for a document calls `refuse_invalid` on its
selection before it opens a file, so the card is named instead of being drawn.
"""

from __future__ import annotations

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.query.select import Selection, iter_as_stored
from pnpforge.store import repo
from pnpforge.validate.fields import validate_card
from pnpforge.validate.problem import ERROR


def refuse_invalid(db: sqlite_utils.Database, sel: Selection) -> Selection:
    """`sel` itself, or PnpError naming the first selected card that breaks its type's card-level rules.

    The rows are read leniently (a shape pnpforge never writes is reported here,
    not raised mid-read) and checked by the validator every write path uses.
    """
    types = {t.slug: t for t in repo.card_types(db, sel.game)}
    for card in iter_as_stored(db, sel):
        errors = [p for p in validate_card(card, types.get(card.type), types) if p.severity == ERROR]
        if errors:
            first = errors[0]
            shown = card.id if isinstance(card.id, str) and card.id.isprintable() else repr(card.id)
            field = f", field '{first.field}'" if first.field else ""
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise PnpError(
                f"card {sel.game}/{shown}{field}: {first.message}{more}: a value pnpforge never writes "
                f"(changed with another tool?); nothing was drawn; 'pnp validate {sel.game}' lists "
                f"every problem, 'pnp cards set {sel.game} {shown} FIELD=VALUE' fixes one"
            )
    return sel
