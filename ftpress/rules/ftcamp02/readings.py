"""How ftpress reads the clauses of ftcamp02's rules that could be read more than one
way: one :class:`~ftpress.rules.section_index.Reading` each, in section order,
naming the case that fails if the reading changes. The code that applies a reading
cites it by name (``Reading ``<name>````); ``tests/test_section_index.py`` checks
that every case exists and every reading is cited.
"""

from __future__ import annotations

from ftpress.rules.section_index import Reading

READINGS: tuple[Reading, ...] = (
    Reading("heaviest-first", "7",
            "An area ECM hides the class of the heaviest craft of its group whose class is still "
            "shown (other than itself); superior sensors uncover hidden classes heaviest first.",
            case="scan-area-ecm-hides-another-craft.yaml"),
)
