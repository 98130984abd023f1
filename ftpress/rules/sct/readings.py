"""How ftpress reads the clauses of sct's rules that could be read more than one
way: one :class:`~ftpress.rules.section_index.Reading` each, in section order,
naming the case that fails if the reading changes. The code that applies a reading
cites it by name (``Reading ``<name>````); ``tests/test_section_index.py`` checks
that every case exists and every reading is cited.
"""

from __future__ import annotations

from ftpress.rules.section_index import Reading

READINGS: tuple[Reading, ...] = (
    Reading("each-attack-judged-alone", "6.3",
            "Damage does not carry over from one attack to the next: each attack's points are "
            "judged alone against the target's values as they stand (the seed judges \"the total\" "
            "of one roll). ``UnitResult.damage`` still adds them up for the report.",
            case="test_abstract_combat.py::test_crippled_again_stays_crippled"),
)
