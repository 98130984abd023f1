"""Who sees what: every view of a campaign is made for a viewer, from what they know.

A view is made for a :class:`Viewer`: the public (the published site), the
umpire (every fact) or one player (what the rules tell that player). Its state
is the state as that viewer knows it (:mod:`ftpress.secrecy.knowledge`; the renderer is
handed it, and :func:`holds_all_of` says whose groups it holds whole). Each
event carries its :class:`~ftpress.state.events.Audience`, set by the rule that made
it (public, the umpire alone, or the players told), and :func:`visible` is the
one gate for events: the report, the map's arrows, the summary, the dice and
the search index are all made from what passed it, and :func:`published_order`
withholds, from the published copy of an order file, the lines of every order
whose events the viewer may not see.

**The safety net.** :class:`HiddenFacts` still knows the names that the full
states hide (the ships and designs of groups no enemy has contacted, ships on
the slips) and the words that would tell a dummy counter from a real one; it is
made where a build holds the full states (:mod:`ftpress.secrecy.viewing`). It is a
last resort, not the rule. The rules set audiences, so an event its audience lets
through whose own words or dice name a hidden fact is a bug in a rule: the build
stops with :class:`HiddenFactLeak` naming the event, rather than leave it out
silently (a public battle must stay in the public report). What the net may still
catch is a player's own words (a note on an order or an event that names their
ships, a line of a published order file), withheld whole; the tests say so for
the demo and both examples. Ships of a group that the turn destroyed are hidden
only if the viewer was told nothing of the group: an event the viewer reads that
names a group lost this turn (a public battle, its losses) shows what it held.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ftpress.secrecy.twins import MARK
from ftpress.state.events import Audience, Event
from ftpress.state.model import State

#: Words that would tell a dummy counter from a real one (§15.2).
_DUMMY = re.compile(r"\bdumm(?:y|ies)\b", re.IGNORECASE)


class HiddenFactLeak(RuntimeError):
    """A bug in a rule: an event its audience lets a viewer read names, in its own
    words or dice, what that viewer may not know (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who a view is made for: the public, the umpire, or one player (by id)."""

    #: The player whose view it is; None for the public or the umpire.
    player: str | None = None
    umpire: bool = False

    @classmethod
    def of(cls, player: str) -> Viewer:
        """One player's view: public events and the events that player is told."""
        return cls(player)

    def sees(self, audience: Audience) -> bool:
        if self.umpire:
            return True
        if self.player is None:
            return audience.public
        return audience.tells(self.player)

    def __repr__(self) -> str:
        if self.umpire:
            return "UMPIRE_VIEW"
        return "PUBLIC_VIEW" if self.player is None else f"Viewer.of({self.player!r})"


#: The published site: only what every reader may learn.
PUBLIC_VIEW = Viewer()
#: The umpire's site: every fact.
UMPIRE_VIEW = Viewer(umpire=True)


def holds_all_of(state: State, owner: str | None) -> bool:
    """Does ``state``, a view's state (:mod:`ftpress.secrecy.knowledge`), hold all that ``owner``
    has: its groups' ships, which are dummies? The full state does (the umpire's, or
    anyone's where the rules hide nothing), and a player's known state holds all of
    their own."""
    known_to = state.campaign.known_to
    return known_to is None or (owner is not None and known_to == owner)


def visible(events: Iterable[Event], viewer: Viewer,
            net: HiddenFacts | None = None) -> tuple[Event, ...]:
    """The events ``viewer`` may read, in order: those whose audience includes them.

    With ``net`` (see the module docstring: a sealed campaign), an event whose words
    or dice would still name a hidden fact stops the build (:class:`HiddenFactLeak`:
    the rule that made it set the wrong audience); and an event shown from another
    player's order keeps neither the place it cites in that order file nor the
    player's note: the line and column of a sealed file say how its orders are laid
    out (the gaps between a player's counters give the ships in each), and a note is
    the player's and the umpire's.
    """
    shown: list[Event] = []
    for event in events:
        if not viewer.sees(event.audience):
            continue
        if net is not None and not viewer.umpire:
            if net.reveals(event.text) or any(net.reveals(r.purpose) for r in event.rolls):
                raise HiddenFactLeak(
                    f"a {event.kind!r} event ({event.rule}) told to {event.audience!r} names "
                    f"what {viewer!r} may not know: {event.text!r}")
            if not _own_order(event, viewer) and (event.order or event.note):
                event = dataclasses.replace(event, order=None, note=None)
        shown.append(event)
    return tuple(shown)


def _own_order(event: Event, viewer: Viewer) -> bool:
    """Does ``event`` cite an order file of ``viewer``'s own (``orders/<turn>/<them>.yaml``)?"""
    if viewer.player is None or not event.order:
        return False
    path = event.order.split(":", 1)[0]
    return path.rsplit("/", 1)[-1] == f"{viewer.player}.yaml"


def published_order(text: str, path: str, events: Iterable[Event], viewer: Viewer,
                    net: HiddenFacts | None = None) -> str:
    """The copy of the order file ``path`` (``orders/<turn>/<player>.yaml``) that
    ``viewer`` may read: only the orders whose events the viewer sees.

    An event points at a line of the file (``order: path:line:col``). The order
    it comes from is the entry holding that line under a key of the file (a group
    under ``groups:``, ``maintenance`` under ``economy:``), shown when the viewer
    sees one of its events; the line itself, with the lines indented under it, is
    withheld when the viewer may not see the event, even inside an entry shown.
    An entry no event the viewer sees comes from is withheld too (a hold whose
    sub-order is secret makes no public event). What is withheld leaves no trace
    (no marker, no blank line), so the copy does not tell that something was
    there. Lines at the top of the file (``turn:``, ``player:``) stay, and a key
    such as ``groups:`` while some line under it does; the player's comments go
    (they are the player's and the umpire's). The umpire, and
    a player reading their own file, get it whole. With ``net``, a line that still
    names a hidden fact (a player's note naming their ships) is withheld whole.
    """
    lines = text.split("\n")
    if viewer.umpire or viewer.player == path.rsplit("/", 1)[-1].removesuffix(".yaml"):
        return text
    shown: set[int] = set()
    withheld: set[int] = set()
    for event in events:
        if not event.order or not event.order.startswith(path + ":"):
            continue
        number = int(event.order.split(":")[1])
        if not 1 <= number <= len(lines):
            continue
        if viewer.sees(event.audience):
            shown.update(_block(lines, _entry(lines, number - 1)))
        else:
            withheld.update(_block(lines, number - 1))
    kept = [line for i, line in enumerate(lines)
            if i not in withheld and not _players_comment(line)
            and (_indent(line) == 0 or i in shown or not line.strip())]
    if net is not None:
        # A player's own words (a note, a comment) may name what the viewer may not
        # know: such a line goes whole, with what is written under it, leaving no
        # marker behind.
        revealing = {i for at, line in enumerate(kept) if net.reveals(line)
                     for i in _block(kept, at)}
        kept = [line for i, line in enumerate(kept) if i not in revealing]
    return "\n".join(_without_empty_keys(kept))


def _players_comment(line: str) -> bool:
    """Is ``line`` a comment the player wrote? It is theirs and the umpire's: a sealed
    file's comments may hold what its orders keep back (a plan, which counter is
    what). The editor's schema line, and the mark of a sealed campaign's public
    copy, are no player's words."""
    return line.lstrip().startswith("#") and not line.startswith(
        ("# yaml-language-server:", MARK.decode("utf-8")))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _entry(lines: list[str], at: int) -> int:
    """The line of the entry holding line ``at``: its ancestor one level under a key
    of the file, or ``at`` itself at either of those levels."""
    while _indent(lines[at]) > 0:
        parent = next((i for i in range(at - 1, -1, -1) if lines[i].strip()
                       and _indent(lines[i]) < _indent(lines[at])), None)
        if parent is None or _indent(lines[parent]) == 0:
            return at
        at = parent
    return at


def _block(lines: list[str], start: int) -> range:
    """The lines of the YAML node at ``start``: it and every line indented under it."""
    depth = _indent(lines[start])
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > depth):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # a blank line after the block belongs to what follows
    return range(start, end)


