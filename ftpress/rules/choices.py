"""The legal choices of a player's orders for the open turn, as a page offers them.

A ruleset that can say, group by group, every order it would accept this week gives
them here (``Ruleset.order_choices``), each with the exact lines of the order file
it writes, in the ruleset's own format: the "Your view" page builds its form from
them and assembles the file, so it offers only what the ruleset computed and never
judges an order itself. What a ruleset leaves out (a move to an open hex, a split
of several ships) the page says it cannot offer; the player can still write it in the
file by hand.

How the page writes the file from the picks (:func:`ftpress.yourview.report.written`
does the same): under each group's key, its order's lines, its posture's where the
order takes one, and its extra's (a split or a merge); a group whose order writes
no line is written ``{}``; a group that an extra picked for another group takes in
(``absorbs``: a merge) is left out of the file, since it has no orders of its own.
"""

from __future__ import annotations

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


@dataclass(frozen=True, slots=True)
class GroupChoices:
    id: str
    #: Where it is and what it holds, in words.
    about: str
    #: The first is what it does unless told otherwise (hold).
    orders: tuple[Choice, ...]
    #: What may go with its order (a split, a merge), one at most; none written
    #: unless picked.
    extras: tuple[Choice, ...] = ()


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
    rounded up to a whole number."""

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
    nothing is in it."""

    id: str
    key: str
    empty: str


@dataclass(frozen=True, slots=True)
class ItemChoices:
    """A turn whose orders are items to add (a set-up's purchases and placements)."""

    header: tuple[str, ...]
    sections: tuple[Section, ...]
    kinds: tuple[ItemKind, ...]
    footer: tuple[str, ...]
    counter_prefix: str
    not_offered: tuple[str, ...] = ()
    #: The sums the page adds up and refuses to seal past (a set-up's budget).
    limits: tuple[Limit, ...] = ()
