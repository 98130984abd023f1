"""The sct ship catalogue against seed 001's ship statistics table, and the
table against its own halving rule."""

from __future__ import annotations

import pytest

from ftpress.rules.abstract_combat import halved, quartered
from ftpress.rules.sct.catalogue import CATALOGUE_FILE, catalogue

#: Seed 001's table as printed: name, class, OV, DV, (half), [quarter], fighter groups,
#: in the seed's order (NAC, NSL, FSE, ESU).
TABLE = (
    ("Harrison", "SC", 2, 1, (1, 1), (1, 1), 0),
    ("Arapaho", "CT", 3, 3, (2, 2), (1, 1), 0),
    ("Minerva", "FF", 4, 3, (2, 2), (1, 1), 0),
    ("Tacoma", "FH", 5, 4, (3, 2), (1, 1), 0),
    ("Ticonderoga", "DD", 5, 5, (3, 3), (1, 1), 0),
    ("Huron", "CL", 6, 6, (3, 3), (2, 2), 0),
    ("Furious", "CE", 6, 7, (3, 4), (2, 2), 0),
    ("Vandenburg", "CH", 6, 9, (3, 5), (2, 2), 0),
    ("Majestic", "BC", 9, 10, (5, 5), (2, 3), 0),
    ("Victoria", "BB", 10, 10, (5, 5), (3, 3), 0),
    ("Excaliber", "BDN", 10, 12, (5, 6), (3, 3), 1),
    ("Valley Forge", "SDN", 11, 16, (6, 8), (3, 4), 2),
    ("Inflexible", "CVL", 4, 13, (2, 7), (1, 3), 4),
    ("Ark Royal", "CVH", 5, 16, (3, 8), (1, 4), 6),
    ("Falke", "SC", 2, 2, (1, 1), (1, 1), 0),
    ("Strochen", "CT", 3, 3, (2, 2), (1, 1), 0),
    ("Ehrenhold", "FF", 3, 4, (2, 2), (1, 1), 0),
    ("Waldburg", "DD", 4, 6, (2, 3), (1, 2), 0),
    ("Waldburg-M", "DM", 5, 5, (3, 3), (1, 1), 0),
    ("Kronprinz Wilhelm", "CL", 5, 6, (3, 3), (1, 2), 0),
    ("Radetzky", "CE", 6, 7, (3, 4), (1, 2), 0),
    ("Markgraf", "CH", 7, 8, (4, 4), (2, 2), 0),
    ("Maximilian", "BC", 9, 9, (5, 5), (2, 2), 0),
    ("Richthofen", "BC", 10, 8, (5, 4), (3, 2), 0),
    ("Maria von Burgund", "BB", 13, 9, (7, 5), (3, 2), 0),
    ("Szent Istvan", "BDN", 10, 14, (5, 7), (3, 4), 1),
    ("Von Tegetthoff", "SDN", 14, 17, (7, 9), (4, 4), 1),
    ("Der Theuerdank", "CVA", 9, 19, (5, 10), (2, 5), 4),
    ("Mistral", "SC", 2, 2, (1, 1), (1, 1), 0),
    ("Athena", "CT", 3, 3, (2, 2), (1, 1), 0),
    ("Ibiza", "FF", 4, 3, (2, 2), (1, 1), 0),
    ("San Miguel", "DD", 5, 4, (3, 2), (1, 1), 0),
    ("Trieste", "DH", 6, 4, (3, 2), (2, 1), 0),
    ("Suffren", "CL", 7, 5, (4, 3), (2, 1), 0),
    ("Milan", "CE", 7, 6, (4, 3), (2, 2), 0),
    ("Jerez", "CH", 9, 7, (5, 4), (2, 2), 0),
    ("Ypres", "BC", 9, 9, (5, 5), (2, 2), 0),
    ("Roma", "BB", 11, 9, (6, 5), (3, 2), 0),
    ("Bonaparte", "BDN", 10, 13, (5, 7), (3, 3), 1),
    ("Foch", "SDN", 16, 19, (8, 10), (4, 5), 3),
    ("Bologna", "CVL", 7, 13, (4, 7), (2, 3), 4),
    ("Jeanne D'Arc", "CVH", 9, 20, (5, 10), (2, 5), 7),
    ("Lenov", "SC", 2, 1, (1, 1), (1, 1), 0),
    ("Nanuchka", "CT", 3, 3, (2, 2), (1, 1), 0),
    ("Novgorod", "FF", 4, 4, (2, 2), (1, 1), 0),
    ("Warsaw", "DD", 4, 5, (2, 3), (1, 1), 0),
    ("Volga", "DH", 5, 5, (3, 3), (1, 1), 0),
    ("Tibet", "CL", 5, 6, (3, 3), (1, 2), 0),
    ("Beijing-B", "CE", 6, 7, (3, 4), (2, 2), 0),
    ("Gorshkov", "CH", 7, 6, (4, 3), (2, 2), 0),
    ("Voroshilev", "CH", 7, 7, (4, 4), (2, 2), 0),
    ("Manchuria", "BC", 8, 9, (4, 5), (2, 2), 0),
    ("Petrograd", "BB", 9, 11, (5, 6), (2, 3), 0),
    ("Rostov", "BDN", 8, 13, (4, 7), (2, 3), 1),
    ("Komarov", "SDN", 13, 24, (7, 12), (3, 6), 1),
    ("Tsiolkovsky", "CVL", 5, 12, (3, 6), (1, 3), 4),
    ("Konstantin", "CVA", 10, 22, (5, 11), (3, 6), 6),)

#: Rows whose printed values disagree with the rule they illustrate (halving rounds
#: up; a quarter is the nearest whole number, halves up; never below 1). The
#: catalogue keeps the printed values; rule 8's umpire's note names these rows.
DISAGREE = {"Radetzky": "quarter offence printed 1; a quarter of 6 is 1.5, which rounds to 2"}


def test_the_catalogue_is_the_table_row_for_row():
    designs = catalogue().designs
    assert len(designs) == len(TABLE) == 57
    for design, (name, size, ov, dv, half, quarter, fighters) in zip(designs, TABLE,
                                                                       strict=True):
        a = design.abstract
        assert (design.name, design.size) == (name, size)
        assert (a.offence, a.defence, a.half, a.quarter) == (ov, dv, half, quarter), name
        assert design.fighter_groups == fighters, name


def test_navies_are_the_four_of_the_table():
    assert [n.id for n in catalogue().navies] == ["nac", "nsl", "fse", "esu"]
    assert {d.navy for d in catalogue().designs} == {"nac", "nsl", "fse", "esu"}


@pytest.mark.parametrize("row", TABLE, ids=[r[0] for r in TABLE])
def test_each_row_follows_the_halving_rule(row):
    name, _size, ov, dv, half, quarter, _fighters = row
    assert half == (halved(ov), halved(dv)), name
    rule = (quartered(ov), quartered(dv))
    if name in DISAGREE:
        assert quarter != rule, f"{name} is listed as disagreeing but follows the rule"
    else:
        assert quarter == rule, name


def test_the_disagreeing_rows_are_named_in_the_rulebook():
    text = (CATALOGUE_FILE.parent / "rulebook" / "08-ship-statistics.md").read_text(
        encoding="utf-8")
    for name in DISAGREE:
        assert name in text.split("Umpire's note", 1)[-1]
