"""A shared turn page unfurls with a picture: each turn's map as a 1200×630 PNG card
(``ftpress.render.preview``), named by ``og:image`` with its size, drawn with the
bundled fonts, and drawn again only when its map or its words change."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest
from demos import FTC2007, SCT

from ftpress.cli import main
from ftpress.render import preview
from ftpress.render.preview import Card, card_png
from ftpress.speed import executor
from ftpress.speed.executor import SERIAL


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG whose every chunk is whole and checks out."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, kinds = 8, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + body) == crc, kind
        kinds.append(kind)
        at += 12 + length
    assert (kinds[0], kinds[-1], at) == (b"IHDR", b"IEND", len(data))
    assert b"IDAT" in kinds
    head = data[16:24]
    return struct.unpack(">II", head)


@pytest.fixture(scope="module")
def sct_site(tmp_path_factory) -> Path:
    return SCT.build_once(tmp_path_factory, "sct")


@pytest.mark.parametrize("demo", ["ftc2007", "sct"])
def test_every_turn_page_names_its_png_card_with_an_absolute_url_and_its_size(
        demo, demo_site, sct_site):
    site, turns = (demo_site, FTC2007.turns) if demo == "ftc2007" else (sct_site, SCT.turns)
    base = FTC2007.base_url if demo == "ftc2007" else SCT.base_url
    for turn in ["t000", *turns]:
        png = site / "turns" / turn / "preview.png"
        assert png_size(png.read_bytes()) == (1200, 630), turn
        html = (site / "turns" / turn / "index.html").read_text(encoding="utf-8")
        assert (f'<meta property="og:image" content="{base}turns/{turn}/preview.png">\n'
                '<meta property="og:image:type" content="image/png">\n'
                '<meta property="og:image:width" content="1200">\n'
                '<meta property="og:image:height" content="630">\n') in html
        assert '<meta name="twitter:card" content="summary_large_image">' in html
        assert (site / "turns" / turn / "map.svg").is_file()  # the page's own map stays SVG


def test_the_alt_text_says_which_turn_the_map_shows(demo_site):
    html = (demo_site / "turns/t005/index.html").read_text(encoding="utf-8")
    assert re.search(r'<meta property="og:image:alt" content="The map after Turn 5">', html)
    setup = (demo_site / "turns/t000/index.html").read_text(encoding="utf-8")
    assert '<meta property="og:image:alt" content="The map after setup: the starting position">' \
        in setup


def test_the_card_drops_the_map_s_key(demo_site):
    svg = (demo_site / "turns/t005/map.svg").read_text(encoding="utf-8")
    card = preview.card_svg(svg, Card("The Tannhauser Reach", "Turn 5", "13 April 2026"))
    assert 'class="legend"' in svg
    assert 'class="legend"' not in card
    assert card.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"')
    assert ">The Tannhauser Reach</text>" in card and ">Turn 5</text>" in card


def test_the_words_are_drawn_with_the_bundled_fonts_whatever_the_machine_has(demo_site):
    # System fonts are never consulted, so words that drew nothing would leave the
    # card exactly as blank as one with no words at all.
    svg = (demo_site / "turns/t001/map.svg").read_text(encoding="utf-8")
    blank = card_png(svg, Card("", "", ""))
    worded = card_png(svg, Card("The Reach", "Turn 1", "16 March 2026"))
    assert png_size(worded) == (1200, 630)
    assert worded != blank
    # ...and a world's name on the map is drawn too: renaming one changes the picture.
    renamed = svg.replace(">Vesper<", ">Vesperine<")
    assert renamed != svg
    assert card_png(renamed, Card("", "", "")) != blank


def test_a_card_is_drawn_again_only_when_its_map_or_its_words_change(tmp_path, monkeypatch,
                                                                     capsys):
    root = FTC2007.copy(tmp_path / "demo")
    drawn: list[str] = []
    real = preview.card_png
    monkeypatch.setattr(preview, "card_png",
                        lambda svg, card: (drawn.append(card.turn), real(svg, card))[1])
    # In this process, so every card drawn is counted here.
    monkeypatch.setattr(executor, "ForkExecutor", lambda: SERIAL)

    def build() -> bytes:
        assert main(["build", "--source", str(root), "--out", str(root / "_site"),
                     "--now", FTC2007.now]) == 0
        capsys.readouterr()
        return (root / "_site/turns/t009/preview.png").read_bytes()

    first = build()
    assert len(drawn) == len(FTC2007.turns) + 1
    post = next((root / "content/posts").rglob("*.md"))
    post.write_text(post.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    drawn.clear()
    assert build() == first
    assert drawn == []  # a post changed, no map did
    world = root / "state/turns/t009/map.yaml"
    world.write_text(world.read_text(encoding="utf-8").replace("name: Vesper\n",
                                                               "name: Vesperine\n"),
                     encoding="utf-8")
    drawn.clear()
    assert build() != first
    assert drawn == ["Turn 9"]


def test_the_front_page_shares_the_latest_turn_s_card(demo_site):
    latest = FTC2007.turns[-1]
    home = (demo_site / "index.html").read_text(encoding="utf-8")
    assert (f'<meta property="og:image" content="{FTC2007.base_url}turns/{latest}/preview.png">'
            '\n<meta property="og:image:type" content="image/png">') in home
    assert '<meta name="twitter:card" content="summary_large_image">' in home
    # Only the front page leads with the turn: a second page of posts shares no card.
    assert "og:image" not in (demo_site / "page/2/index.html").read_text(encoding="utf-8")
