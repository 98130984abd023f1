"""The legal choices of a player's orders for the open turn, as a page offers them.

A ruleset that can say, group by group, every order it would accept this week gives
them here (``Ruleset.order_choices``), each with the exact lines of the order file
it writes, in the ruleset's own format: the "Your view" page builds its form from
them and assembles the file, so it offers only what the ruleset computed and never
judges an order itself. What a ruleset leaves out (a move to an open hex) the page
says it cannot offer; the player can still write it in the file by hand.

How the page writes the file from the picks (:func:`ftpress.yourview.report.written`
does the same): under each group's key, its order's lines, its posture's where the
order takes one, and its extra's (a split or a merge); a group whose order writes
no line is written ``{}``; a group that an extra picked for another group takes in
(``absorbs``: a merge) is left out of the file, since it has no orders of its own.
Then each table of :class:`Assignments` of the group (ships split off together, each
ship's part in a battle), and the file's own tables (independents attached) before the
groups' key; then, in a turn with economic orders, the items added (:class:`ItemChoices`
under ``economy:``).

Where picks combine (several ships of a split, two ships each screening the other), the
data says what keeps the whole legal, in terms the page applies without knowing any
rule: at least ``keep`` items of a table pick nothing (a split leaves a ship behind);
an item another item names picks nothing itself (``free_targets``: a screened ship does
not screen); no two items name the same value of a ``distinct`` field (one independent
attached to a group a turn); an item's option that ``holds`` a group needs that group
to hold, untouched (a ship under repair stays in the yard); and a :class:`Limit` caps a
sum (money, a world's spares); a ``chains`` field's items may name one another in a
line that never loops (one ship screening another that screens a third). Each option
is one the ruleset's check accepts alone; the rules of these tables make every
combination of them one it accepts too (the tests compose combinations and judge them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Choice:
    """One order a group may be given: what the page shows, the lines it writes under
    the group's key, and whether a posture goes with it."""

    label: str
    lines: tuple[str, ...]
    needs_posture: bool = False
    #: What it will do, in the words ``ftpress check`` uses: one text, or one for each
    #: posture where it takes one (filled in from the ruleset's own description of
    #: the file, not by the ruleset's choices).
    words: tuple[str, ...] = ()
    #: The other groups this one takes in (a merge): the file leaves them out.
    absorbs: tuple[str, ...] = ()
    #: An extra's: the indexes of the group's orders it may go with; None for any
    #: (a ruleset may narrow it; the check's judgement narrows it further).
    with_orders: tuple[int, ...] | None = None
    #: What picking it adds to the sums of an item turn (:class:`Limit`): a design's
    #: price to the money spent, one to the capital ships bought.
    adds: tuple[tuple[str, int], ...] = ()
    #: The groups that must hold, untouched, for this to stand (a repair's group).
    holds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GroupChoices:
    id: str
    #: Where it is and what it holds, in words.
    about: str
    #: The first is what it does unless told otherwise (hold).
    orders: tuple[Choice, ...]
    #: What may go with its order (a merge), one at most; none written unless picked.
    extras: tuple[Choice, ...] = ()
    #: Tables of its ships' picks (:class:`Assignments`: ships split off, battle parts).
    assignments: tuple[Assignments, ...] = ()


@dataclass(frozen=True, slots=True)
class OrderChoices:
    #: The file's lines before the groups (``turn:``, ``player:``) and the key the
    #: groups go under.
    header: tuple[str, ...]
    groups_key: str
    groups: tuple[GroupChoices, ...]
    #: The postures a move takes, each with its line.
    postures: tuple[Choice, ...] = ()
    #: What the page cannot offer this turn, in words.
    not_offered: tuple[str, ...] = ()
    #: The file's own tables, written before the groups' key (independents attached).
    assignments: tuple[Assignments, ...] = ()
    #: The economic orders the turn takes, as items to add under ``economy:``.
    economy: ItemChoices | None = None


@dataclass(frozen=True, slots=True)
class Assign:
    """One item of a table (a ship, an independent) and what it may be given: the
    first of ``options`` gives nothing; each other's ``lines`` are its field and value
    (``("screen", '"Victoria"')``), as :class:`Assignments` writes them."""

    label: str
    #: The item as the file writes it (a ship's name quoted, a group's id).
    key: str
    options: tuple[Choice, ...]


#: How an :class:`Assignments` field is written: ``field: {item: value, …}`` (map),
#: ``field: {value: [item, …]}`` (grouped: a split), ``field: [item, …]`` (list).
MAP, GROUPED, LIST = "map", "grouped", "list"


