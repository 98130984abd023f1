"""Characters that look like the letters of an id but are not them.

An id is written in ``a-z``, ``0-9`` and hyphens. Text pasted from elsewhere
brings characters that look the same and compare different: a Cyrillic ``а``
in ``nаc-1``, a full-width ``ｎ``, a non-breaking hyphen. :func:`why_not_an_id`
names each such character by its Unicode name and, where the id's look-alike is
clear, says which id was meant: the text is normalised (NFKC, which folds the
full-width and compatibility forms), lowercased, and the letters of other
scripts that look like Latin ones are read as those.
"""

from __future__ import annotations

import re
import unicodedata

#: Letters of other scripts drawn as a Latin letter, by the letter they look like.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "ӏ": "l",
    # Greek
    "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x",
    # Dashes that look like the hyphen
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-",
})
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_ID_CHAR = re.compile(r"[a-z0-9-]")


def meant_id(value: str) -> str | None:
    """The id ``value`` looks like (NFKC-normalised, lowercased, look-alike letters read
    as Latin ones), if that is an id and differs from ``value``; else None."""
    guess = unicodedata.normalize("NFKC", value).lower().translate(_LOOKALIKES)
    guess = unicodedata.normalize("NFKC", guess)
    return guess if guess != value and _ID.fullmatch(guess) else None


def why_not_an_id(value: str) -> str | None:
    """What keeps ``value`` from being an id, naming its first stray character by its
    code point and Unicode name ("has U+0430 CYRILLIC SMALL LETTER A where an id takes
    a-z"); None where every character is one an id takes (its shape is then what is
    wrong). :func:`meant_id` says which id it looks like."""
    stray = next((c for c in value if not _ID_CHAR.fullmatch(c)), None)
    if stray is None:
        return None
    name = unicodedata.name(stray, "an unnamed character")
    takes = "a-z" if stray.isalpha() else "a-z, 0-9 and '-'"
    return f"{value!r} has U+{ord(stray):04X} {name} where an id takes {takes}"
