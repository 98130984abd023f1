"""The legal choices of a player's orders for the open turn, as a page offers them.

A ruleset that can say, group by group, every order it would accept this week gives
them here (``Ruleset.order_choices``), each with the exact lines of the order file
it writes, in the ruleset's own format: the "Your view" page builds its form from
them and assembles the file, so it offers only what the ruleset computed and never
judges an order itself. What a ruleset leaves out (a move to an open hex, a split)
the page says it cannot offer; the player can still write it in the file by hand.
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


@dataclass(frozen=True, slots=True)
class GroupChoices:
    id: str
    #: Where it is and what it holds, in words.
    about: str
    #: The first is what it does unless told otherwise (hold).
    orders: tuple[Choice, ...]


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
class ItemKind:
    """A kind of item the player may add, as many as they like: its fields, and the
    lines it writes into its section, with ``${key}`` for each field's value and
    ``${id}`` for the next counter id (the prefix and a number, in the file's order)."""

    id: str
    label: str
    section: str
    fields: tuple[Field, ...]
    lines: tuple[str, ...]


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
