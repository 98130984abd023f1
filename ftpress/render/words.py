"""Counting in words a reader sees: "1 post", "2 posts", never "1 posts".

The words are the campaign's, shared with the rules that write event sentences
(:mod:`ftpress.state.words`); the renderer's modules take them from here.
"""

from __future__ import annotations

from ftpress.state.words import listed, place, plural, power_name

__all__ = ["listed", "place", "plural", "power_name"]
