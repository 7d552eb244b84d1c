"""Chinese line breaking for reportlab's platypus, as the rulebook summaries need it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def kinsoku() -> Iterator[None]:
    """Chinese line-breaking rules for platypus while one summary is set.

    reportlab's CJK wrapping keeps a line from starting with some closing
    punctuation, but its list lacks the full-width ，；：！？ that Chinese text is
    full of.  We extend it with render.text's NO_START (the rules the cards use)
    for the duration of the build and put the original back afterwards.
    """
    from reportlab.lib import textsplit
    from reportlab.platypus import paragraph

    from pnpforge.render.text_atoms import NO_START

    originals = (paragraph.ALL_CANNOT_START, textsplit.ALL_CANNOT_START)
    extended = originals[1] + "".join(sorted(set(NO_START) - set(originals[1])))
    # platypus reads its own copy for multi-run paragraphs, textsplit's for single runs
    paragraph.ALL_CANNOT_START = textsplit.ALL_CANNOT_START = extended
    try:
        yield
    finally:
        paragraph.ALL_CANNOT_START, textsplit.ALL_CANNOT_START = originals
