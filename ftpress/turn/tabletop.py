"""A turn that waits for battles fought on the tabletop: the battle-result files the
umpire fills in, written once, pre-filled with the forces that meet."""

from __future__ import annotations

import json
from collections.abc import Mapping

from ftpress.state.battle_results import LoadedBattle, battle_id, battle_path
from ftpress.state.events import Event
from ftpress.state.hexes import Hex
from ftpress.state.model import Point, State
from ftpress.store import CampaignStore

#: What the umpire fills in, as the battle-result template explains it.
_FILL_IN = (
    "#   ships     each ship's 'damage' (hull boxes lost in this battle, at most its",
    "#             'hull') and 'fate': afloat, destroyed, or drifting (a hulk, taken",
    "#             as a prize by whoever holds the field, §12)",
    "#   withdrew  each power that jumped out and where to: [{player: nac, to: corvid}]")
#: The same on a planar map (sct): no hull boxes, no hulks, no withdrawal.
_PLANAR_FILL_IN = (
    "#   ships     each ship's 'fate': afloat, crippled or destroyed (sct §6.4)",
    "#   withdrew  leave it empty: no force moves after an sct battle")


def write_templates(store: CampaignStore, turn: str, state: State, waiting: list[Event],
                    ) -> tuple[str, ...]:
    """The battle-result file of each battle ``waiting`` for the table, as committed (the
    store's :meth:`~ftpress.store.CampaignStore.battle_kept_as`): one not written yet is
    written through the store; an unfinished one is left as the umpire has it."""
    paths = []
    for event in waiting:
        assert event.at is not None
        battle = battle_id(event.at)
        path = battle_path(turn, battle)
        kept = store.battle_kept_as(path)
        paths.append(kept)
        if not (store.root / kept).is_file():
            store.write_battle_template(state, path, battle_template(
                turn, battle, event, state, store.base_url).encode("utf-8"))
    return tuple(paths)


def battle_template(turn: str, battle: str, event: Event, state: State,
                    base_url: str | None) -> str:
    """The battle-result file to fill in, pre-filled with the forces that meet."""
    at = event.at
    if isinstance(at, Hex):
        at_text = f"[{at.q}, {at.r}]"
    elif isinstance(at, Point):  # a planar map (sct)
        at_text = f"{{x: {at.x}, y: {at.y}}}"
    else:
        at_text = json.dumps(at)
    lines = []
    if base_url:
        lines.append(f"# yaml-language-server: $schema={base_url}schemas/battle.json")
    lines += [
        f"# {event.text}",
        "# Fill in, then set 'fought: true' and run `ftpress turn` again:",
        *(_PLANAR_FILL_IN if state.map.geometry == "plane" else _FILL_IN),
        "#   held_by   the power left holding the field (empty: nobody)",
        f"turn: {turn}",
        f"battle: {battle}",
        f"at: {at_text}",
        f"players: [{', '.join(event.players)}]",
        "ships:",
    ]
    for group in state.groups.groups:
        if group.id not in event.groups:
            continue
        for ship in group.ships:
            design = state.design(ship.design)
            left = design.hull_boxes - ship.damage if design else 0
            lines.append(f"  - {{player: {group.owner}, group: {group.id}, ship: "
                         f"{json.dumps(ship.name, ensure_ascii=False)}, design: {ship.design}, "
                         f"hull: {left}, damage: 0, fate: afloat}}")
    lines += ["withdrew: []", "held_by:", "fought: false", ""]
    return "\n".join(lines)


def stray_battles(results: Mapping[str, LoadedBattle], events: tuple[Event, ...],
                  ) -> list[str]:
    """The battle-result files no battle of the turn's events was fought from."""
    fought = {e.order for e in events if e.kind == "battle" and e.order}
    return [loaded.path for loaded in results.values() if loaded.path not in fought]
