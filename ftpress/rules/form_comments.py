"""Comments of an order form (``Ruleset.order_form``), wrapped to be read in an
editor: a long list of worlds or ships goes on over indented comment lines."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

#: Characters a comment line may run to, its indentation in the file included.
WIDTH = 92


def wrapped(lines: Iterable[str], indent: int = 0) -> list[str]:
    """``lines`` of a form with each long ``# `` comment wrapped for a place ``indent``
    spaces in (the caller indents); YAML, and comments that show YAML (``#   …``),
    are left as they are."""
    out: list[str] = []
    for line in lines:
        if line.startswith("# ") and not line.startswith("#  ") and len(line) + indent > WIDTH:
            out.extend(textwrap.wrap(line[2:], WIDTH - indent, initial_indent="# ",
                                     subsequent_indent="#   ", break_long_words=False,
                                     break_on_hyphens=False))
        else:
            out.append(line)
    return out
