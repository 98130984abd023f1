"""How ftpress reads each clause of sct's rules that could be read more than one
way, with the case that holds it (:class:`~ftpress.rules.section_index.Reading`)."""

from __future__ import annotations

from ftpress.rules.section_index import Reading

READINGS: tuple[Reading, ...] = (
    Reading("each-attack-judged-alone", "6.3",
            "Damage does not carry over from one attack to the next: each attack's points are "
            "judged alone against the target's values as they stand (the seed judges \"the total\" "
            "of one roll). ``UnitResult.damage`` still adds them up for the report.",
            case="test_abstract_combat.py::test_crippled_again_stays_crippled"),
)
