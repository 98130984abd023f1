"""What a battle must be told about the ships in it, beyond their hull boxes.

The battle awaiting the table says it in its event, whose text heads the
battle-result file the umpire fills in (:mod:`ftpress.turn.tabletop`): which
ships make system checks as the battle begins, for hull rows that repulse
damage stripped out (§10.8), which carry parts from other ships that check one
level worse (§11.3.3), and which of the later tabletop rulings (rule 20)
bear on the ships present. The abstract combat has no systems to check, so it
rolls the checks its own way (:func:`abstract_checks`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ftpress.rules.ftc2007.owed_damage import rows_words
from ftpress.rules.ftc2007.owed_repairs import design_of
from ftpress.rules.ftc2007.repairs import species
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007Ship, fits_of, grafted, system_checks
from ftpress.state.dice import Dice
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Design, Group, GroupsFile, State
from ftpress.state.words import powers_own, sentence

#: The later rulings (rule 20): what in a ship brings each to bear, what the ships
#: are (for one ship, for several), and the ruling.
_RULINGS = (
    ("heavy-missiles", "20.1", ("carries heavy missiles", "carry heavy missiles"),
     "those of More Thrust are allowed, any other kind only as the umpire approved it"),
    ("cloaking-field", "20.2", ("carries a cloaking field", "carry cloaking fields"),
     "no ship may have its cloak and its FTL drive on at once, and a cloaked ship has left "
     "only when it jumps"),
    ("nova-cannon", "20.3", ("carries a nova cannon", "carry nova cannons"),
     "a ship firing one does nothing else that turn, and the shot fires and moves on in the "
     "fire phase"),
    ("sa-vasku", "20.4", ("is Sa'Vasku", "are Sa'Vasku"),
     "no biomass tanker may refill ships during the battle"),
)


def table_notes(state: State, groups: Sequence[Group]) -> str:
    """The sentences a battle of ``groups`` on the table is told: the system checks
    its ships owe (§10.8), the ships carrying parts from other ships (§11.3.3), then
    each later ruling that bears on them (§20, §20.1–§20.4);
    each sentence starts with a space, and none at all is ''."""
    owing = [f"{powers_own(state, group.owner)} {ship.name} "
             f"({rows_words(system_checks(ship))})"
             for group in groups for ship in group.ships if system_checks(ship)]
    said = ""
    if owing:
        said += (f" As the battle begins, {_listing(owing)} "
                 f"{'makes' if len(owing) == 1 else 'make'} the system checks for the hull "
                 "rows that owed repulse damage stripped out (§10.8).")
    foreign = [f"{powers_own(state, group.owner)} {ship.name}"
               for group in groups for ship in group.ships if grafted(ship)]
    if foreign:
        said += (f" {sentence(_listing(foreign))} {'carries' if len(foreign) == 1 else 'carry'} "
                 "parts taken from other ships, which check for damage one level worse "
                 "(§11.3.3).")
    for what, section, (one, many), ruling in _RULINGS:
        ships = [ship.name for group in groups for ship in group.ships
                 if what in _bears(design_of(state, ship))]
        if ships:
            said += (f" {_listing(ships)} {one if len(ships) == 1 else many}: {ruling} "
                     f"(§{section}).")
    return said


def abstract_checks(state: State, groups: Sequence[Group], dice: Dice,
                    worse: Sequence[str]) -> tuple[set[tuple[str, str]], list[Event]]:
    """§10.8 (reading ``abstract-check-fails-cripple``): the system checks the ships of ``groups``
    owe, rolled as the abstract battle begins (``worse``: the powers on reduced
    maintenance, §7.4). Returns the (group, ship) that fight crippled, and an event
    for each ship; :func:`checks_made` clears them once the battle is applied."""
    crippled: set[tuple[str, str]] = set()
    events: list[Event] = []
    told = Audience.told(*{g.owner for g in groups})  # the powers in the battle (§15.3)
    for group in groups:
        for ship in group.ships:
            rows = system_checks(ship)
            if not rows:
                continue
            before = len(dice.log)
            # §7.4 or §11.3.3: one level worse, not two (battles'
            # REDUCED_MAINTENANCE_CRIPPLES_SOONER says why).
            lower = 1 if group.owner in worse or grafted(ship) else 0
            failed = [row for row in rows
                      # Told to the powers in the battle alone (§15.3): hidden.
                      if dice.d6(f"system check of {ship.name}, hull row {row}", rule("10.8"),
                                 hidden=True) >= max(7 - row - lower, 2)]
            if failed:
                crippled.add((group.id, ship.name))
            result = (f"fails for hull row {', '.join(map(str, failed))}, so she fights "
                      "crippled" if failed else "passes")
            worse_words = (" one level worse (§7.4)" if group.owner in worse else
                           " one level worse (§11.3.3)" if lower else "")
            events.append(Event(
                "system-checks", rule("10.8"),
                f"{powers_own(state, group.owner, start=True)} {ship.name} makes the system "
                f"checks owed for {rows_words(rows)}{worse_words}: she {result}.",
                audience=told, player=group.owner, group=group.id,
                rolls=dice.log[before:]))
    return crippled, events


def checks_made(state: State, groups: Sequence[Group]) -> State:
    """The system checks owed by the ships of ``groups`` are made: a battle they fought
    made them (§10.8), on the table or in the abstract."""
    ids = {g.id for g in groups}
    if not any(system_checks(s) for g in groups for s in g.ships):
        return state
    return dataclasses.replace(state, groups=GroupsFile(tuple(
        _cleared(g) if g.id in ids else g for g in state.groups.groups)))


def _cleared(group: Group) -> Group:
    return dataclasses.replace(group, ships=tuple(
        extended(s, Ftc2007Ship, system_checks=()) if system_checks(s) else s
        for s in group.ships))


def _bears(design: Design) -> set[str]:
    found = set(fits_of(design))
    if species(design) == "sa-vasku":
        found.add("sa-vasku")
    return found


def _listing(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