def _without_empty_keys(lines: list[str]) -> list[str]:
    """``lines`` without a key whose lines were all withheld (``groups:`` left bare),
    and without the blank lines that withholding ran together."""
    out: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.endswith(":") and not stripped.startswith("#"):
            following = next((x for x in lines[i + 1:] if x.strip()), "")
            if _indent(following) <= _indent(line):
                continue  # a mapping key with nothing left under it
        if not stripped and out and not out[-1].strip():
            continue
        out.append(line)
    return out


# --- the safety net ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HiddenFacts:
    """The last safety net (see the module docstring): the names the states hide,
    the ships and designs of every group no enemy has contacted (§15.3) and of
    ships on the slips; and any word of dummies, which would tell a dummy counter
    from a real one (§15.2), to a viewer who knows of no dummy."""

    terms: frozenset[str]
    #: Are words of dummies hidden? Not from a viewer who knows of a dummy: one of
    #: their own, or one an enemy's contact found out and told them of (§15.3); the
    #: public knows of none.
    dummies: bool = True

    @classmethod
    def of(cls, *states: State, known: frozenset[str] = frozenset(),
           mine: str | None = None, witnessed: frozenset[str] = frozenset()) -> HiddenFacts:
        """What ``states`` hide: the ships and designs of every group not revealed,
        and not among ``known`` (groups the enemy has seen into since) nor owned by
        ``mine`` (the player whose view it is), nor the ships ``witnessed`` in a battle
        the viewer read the report of."""
        names: set[str] = set()
        designs: set[str] = set()
        seen: set[str] = set()  # designs of ships the enemy has seen: public
        shown: set[str] = set()  # names of ships in a group the enemy has seen
        keels: set[str] = set()
        for state in states:
            for group in state.groups.groups:
                visible_group = group.shown_to(mine) or group.id in known
                for ship in group.ships:
                    design = state.design(ship.design)
                    kinds = {ship.design, design.name} if design else {ship.design}
                    if visible_group or ship.name in witnessed:
                        seen |= kinds
                        shown.add(ship.name)
                    else:
                        names.add(ship.name)
                        designs |= kinds
            # Ships still on the slips are nobody's business but their builder's,
            # until they join a group that is known.
            for keel in state.queues.keels:
                if keel.owner == mine:
                    continue
                design = state.design(keel.design)
                keels.add(keel.name)
                designs |= {keel.design, design.name} if design else {keel.design}
        terms = names | (keels - shown) | (designs - seen)
        knows_a_dummy = any(g.dummy and (g.shown_to(mine) or g.id in known)
                            for state in states for g in state.groups.groups)
        return cls(frozenset(t for t in terms if t.strip()), not knows_a_dummy)

    @classmethod
    def of_turn(cls, before: State | None, after: State, viewer: Viewer = PUBLIC_VIEW,
                events: Iterable[Event] = ()) -> HiddenFacts | None:
        """The net for ``viewer``'s view of a turn (none for the umpire's): what was
        hidden as the turn began or as it ended, except the groups the turn itself
        brought into contact (§15.3), whose ships its events name, the viewer's own,
        and the groups the turn took off the map that an event of ``events`` the
        viewer reads names (a battle all could see destroyed them). A ship lost in
        the turn from a group the viewer was told nothing of stays unnamed."""
        if viewer.umpire:
            return None
        if before is None:
            return cls.of(after, mine=viewer.player)
        standing = {g.id for g in after.groups.groups}
        gone = {g.id for g in before.groups.groups} - standing
        told = {group_id for event in events if viewer.sees(event.audience)
                for group_id in (*event.groups, *([event.group] if event.group else []))}
        known = frozenset({g.id for g in after.groups.groups if g.shown_to(viewer.player)}
                          | (gone & told))
        # A battle's report names the ships that fought: a group that fought one the
        # viewer read of may be hidden again once the turn ends (a ship joined it
        # since), but the ships it fought with are no secret to that viewer.
        fought = {group_id for event in events if event.kind == "battle"
                  and viewer.sees(event.audience) for group_id in event.groups}
        witnessed = frozenset(ship.name for g in before.groups.groups if g.id in fought
                              for ship in g.ships)
        return cls.of(before, after, known=known, mine=viewer.player, witnessed=witnessed)

    def _pattern(self) -> re.Pattern[str] | None:
        return _hidden_pattern(self.terms) if self.terms else None

    def reveals(self, text: str) -> bool:
        """Does ``text`` name a hidden ship or design, or speak of dummies?"""
        pattern = self._pattern()
        return bool((self.dummies and _DUMMY.search(text))
                    or (pattern is not None and pattern.search(text)))


@functools.lru_cache(maxsize=256)
def _hidden_pattern(terms: frozenset[str]) -> re.Pattern[str]:
    """One expression for all hidden names, longest first; made once per set of names
    (a turn's report asks it of every event and every order file)."""
    words = sorted(terms, key=lambda t: (-len(t), t))
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(t) for t in words) + r")(?!\w)")
