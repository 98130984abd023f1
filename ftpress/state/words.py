"""Words a reader sees, the same wherever they are written: counts in the right
number, lists joined with "and", dates in the site's one style, and the campaign's
things by their names, never by their ids.

The rules write every event's sentence when they make it and the renderer writes
the report's own; both name things here, so "the New Anglian Confederation",
"Arcturus Gate" and "17 May 2026, 20:00 UTC" read the same in both. An id is a
key in a file, for players and the umpire writing orders; a sentence names a
group by its id only to a reader who may know it (:func:`group`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

from ftpress.state.events import Audience
from ftpress.state.hexes import Hex
from ftpress.state.model import Location, Point, State

#: Nouns whose plural is not the singular with an "s".
_IRREGULAR = {"dummy": "dummies", "hull box": "hull boxes", "hex": "hexes"}

#: Words that make a power's name a common noun taking "the": "the New Anglian
#: Confederation", "the Federated States of Europa", but "Sa'Vasku". A name in
#: capitals (an initialism, "NAC") takes it too.
_POLITIES = frozenset({
    "Alliance", "Assembly", "Authority", "Caliphate", "Coalition", "Collective", "Combine",
    "Commonwealth", "Compact", "Concord", "Confederacy", "Confederation", "Consortium",
    "Directorate", "Dominion", "Empire", "Federation", "Fleet", "Hegemony", "Imperium",
    "Khanate", "Kingdom", "League", "Navy", "Protectorate", "Realm", "Republic", "States",
    "Sultanate", "Syndicate", "Union"})

# Spelled out here so that no locale setting can change the output.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and the noun in the number it takes: ``plural(1, "post")`` is
    "1 post", ``plural(3, "post")`` "3 posts", ``plural(0, "entry", "entries")``
    "0 entries". Thousands are grouped: "1,200 posts"."""
    return f"{count:,} {noun_for(count, noun, many)}"


def noun_for(count: int, noun: str, many: str | None = None) -> str:
    """The noun alone in the number ``count`` takes: "hull box", "hull boxes"."""
    return noun if count == 1 else (many or _IRREGULAR.get(noun, noun + "s"))


def counted(count: int, noun: str, many: str | None = None) -> str:
    """'a task group', '2 task groups': a count that reads as words where it is one."""
    return f"a {noun}" if count == 1 else plural(count, noun, many)


def listed(items: Iterable[str], last: str = "and") -> str:
    """'A', 'A and B', 'A, B and C' ('' for none)."""
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def sentence(text: str) -> str:
    """``text`` with its first letter a capital, to begin a sentence."""
    return text[:1].upper() + text[1:]


def ended(text: str) -> str:
    """``text`` ended as a sentence: a full stop added unless it ends with one, or with
    a question or an exclamation ('did you mean 'skerry'?' stays as it is)."""
    return text if text.rstrip().endswith((".", "?", "!")) else f"{text}."


def long_date(value: date) -> str:
    """'7 April 2026': the one way the site writes a date for readers, everywhere
    (the machine-readable ``datetime`` attribute beside it is ISO 8601)."""
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"


def moment(value: datetime) -> str:
    """'17 May 2026, 20:00 UTC': a moment as the site writes it, in UTC."""
    when = value.astimezone(UTC)
    return f"{long_date(when.date())}, {when:%H:%M} UTC"


# --- the campaign's things by name ----------------------------------------------------

def power_name(name: str) -> str:
    """A power's name as it stands in a sentence: 'the New Anglian Confederation',
    'the NAC', 'Sa'Vasku'."""
    if name.startswith("The "):
        return "the " + name[4:]
    common = _POLITIES.intersection(name.split()) or (name.isupper() and len(name) > 1)
    return f"the {name}" if common else name


def power(state: State, player_id: str | None, *, start: bool = False) -> str:
    """The power ``player_id`` plays, by name ('the Eastern Star Union'; ``start``: to
    begin a sentence, 'The Eastern Star Union'); an id that names no player (a
    stranger's orders) is quoted, and None is nobody."""
    player = state.player(player_id) if player_id is not None else None
    name = (power_name(player.name) if player is not None
            else repr(player_id) if player_id is not None else "nobody")
    return sentence(name) if start else name


def powers(state: State, player_ids: Iterable[str]) -> str:
    """Several powers by name: 'the Eastern Star Union and Sa'Vasku'."""
    return listed(power(state, p) for p in player_ids)


def possessive(name: str) -> str:
    """'the Neue Swabian League's', 'Sa'Vasku's'."""
    return f"{name}'" if name.endswith("s") and not name.endswith("ss") else f"{name}'s"


def powers_own(state: State, player_id: str, *, start: bool = False) -> str:
    """A power's name as the owner of what follows: 'the Neue Swabian League's'."""
    return possessive(power(state, player_id, start=start))


def world(state: State, system_id: str) -> str:
    """A world by its name ('Arcturus Gate'), or its id if the map has no such world."""
    system = state.system(system_id)
    return system.name if system is not None else system_id


def place(state: State, location: Location) -> str:
    """Where something is, as a reader knows the place: a world by its name, else
    'hex (2, -1)' on a hex map or 'open space at (1.2, 3.4)' on a planar one."""
    if isinstance(location, str):
        return world(state, location)
    if isinstance(location, Point):
        return f"open space at {location}"
    h = state.hex_of(location)
    system = state.system_at(h) if isinstance(h, Hex) else None
    return system.name if system is not None else f"hex {h}"


def owner_of(state: State, group_id: str) -> str | None:
    """The player whose group ``group_id`` is, if it is on the state."""
    return next((g.owner for g in state.groups.groups if g.id == group_id), None)


def may_know_id(audience: Audience, owner: str | None) -> bool:
    """May every reader of an event told to ``audience`` know the id of a group
    ``owner`` plays? A group's id is its owner's label, written in their orders:
    known to its owner and the umpire, to nobody else."""
    return audience.players is not None and set(audience.players) <= {owner}


def group(state: State, group_id: str, audience: Audience, *, noun: str = "task group",
          owner: str | None = None, start: bool = False) -> str:
    """A group as the readers of an event told to ``audience`` may know it: by its id
    ('nac-1') where only its owner and the umpire are told, otherwise by whose
    counter it is ('a task group of the New Anglian Confederation'; ``start``: 'A
    task group …'). ``owner`` where the group is no longer on ``state``."""
    owner = owner or owner_of(state, group_id)
    if may_know_id(audience, owner):
        return group_id
    name = f"a {noun} of {power(state, owner)}" if owner else f"a {noun}"
    return sentence(name) if start else name


def groups(state: State, group_ids: Iterable[str], audience: Audience, *,
           noun: str = "task group", owner: str | None = None) -> str:
    """Several groups as :func:`group` names one; those the readers may not know by
    id counted by owner: 'nac-2 and nac-3', or '2 task groups of the New Anglian
    Confederation'."""
    ids = list(group_ids)
    owners = {g: owner or owner_of(state, g) for g in ids}
    if all(may_know_id(audience, owners[g]) for g in ids):
        return listed(ids)
    by_owner: dict[str | None, int] = {}
    for g in ids:
        by_owner[owners[g]] = by_owner.get(owners[g], 0) + 1
    return listed(counted(n, noun) + (f" of {power(state, who)}" if who else "")
                  for who, n in by_owner.items())


def ship(state: State, name: str, design_id: str) -> str:
    """A ship by its name and size class: 'Thrum (DD)'. Its design's name stays out:
    a design may share its name with a ship whose group nobody has seen into."""
    d = state.design(design_id)
    return f"{name} ({d.size})" if d is not None else name
