"""A turn's social preview: its map on a 1200×630 card, as PNG.

Sites that unfurl a shared link (Mastodon, Discord, Slack, the big social
networks) show a raster ``og:image`` and ignore an SVG one, so each turn's map is
also drawn as a PNG card: the campaign's name, the turn and its date on the left,
the map without its key on the right, at the 1.91:1 size ``summary_large_image``
cards are cropped to.

The card is rasterised by resvg (the ``resvg`` package: Rust, no system library) with
the fonts bundled in ``ftpress/fonts/`` and the machine's own fonts ignored, so the
same map gives the same PNG bytes on every machine, a clean CI runner with no
fonts at all included. The fonts hold the Latin scripts only: a letter outside them
(a world named in Cyrillic, say) is left out of the card, never of the page's own SVG.
"""

from __future__ import annotations

import base64
import functools
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import resvg
from resvg import usvg

from ftpress.state.words import long_date

if TYPE_CHECKING:
    from ftpress.render.pages import Renderer

#: The card's file name, beside the turn's ``map.svg``.
PREVIEW = "preview.png"
#: The card's size in pixels: what ``summary_large_image`` shows uncropped.
WIDTH, HEIGHT = 1200, 630
_SVG = "http://www.w3.org/2000/svg"
_BACKGROUND = "#0b1222"
_INK = "#f4f1e8"
_MUTED = "#aab4c8"
_FAMILY = "DejaVu Sans"
#: The map's box on the card: the right part, with a margin.
_MAP_BOX = (500.0, 24.0, 676.0, 582.0)
#: DejaVu Sans, regular and bold, cut to the Latin scripts (see ``fonts/LICENSE``).
_FONTS = [str(Path(__file__).resolve().parent.parent / "fonts" / name)
          for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")]

ET.register_namespace("", _SVG)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")


@dataclass(frozen=True, slots=True)
class Card:
    """What a turn's card says beside its map."""

    campaign: str
    turn: str
    day: str


@dataclass(frozen=True, slots=True)
class Preview:
    """A turn page's ``og:image``: where its card is (an absolute URL, as Open Graph
    wants) and its size."""

    url: str
    width: int = WIDTH
    height: int = HEIGHT


def preview_pngs(r: Renderer, maps: Sequence[str],
                 cards: Sequence[tuple[str, str, date]]) -> list[bytes]:
    """The PNG card of each map in ``maps`` (SVG documents) with its ``cards`` entry
    (campaign name, turn title, day).

    Drawing one takes resvg about a tenth of a second, ten times the map's own
    SVG, so each is cached between builds under its map's text and its words (and
    ftpress's code version, fonts included): a build re-rasterises only the cards whose
    map or words changed, on every core the build has.
    """
    made = [Card(name, title, long_date(day)) for name, title, day in cards]
    encoded = r.memo_many([f"preview {svg}\0{card!r}" for svg, card in zip(maps, made,
                                                                          strict=True)],
                          lambda i: base64.b64encode(card_png(maps[i], made[i])).decode())
    return [base64.b64decode(text) for text in encoded]


def card_svg(map_svg: str, card: Card) -> str:
    """The card as an SVG document: ``card``'s words, then the map (a document as
    :func:`ftpress.maps.starmap.render_svg` or ``render_plane`` writes it) without its
    key, scaled to fit its box."""
    root = ET.fromstring(map_svg)
    x, y, w, h = (float(v) for v in root.attrib["viewBox"].split())
    for group in root.findall(f"{{{_SVG}}}g"):
        if group.get("class") == "legend":
            # The key's panel is its first rect; the map proper ends above it.
            panel = group.find(f"{{{_SVG}}}rect")
            if panel is not None:
                h = float(panel.attrib["y"]) - y
            root.remove(group)
    bx, by, bw, bh = _MAP_BOX
    for name in ("style", "class", "id", "role"):
        root.attrib.pop(name, None)
    root.attrib.update({"x": str(bx), "y": str(by), "width": str(bw), "height": str(bh),
                        "viewBox": f"{x} {y} {w} {h}", "preserveAspectRatio": "xMidYMid meet"})
    drawn = ET.tostring(root, encoding="unicode")
    return (f'<svg xmlns="{_SVG}" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{_FAMILY}">'
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{_BACKGROUND}"/>'
            f"{_words(card)}{drawn}</svg>")


def _words(card: Card) -> str:
    """The campaign's name, the turn and its date, left of the map, each wrapped to
    the 440 pixels there are (DejaVu Sans averages about 0.6 em a letter)."""
    parts = []
    baseline = 110.0
    for words, size, fill, bold in ((card.campaign, 36, _MUTED, False),
                                    (card.turn, 72 if len(card.turn) <= 9 else 44, _INK, True),
                                    (card.day, 30, _MUTED, False)):
        per_line = int(440 / (size * (0.68 if bold else 0.6)))
        for line in textwrap.wrap(words, per_line, max_lines=3, placeholder="…"):
            baseline += size * 1.25
            parts.append(_text(line, 60, baseline, size, fill, bold=bold))
        baseline += size * 0.5
    return "".join(parts)


def _text(words: str, x: float, y: float, size: int, fill: str, *, bold: bool) -> str:
    element = ET.Element("text", {"x": str(x), "y": str(y), "font-size": str(size),
                                  "fill": fill, "font-weight": "bold" if bold else "normal"})
    element.text = words
    return ET.tostring(element, encoding="unicode")


#: The card drawn as it stands: no scaling, no shift.
_AS_IS = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)


@functools.cache
def _options() -> usvg.Options:
    """How resvg reads a card: the bundled fonts alone (it loads none of the machine's
    unless asked), DejaVu Sans for any text that names no family. Made once a process:
    loading the fonts is the same work for every card."""
    options = usvg.Options.default()
    for path in _FONTS:
        options.load_font_file(path)
    options.font_family = _FAMILY
    return options


def card_png(map_svg: str, card: Card) -> bytes:
    """The card as PNG bytes, :data:`WIDTH` × :data:`HEIGHT`."""
    tree = usvg.Tree.from_str(card_svg(map_svg, card), _options())
    return resvg.render(tree, _AS_IS, bg_size=(WIDTH, HEIGHT))
