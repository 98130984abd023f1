"""The characters XML 1.0 can hold, so that no output of ftpress is malformed XML.

XML 1.0 has no way to write most control characters, not even as a character
reference, nor U+FFFE, U+FFFF or a lone surrogate; ElementTree writes them as
they are and the feed, sitemap or SVG no longer parses. Free text is refused
with them before it gets here (:mod:`ftpress.text.cleantext`), so this is the
writers' own guarantee, not a message to a user: each such character becomes
U+FFFD, the replacement character.
"""

from __future__ import annotations

import re

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_chars(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text
