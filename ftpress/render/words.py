"""Counting in words a reader sees: "1 post", "2 posts", never "1 posts"."""

from __future__ import annotations

#: Nouns whose plural is not the singular with an "s".
_IRREGULAR = {"dummy": "dummies", "hull box": "hull boxes"}


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and the noun in the number it takes: ``plural(1, "post")`` is
    "1 post", ``plural(3, "post")`` "3 posts", ``plural(0, "entry", "entries")``
    "0 entries". Thousands are grouped: "1,200 posts"."""
    word = noun if count == 1 else (many or _IRREGULAR.get(noun, noun + "s"))
    return f"{count:,} {word}"
