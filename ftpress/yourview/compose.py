"""The order file the "Your view" page writes from a player's picks, and the choices it
offers them, each kept only where ftpress's own check accepts it.

:func:`written` writes the file exactly as the page's script does
(``static/your-view.js``), from :mod:`ftpress.rules.choices`: the tests and
:func:`legal_choices` judge what the page would write, not a copy of it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ftpress import rules
from ftpress.orders.every_problem import Judged, judge
from ftpress.orders.load import orders_path
from ftpress.rules.choices import (
    GROUPED,
    LIST,
    Assign,
    Assignments,
    Choice,
    GroupChoices,
    ItemChoices,
    OrderChoices,
    Section,
)
from ftpress.rules.ruleset import Ruleset
from ftpress.state.model import State
from ftpress.state.turns import turn_id

#: A group's picks in the form: the index of its order, of its posture, of its extra.
Pick = tuple[int, int, int]
#: The picks of the tables of a group (by its id) or of the file (""): table index →
#: the option picked for each item (an item left out picks its first, nothing).
Tables = Mapping[str, Mapping[int, Sequence[int]]]
#: An item added: its kind's id, and each field's value (an option's index, a number,
#: a text).
Item = tuple[str, Mapping[str, int | str]]


def table_lines(table: Assignments, picks: Sequence[int]) -> list[str]:
    """The lines a table writes for these picks: one for each field picked, in the
    order of ``table.forms``."""
    chosen = [(item.key, item.options[pick].lines) for item, pick
              in zip(table.items, [*picks, *[0] * (len(table.items) - len(picks))],
                     strict=True) if pick]
    lines = []
    for field, form in table.forms:
        found = [(key, value[1] if len(value) > 1 else "") for key, value in chosen
                 if value and value[0] == field]
        if not found:
            continue
        if form == LIST:
            lines.append(f"{field}: [{', '.join(key for key, _ in found)}]")
        elif form == GROUPED:
            by_value: dict[str, list[str]] = {}
            for key, value in found:
                by_value.setdefault(value, []).append(key)
            parts = [f"{value}: [{', '.join(keys)}]" for value, keys in by_value.items()]
            lines.append(f"{field}: {{{', '.join(parts)}}}")
        else:
            parts = [f"{key}: {value}" for key, value in found]
            lines.append(f"{field}: {{{', '.join(parts)}}}")
    return lines


def item_lines(items: ItemChoices, added: Sequence[Item]) -> dict[str, list[str]]:
    """Each section's lines for the items added (a counter's id numbered in the file's
    order); an item with a field left empty writes nothing."""
    kinds = {kind.id: kind for kind in items.kinds}
    count = 0
    found: dict[str, list[str]] = {section.id: [] for section in items.sections}
    for section in items.sections:
        for kind_id, given in added:
            kind = kinds[kind_id]
            if kind.section != section.id:
                continue
            values: dict[str, str] = {}
            for field in kind.fields:
                value = given.get(field.key)
                if field.options:
                    values[field.key] = field.options[int(value or 0)].lines[0]
                elif field.number:
                    if not isinstance(value, int) or value <= 0:
                        break
                    values[field.key] = str(value)
                else:
                    text = str(value or "").strip()
                    if not text:
                        break
                    values[field.key] = json.dumps(text, ensure_ascii=False)
            else:
                if any("${id}" in line for line in kind.lines):
                    count += 1
                    values["id"] = f"{items.counter_prefix}{count}"
                for line in kind.lines:
                    for key, value in values.items():
                        line = line.replace(f"${{{key}}}", value)
                    found[section.id].append(line)
    return found


def sums_over(items: ItemChoices, added: Sequence[Item]) -> list[str]:
    """The sums of ``items.limits`` that the items added take past a limit that blocks
    (the page will not seal), added up as the page's script adds them: each kind's
    ``adds`` (a number times its rate, rounded up) and each picked option's."""
    kinds = {kind.id: kind for kind in items.kinds}
    sums: dict[str, int] = {}
    for kind_id, given in added:
        kind = kinds[kind_id]
        values = {f.key: f.options[int(given.get(f.key) or 0)].lines[0]
                  for f in kind.fields if f.options}
        for amount in kind.adds:
            name = amount.sum
            for key, value in values.items():
                name = name.replace(f"${{{key}}}", value)
            if amount.field is None:
                sums[name] = sums.get(name, 0) + amount.amount
            elif isinstance(n := given.get(amount.field), int) and n > 0:
                sums[name] = sums.get(name, 0) - (-n * amount.rate[0] // amount.rate[1])
        for f in kind.fields:
            if f.options:
                for key, n in f.options[int(given.get(f.key) or 0)].adds:
                    sums[key] = sums.get(key, 0) + n
    over = []
    for limit in items.limits:
        most = sums.get(limit.most_of, 0) if limit.most_of is not None else limit.most
        if limit.blocks and most is not None and sums.get(limit.sum, 0) > most:
            over.append(limit.sum)
    return over


def written_items(items: ItemChoices, added: Sequence[Item]) -> str:
    """A turn of items alone (a set-up): the file the page writes."""
    lines = list(items.header)
    for section, body in zip(items.sections, item_lines(items, added).values(), strict=True):
        lines += _section(section, body)
    return "\n".join([*lines, *items.footer]) + "\n"


def _section(section: Section, body: list[str]) -> list[str]:
    """A block of items: its key line (if it has one) and theirs, or its empty line (if
    it has one)."""
    if body:
        return [section.key, *body] if section.key else body
    return [section.empty] if section.empty else []


def written(choices: OrderChoices, picked: Mapping[str, Pick], tables: Tables | None = None,
            added: Sequence[Item] = ()) -> str:
    """The order file the page writes from these picks (group id → its picks; the
    others hold, nothing extra), as :mod:`ftpress.rules.choices` says: the file's own
    tables; the lines each choice names, under its group, then its tables'; a group
    taken in by another's merge, or attached by the file's table, left out (in the
    file's order: a group taken in takes in none itself); then the economic items
    added, if any."""
    tables = tables or {}

    def pick(group: GroupChoices) -> Pick:
        return picked.get(group.id, (0, 0, 0))

    absorbed: dict[str, str] = {}  # in file order; a group taken in takes in none
    for index, table in enumerate(choices.assignments):  # an independent attached
        picks = tables.get("", {}).get(index, ())
        for item, chosen in zip(table.items, picks, strict=False):
            for other in item.options[chosen].absorbs:
                absorbed.setdefault(other, item.key)
    for group in choices.groups:
        if group.extras and group.id not in absorbed:
            for other in group.extras[pick(group)[2]].absorbs:
                absorbed.setdefault(other, group.id)
    kept = [g for g in choices.groups if g.id not in absorbed]
    lines = [*choices.header]
    for index, table in enumerate(choices.assignments):
        lines += table_lines(table, tables.get("", {}).get(index, ()))
    lines.append(f"{choices.groups_key}:" if kept else f"{choices.groups_key}: {{}}")
    for group in kept:
        order, posture, extra = pick(group)
        choice = group.orders[order]
        body = [*choice.lines,
                *(choices.postures[posture].lines if choice.needs_posture else ()),
                *(group.extras[extra].lines if group.extras else ())]
        for index, table in enumerate(group.assignments):
            body += table_lines(table, tables.get(group.id, {}).get(index, ()))
        lines.append(f"  {group.id}:" if body else f"  {group.id}: {{}}")
        lines += [f"    {line}" for line in body]
    if choices.economy is not None and added:
        sections = item_lines(choices.economy, added)
        if any(sections.values()):
            lines += choices.economy.header
            for section in choices.economy.sections:
                lines += _section(section, sections[section.id])
    return "\n".join(lines) + "\n"


def legal_choices(known: State, player: str) -> OrderChoices | ItemChoices | None:
    """The ruleset's choices for ``player`` (:mod:`ftpress.rules.choices`), each group's
    kept where the ruleset's own check accepts it given alone, and each extra (a merge)
    and each option of its tables (a ship split off, a ship's part in battle) with the
    orders it is accepted with; each option of the file's own tables kept where it is
    accepted with every group holding: the form then offers nothing the check would
    refuse for itself (a ruleset offers what may apply; its check, which the turn runs,
    has the last word); each with what it will do in the check's words. Items (a
    set-up's, the economic orders) are the ruleset's to offer: it keeps the options its
    check's own tests accept."""
    ruleset = rules.find_ruleset(known.campaign.ruleset)
    choices = ruleset.order_choices(known, player) if ruleset.order_choices else None
    if not isinstance(choices, OrderChoices):
        return choices
    judging = _Judging(known, player, choices, ruleset)
    own = []
    for t, table in enumerate(choices.assignments):
        kept = _table(table, functools.partial(judging.file_option, table=t))
        if kept is not None:
            own.append(kept)
    return dataclasses.replace(choices, groups=tuple(judging.group(g) for g in choices.groups),
                               assignments=tuple(own))


class _Judging:
    """The check run on the files the page would write, one pick at a time."""

    def __init__(self, known: State, player: str, choices: OrderChoices,
                 ruleset: Ruleset[Any]) -> None:
        self.known, self.choices, self.ruleset = known, choices, ruleset
        self.path = orders_path(turn_id(known.campaign.calendar.turn), player)
        # What each choice will do: the lines of the file's description that the file
        # with every group holding does not have (the check's own words).
        self.held = set(self.judged({}).described or ())

    def judged(self, picked: Mapping[str, Pick], tables: Tables | None = None) -> Judged:
        return judge(written(self.choices, picked, tables).encode(), self.path, self.ruleset,
                     self.known)

    def said(self, found: Judged, before: set[str] | None = None) -> str:
        before = self.held if before is None else before
        return " ".join(line for line in found.described or () if line not in before)

    def file_option(self, option: Choice, item: int, pick: int, table: int) -> Choice | None:
        found = self.judged({}, {"": {table: _one(item, pick)}})
        return None if found.problems else dataclasses.replace(option, words=(self.said(found),))

    def group(self, group: GroupChoices) -> GroupChoices:
        """The group's orders the check accepts alone (the first, holding, always), one
        for each posture where it takes one; then its extras and tables' options, each
        with the orders it is accepted with."""
        kept: list[Choice] = []
        kept_from: list[int] = []  # the index each kept order had
        alone: list[set[str]] = []  # the words of the file with each kept order
        for index, choice in enumerate(group.orders):
            found = self.judged({group.id: (index, 0, 0)})
            if index and found.problems:
                continue
            kept_from.append(index)
            alone.append(set(found.described or ()))
            words = (self.said(found), *(
                self.said(self.judged({group.id: (index, p, 0)}))
                for p in range(1, len(self.choices.postures)))) \
                if choice.needs_posture else (self.said(found),)
            kept.append(dataclasses.replace(choice, words=words))

        def with_orders(option: Choice, extra: int, tables: Tables) -> Choice | None:
            """The option with the kept orders it is accepted with (given as the
            group's ``extra``, or as its ``tables``' pick), and the words it adds to
            each order's (those of all of them); None where it is accepted with none."""
            allowed, lines = [], None
            for o, was in enumerate(kept_from):
                if option.with_orders is not None and was not in option.with_orders:
                    continue
                found = self.judged({group.id: (was, 0, extra)}, tables)
                if not found.problems:
                    allowed.append(o)
                    new = [line for line in found.described or () if line not in alone[o]]
                    lines = new if lines is None else [line for line in lines if line in new]
            return dataclasses.replace(option, with_orders=tuple(allowed),
                                       words=(" ".join(lines or ()),)) if allowed else None

        def table_option(option: Choice, item: int, pick: int, table: int) -> Choice | None:
            return with_orders(option, 0, {group.id: {table: _one(item, pick)}})

        extras = [group.extras[0], *(x for index, extra in enumerate(group.extras[1:], 1)
                                     if (x := with_orders(extra, index, {})) is not None)] \
            if group.extras else []
        tables = []
        for t, table in enumerate(group.assignments):
            found_table = _table(table, functools.partial(table_option, table=t))
            if found_table is not None:
                tables.append(found_table)
        return dataclasses.replace(group, orders=tuple(kept),
                                   extras=tuple(extras) if len(extras) > 1 else (),
                                   assignments=tuple(tables))


def _one(item: int, option: int) -> tuple[int, ...]:
    """A table's picks with ``option`` for item ``item`` and nothing for the rest."""
    return (*[0] * item, option)


def _table(table: Assignments, keep: Callable[[Choice, int, int], Choice | None]
           ) -> Assignments | None:
    """The table with each option ``keep(choice, item, option)`` accepts (as it
    returns it), items with none left out (they pick nothing, so they count toward
    what the table keeps); None where no item is left."""
    items: list[Assign] = []
    for i, item in enumerate(table.items):
        options = [item.options[0], *(found for j, option in enumerate(item.options[1:], 1)
                                      if (found := keep(option, i, j)) is not None)]
        if len(options) > 1:
            items.append(dataclasses.replace(item, options=tuple(options)))
    left_out = len(table.items) - len(items)
    return dataclasses.replace(table, items=tuple(items), keep=max(table.keep - left_out, 0)) \
        if items else None


def _targets_free(table: Assignments, chosen: list[tuple[Assign, Choice]]) -> bool:
    """An item named by a field not in ``table.chains`` picks nothing; a ``chains``
    field followed from item to item never comes back to where it started."""
    named = {option.lines[1] for _, option in chosen
             if len(option.lines) > 1 and option.lines[0] not in table.chains}
    if any(item.key in named for item, _ in chosen):
        return False
    links = {item.key: option.lines for item, option in chosen}
    for item, option in chosen:
        if option.lines[0] in table.chains:
            seen, at = {item.key}, option.lines[1]
            while at in links and links[at][0] == option.lines[0] and at not in seen:
                seen.add(at)
                at = links[at][1]
            if at == item.key:
                return False
    return True


def table_allows(table: Assignments, picks: Sequence[int], order: int | None = None) -> bool:
    """Whether the page lets these picks of a table stand together (as the page's script
    decides, from the table's data alone): each option offered with the group's
    ``order`` (a file's own table: any), at least ``keep`` items picking nothing, an
    item another names picking nothing (but along a ``chains`` field, which may not
    loop), and no two items giving one value of a ``distinct`` field."""
    chosen = [(item, item.options[pick]) for item, pick in zip(table.items, picks, strict=False)
              if pick]
    if order is not None and any(option.with_orders is not None
                                 and order not in option.with_orders for _, option in chosen):
        return False
    if len(table.items) - len(chosen) < table.keep:
        return False
    if table.free_targets and not _targets_free(table, chosen):
        return False
    values = [option.lines for _, option in chosen if option.lines[0] in table.distinct]
    return len(values) == len(set(values))
