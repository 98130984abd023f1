"""How ftpress reads each clause of ftcamp02's rules that could be read more than one
way, with the case that holds it (:class:`~ftpress.rules.section_index.Reading`)."""

from __future__ import annotations

from ftpress.rules.section_index import Reading

READINGS: tuple[Reading, ...] = (
    Reading("heaviest-first", "7",
            "An area ECM hides the class of the heaviest craft of its group whose class is still "
            "shown (other than itself); superior sensors uncover hidden classes heaviest first.",
            case="scan-area-ecm-hides-another-craft.yaml"),
)
