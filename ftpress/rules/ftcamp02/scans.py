"""§7 Long range scans: once every order is carried out, what each power learns
of other powers' groups.

A power scans every other power's marker in a hex where it has a group fitted
with sensors (§7.3, contested hexes), and in the hexes next to a group with
enhanced or superior sensors (§7.1). A scanned group shows its make-up by class
only (§5.1.0), less what ECM and stealth hide. Patrolled hexes (§7.2) need
command HQs, which are not part of this rulebook.

Each scan is one event naming classes and counts, never a craft or a design,
told to the two powers that swap it (§7): the scanner and the scanned. The
public learns nothing of what a group holds (an attached independent, §3,
shows in its group's count), and the group stays unrevealed
(``Group.revealed`` is not set).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ftpress.rules.ftcamp02.crafts import craft_class, drifting, is_static, sensor_grade
from ftpress.rules.ftcamp02.movement import party_of
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.space import place_hex
from ftpress.rules.ftcamp02.state_ext import of_design, of_group
from ftpress.state.events import Audience, Event
from ftpress.state.model import Design, Group, Ship, State
from ftpress.state.words import group, place, power

#: Ruling: the scanned power always uses every ECM and area ECM it has to hide
#: classes (the seed leaves it to that power's choice; ftpress cannot ask).
ECM_ALWAYS_USED = True

#: Ruling: craft that drift (§2.3) still carry sensors that work, but do not scan:
#: a power scans only with craft that have crew.
DRIFTING_DO_NOT_SCAN = True


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What a scan of one group shows: classes by count, craft whose class is hidden,
    and (superior sensors against stealth) how many stealthy craft there are."""

    classes: tuple[tuple[str, int], ...]
    unknown: int
    stealthy: int | None
    statics: bool

    def describe(self) -> str:
        parts = [f"{n} {c}" for c, n in self.classes]
        if self.unknown:
            parts.append(f"{self.unknown} craft of unknown class")
        if self.stealthy:
            parts.append(f"{self.stealthy} stealthy craft of unknown class")
        if not parts:
            return "nothing there"
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        return listed + (", statics among them" if self.statics else "")


def scan_group(crafts: list[tuple[Ship, Design]], superior: int) -> ScanResult:
    """§7: what one group (with its attached independents) shows to a scan backed by
    ``superior`` superior sensors.

    Reading ``heaviest-first`` (the ruleset's readings).
    """
    seen = [(s, d) for s, d in crafts if not of_design(d).stealth]
    stealthy = len(crafts) - len(seen)
    hidden: set[str] = set()
    if ECM_ALWAYS_USED:
        hidden |= {s.name for s, d in seen if of_design(d).ecm}
        for s, d in seen:
            if of_design(d).area_ecm:
                others = sorted(((x, y) for x, y in seen if x.name not in hidden
                                 and x.name != s.name), key=lambda p: (-p[1].mass, p[0].name))
                if others:
                    hidden.add(others[0][0].name)
    uncovered = sorted(((s, d) for s, d in seen if s.name in hidden),
                       key=lambda p: (-p[1].mass, p[0].name))[:superior]
    hidden -= {s.name for s, _d in uncovered}
    counts = Counter(craft_class(d.mass) for s, d in seen if s.name not in hidden)
    order = {c: (-max(d.mass for s, d in seen if craft_class(d.mass) == c), c) for c in counts}
    return ScanResult(tuple(sorted(counts.items(), key=lambda i: order[i[0]])), len(hidden),
                      stealthy if superior and stealthy else None,
                      any(is_static(d) for _s, d in seen))


def long_range_scans(state: State) -> list[Event]:
    """§7, §7.1, §7.3: every scan made at the end of the round, by power and group."""
    markers = [g for g in state.groups.groups if of_group(g).attached_to is None and g.ships]
    where = {g.id: place_hex(state, g) for g in markers}
    events: list[Event] = []
    for player in sorted({g.owner for g in markers}):
        scanners = [(g, sensors(state, g)) for g in markers if g.owner == player]
        for target in markers:
            if target.owner == player:
                continue
            h = where[target.id]
            able = [(g, grade, n) for g, (grade, n) in scanners if grade is not None and (
                where[g.id] == h or (grade in ("enhanced", "superior")
                                     and where[g.id].distance(h) == 1))]
            if not able:
                continue
            superior = sum(n for _g, _grade, n in able)
            result = scan_group(party_of(state, target), superior)
            same = any(where[g.id] == h for g, _grade, _n in able)
            section = "7.3" if same else "7.1"
            scanned = Audience.told(player, target.owner)
            events.append(Event("scan", rule(section), f"{power(state, player, start=True)} scans "
                                f"{group(state, target.id, scanned, noun='group')} at "
                                f"{place(state, h)}: "
                                f"{result.describe()}.", player=player, group=target.id,
                                groups=tuple(g.id for g, _grade, _n in able),
                                players=(player, target.owner), at=target.at,
                                audience=Audience.told(player, target.owner)))
    return events


def sensors(state: State, group: Group) -> tuple[str | None, int]:
    """A group's best sensors (None: it cannot scan; enhanced and superior reach the
    next hexes, §7.1) and its number of superior ones."""
    grades = [sensor_grade(d) for s, d in party_of(state, group)
              if not (DRIFTING_DO_NOT_SCAN and drifting(s, d)) and sensor_grade(d) != "none"]
    if not grades:
        return None, 0
    best = max(grades, key=("basic", "enhanced", "superior").index)
    return best, grades.count("superior")