@dataclass(frozen=True, slots=True)
class Assignments:
    """A table of items, each given one option (see the module's docstring for what
    keeps a combination legal). Each field picked is written on one line, its items
    in the table's order, in the form ``forms`` names for it."""

    label: str
    items: tuple[Assign, ...]
    #: Field → :data:`MAP`, :data:`GROUPED` or :data:`LIST`.
    forms: tuple[tuple[str, str], ...]
    #: At least this many items pick nothing.
    keep: int = 0
    #: An item another item's value names picks nothing itself.
    free_targets: bool = False
    #: The fields no two items may give one value.
    distinct: tuple[str, ...] = ()
    #: The fields ``free_targets`` leaves alone: an item one of them names may pick
    #: anything (a ship screened screens in turn), so long as following that field from
    #: item to item never comes back to where it started (no screen loops back).
    chains: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Field:
    """One value of an item the player adds: picked from ``options`` (each writes its
    one line, the value), a whole number above 0 (``number``), or else free text
    (written as a quoted string, so no text breaks the file)."""

    key: str
    label: str
    options: tuple[Choice, ...] = ()
    number: bool = False


@dataclass(frozen=True, slots=True)
class Amount:
    """What an item of a kind adds to one of the turn's sums: a fixed ``amount``, or
    its number ``field`` times ``rate`` (a fraction, numerator and denominator),
    rounded up to a whole number. ``${key}`` in ``sum`` is the value of the item's
    field ``key`` (a sum for each world: its spares)."""

    sum: str
    amount: int = 0
    field: str | None = None
    rate: tuple[int, int] = (1, 1)


@dataclass(frozen=True, slots=True)
class Limit:
    """A sum the page adds up from the items (their kinds' ``adds`` and their picked
    options' ``adds``) and refuses to seal past: at most ``most``, or at most what the
    sum ``most_of`` comes to (one dummy counter for each capital ship)."""

    sum: str
    label: str
    most: int | None = None
    most_of: str | None = None
    #: Why, in words, with the rule it comes from.
    why: str = ""
    #: Over it, the page will not seal; where not, it warns (money that may yet come).
    blocks: bool = True
    #: Shown while its sum is 0 too (a world's own limits are shown once used).
    always: bool = True


@dataclass(frozen=True, slots=True)
class ItemKind:
    """A kind of item the player may add, as many as they like: its fields, and the
    lines it writes into its section, with ``${key}`` for each field's value and
    ``${id}`` for the next counter id (the prefix and a number, in the file's order)."""

    id: str
    label: str
    section: str
    fields: tuple[Field, ...]
    lines: tuple[str, ...]
    adds: tuple[Amount, ...] = ()


@dataclass(frozen=True, slots=True)
class Section:
    """A block of the file that items go into: its key line, and the line it is when
    nothing is in it ("" for none: the block is left out)."""

    id: str
    key: str
    empty: str


@dataclass(frozen=True, slots=True)
class ItemChoices:
    """A turn whose orders are items to add (a set-up's purchases and placements), or
    the economic orders that go with a week's (:attr:`OrderChoices.economy`: written
    only where an item is, ``header`` first)."""

    header: tuple[str, ...]
    sections: tuple[Section, ...]
    kinds: tuple[ItemKind, ...]
    footer: tuple[str, ...]
    counter_prefix: str
    not_offered: tuple[str, ...] = ()
    #: The sums the page adds up and refuses to seal past (a set-up's budget).
    limits: tuple[Limit, ...] = ()


#: The most new groups a split the page offers forms at once (each ship offered each
#: of their ids): enough for the splits a player makes, short enough to read.
MOST_NEW_GROUPS = 3


def new_groups(names: tuple[str, ...]) -> int:
    """How many new groups a split of these ships may form in the page: one ship at
    least stays, each new group takes one at least, :data:`MOST_NEW_GROUPS` at most."""
    return max(min(len(names) - 1, MOST_NEW_GROUPS), 0)


def split_table(new_ids: tuple[str, ...], names: tuple[str, ...], section: str) -> Assignments:
    """The ships (craft) of a group that leave it, each into one of the new groups
    ``new_ids`` (written ``split: {new_id: [ship, …], …}``, a new group only where a ship
    leaves into it): any of them, one at least staying."""
    leaves = tuple(Choice(f"leaves as {new_id}", ("split", new_id)) for new_id in new_ids)
    return Assignments(
        f"Split off as {' or '.join(new_ids)} ({section})",
        tuple(Assign(name, json.dumps(name, ensure_ascii=False), (Choice("stays", ()), *leaves))
              for name in names),
        (("split", GROUPED),), keep=1)
