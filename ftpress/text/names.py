"""Names for the worlds of a new map, in an order fixed by the map's seed.

Names are not dice: the order is a keyed hash of each name, so the same seed
always names the same worlds the same way without a die being rolled.
"""

from __future__ import annotations

import hashlib
import hmac

WORLD_NAMES = (
    "Aldebaran Reach", "Amberly", "Anvil", "Argent", "Ashgrove", "Avalon Deep", "Barrowmere",
    "Beacon", "Blackwater", "Bramble", "Brightwell", "Calder", "Candlemas", "Carrow",
    "Castellan", "Cedar Point", "Cinnabar", "Coldharbour", "Copperhead", "Crane", "Dunmore",
    "Dusk", "Elder", "Embers", "Fairhaven", "Farthing", "Fenwick", "Firth", "Flint",
    "Foxglove", "Galloway", "Garnet", "Gloaming", "Goldcrest", "Gorse", "Grayling",
    "Hallam", "Harrowgate", "Hawthorn", "Hearth", "Heron", "Highfold", "Holloway",
    "Ironside", "Ivory", "Jasper", "Juniper", "Keel", "Kestrel", "Kingfisher", "Lantern",
    "Larkspur", "Ledger", "Linden", "Lodestar", "Longreach", "Lowmoor", "Madder",
    "Mallory", "Marlin", "Millstone", "Moorhen", "Morrow", "Nettle",
    "Northgate", "Oakhaven", "Obsidian", "Ochre", "Osprey", "Pale Harbour", "Pennant",
    "Peregrine", "Pilgrim", "Quarry", "Quill", "Ravel", "Redmarch", "Rook", "Rowan",
    "Saltire", "Sandpiper", "Selkie", "Shale", "Shingle", "Skerry", "Sorrel", "Spindle",
    "Starling", "Stonechat", "Tamarisk", "Tarn", "Teasel", "Thistle", "Thorne", "Tinder",
    "Torrent", "Umber", "Vellum", "Verdigris", "Vigil", "Wayfarer", "Weald", "Wharf",
    "Whin", "Wicker", "Willet", "Winterbourne", "Wren", "Yarrow", "Yew", "Zephyr",
)


def world_names(seed: int | str, count: int) -> tuple[str, ...]:
    """``count`` distinct names for a map rolled with ``seed``; past the end of
    the list, names repeat with a numeral ('Wren II')."""
    key = f"ftpress world names {seed}".encode()
    order = sorted(WORLD_NAMES, key=lambda n: hmac.new(key, n.encode(), hashlib.sha256).digest())
    names = []
    for i in range(count):
        lap = i // len(order)
        names.append(order[i % len(order)] + (f" {_roman(lap + 1)}" if lap else ""))
    return tuple(names)


def _roman(n: int) -> str:
    out = ""
    for value, numeral in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + numeral, n - value
    return out
