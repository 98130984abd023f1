"""Campaign state and T turns really resolved by the ftc2007 engine, for the benchmark corpus.

Everything is made by ftpress itself, so the corpus keeps to the formats and
rules as they change:

- ``init_campaign`` rolls a radius-R map for four players from the corpus's
  seed (setup, ``state/turns/t000``). The setup is then completed as an umpire
  would: each player's starting squadrons, bought out of the starting capital
  within §6, battles fought in the abstract (``settings.battles: abstract``,
  so that no turn ever pauses for a tabletop result) and the hash of the first
  turn's umpire secret published.
- Every turn, each player's orders are drawn from the current state with one
  ``random.Random`` seeded from the corpus's seed: groups hold, jump to a
  neighbouring hex or to a world within reach, travel along charted routes,
  head on the whole for a world they were sent against, and now and then
  arrive on attack (so battles and attacks on defences happen); in the first
  week of an economic turn, the upkeep level and, from economic turn 2, the
  odd purchase, keel and repair. The orders are vetted by the engine's own
  ``vet`` first, and anything it would refuse is dropped (that group holds),
  so the order files are clean. They go to ``orders/<turn-id>/<player>.yaml``
  and ``ftpress.turn.resolve.resolve_turn`` resolves the turn with the fixed umpire
  secret :data:`UMPIRE_SECRET`, writing the record ``state/turns/<turn-id>/``
  (events, dice, orders) and the new ``state/``. Where three powers meet and one
  attacks, the engine would send the battle to the table and wait; the corpus
  redraws that turn with those groups standing off
  (:data:`THREE_WAY_BATTLES_CALLED_OFF`; once in 100 turns with the defaults).

Same arguments, same corpus, byte for byte: the orders depend only on the seed
and the state, and the dice are keyed by the orders and the secret.

The turns are resolved in a scratch campaign holding only the current state
and the last snapshot (``resolve_turn`` loads every snapshot of the folder it
is given, which would make T turns cost T² loads); each record is moved into
the corpus as soon as the next turn is resolved.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import sys
import tempfile
from collections import Counter
from datetime import UTC, date, datetime, time
from pathlib import Path

# ftpress from this checkout, also when run as ``python bench/corpus.py``.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ftpress.creating.campaign import init_campaign
from ftpress.orders.load import parse_orders
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.orderfile import ADAPTER
from ftpress.rules.ftc2007.orders import WORLD_JUMP, economic_week, vet
from ftpress.rules.ftc2007.setup import SHIP_CAP
from ftpress.state.files import STATE_DIR
from ftpress.state.hexes import Hex, on_map
from ftpress.state.load import load_dice, load_state
from ftpress.state.model import Design, Group, GroupsFile, Ship, State, System
from ftpress.state.save import save_dice, save_state
from ftpress.state.turns import SETUP, TURNS_DIR, turn_id
from ftpress.store.secret import SECRET_ENV, secret_hash, turn_secret
from ftpress.turn.resolve import resolve_turn

PLAYERS = ("nac", "nsl", "fse", "esu")
#: The umpire's master secret the corpus's turns are resolved with. Fixed, so the
#: keyed dice (and with them the corpus) are the same for the same arguments.
UMPIRE_SECRET = "ftpress-benchmark-umpire"
#: The campaign's id: the folder ``ftpress init`` made it in.
CAMPAIGN_ID = "benchmark-reach"
#: Share of each player's starting capital spent on ships at setup, within §6's
#: cap on ship spending; the rest stays in the treasury for later purchases.
MUSTER_SHARE = 0.9
#: Each turn, the chance that a group moves (otherwise it holds).
MOVE_CHANCE = 0.6
#: The chance that a move follows a charted route when the group is on one.
ROUTE_CHANCE = 0.3
#: The chance that a move heads for the group's objective rather than anywhere.
OBJECTIVE_CHANCE = 0.7
#: The chance that a group arriving at, or holding in, another power's world is on
#: attack; elsewhere a move is on attack at a tenth of this.
ATTACK_CHANCE = 0.5
#: The chance that a group on its objective picks a new one.
NEW_OBJECTIVE_CHANCE = 0.5
#: In an economic week from economic turn 2: the chance of a purchase, of a keel, and
#: of repairing each damaged ship at one of the player's own worlds.
PURCHASE_CHANCE = 0.5
KEEL_CHANCE = 0.3
REPAIR_CHANCE = 0.6
#: Where three powers meet and one is on attack, the engine sends the battle to the
#: tabletop and the turn waits for its result. The corpus has nobody to fight it, so
#: the turn's orders are redrawn with every group of that battle standing off.
THREE_WAY_BATTLES_CALLED_OFF = True
#: Upkeep levels declared in economic weeks, with their weights.
UPKEEP = (("full", 6), ("reduced", 2), ("standardised", 1))


def _warships(navy: str) -> list[Design]:
    return [d for d in catalogue().of_navy(navy) if not d.freighter]


def _muster(state: State, rng: random.Random) -> State:
    """Each player's starting squadrons at its own worlds: ships bought at list
    price up to :data:`MUSTER_SHARE` of the capital (never above §6's cap), in
    groups of two to five, the treasury paying for them."""
    groups: list[Group] = []
    used: dict[str, Design] = {}
    players = []
    for player in state.players.players:
        designs = _warships(player.navy or player.id)
        worlds = sorted(s.id for s in state.worlds_of(player.id)) or [player.capital]
        budget = min(SHIP_CAP, int(player.treasury * MUSTER_SHARE))
        spent, n = 0, 0
        while True:
            size = rng.randint(2, 5)
            picks = [rng.choice(designs) for _ in range(size)]
            cost = sum(d.points for d in picks)
            if spent + cost > budget:
                break
            n += 1
            spent += cost
            ships = []
            for k, design in enumerate(picks, 1):
                used[design.id] = design
                ships.append(Ship(f"{design.name} {n}-{k}", design.id))
            groups.append(Group(f"{player.id}-{n}", player.id, rng.choice(worlds),
                                tuple(ships)))
        players.append(dataclasses.replace(player, treasury=player.treasury - spent))
    designs_file = dataclasses.replace(state.designs,
                                       designs=tuple(used[k] for k in sorted(used)))
    return dataclasses.replace(
        state, players=dataclasses.replace(state.players, players=tuple(players)),
        designs=designs_file, groups=GroupsFile(tuple(groups)))


def _complete_setup(state: State, rng: random.Random) -> State:
    """The setup as the umpire leaves it: forces mustered, battles abstract, the
    first turn's secret hash published."""
    state = _muster(state, rng)
    settings = dataclasses.replace(state.campaign.settings, battles="abstract")
    first = secret_hash(turn_secret(UMPIRE_SECRET.encode(), state.campaign.id,
                                    turn_id(state.campaign.calendar.turn)))
    calendar = dataclasses.replace(state.campaign.calendar, secret_sha256=first)
    return dataclasses.replace(state, campaign=dataclasses.replace(
        state.campaign, settings=settings, calendar=calendar))


# --- orders ---------------------------------------------------------------------------

class _Orders:
    """Draws each player's orders for the open turn from the state."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        #: Group id → the world it is heading for.
        self.objective: dict[str, str] = {}
        self.bought = 0
        #: Player → the vetted group orders (lines) and economic orders of the open turn.
        self.drafts: dict[str, tuple[dict[str, list[str]], dict[str, list[str]]]] = {}

    def _objective(self, state: State, group: Group) -> Hex:
        rng = self.rng
        target = state.system(self.objective.get(group.id, ""))
        here = state.hex_of(group.at)
        if target is None or (target.hex == here and rng.random() < NEW_OBJECTIVE_CHANCE):
            others = [s for s in state.map.systems if s.owner != group.owner]
            target = rng.choice(others or list(state.map.systems))
            self.objective[group.id] = target.id
        return target.hex

    def _reach(self, state: State, here: Hex, world: System | None) -> list[str | Hex]:
        """Every destination of a plain jump from ``here`` (§8.1)."""
        radius = state.map.radius
        found: list[str | Hex] = []
        for h in here.neighbours():
            if on_map(h, radius):
                w = state.system_at(h)
                found.append(w.id if w else h)
        if world is not None:
            found += [s.id for s in state.map.systems
                      if 1 < s.hex.distance(here) <= WORLD_JUMP]
        return found

    def _group_lines(self, state: State, group: Group) -> list[str]:
        rng = self.rng
        here = state.hex_of(group.at)
        assert here is not None
        world = state.system_at(here)
        goal = self._objective(state, group)
        if group.dummy or rng.random() >= MOVE_CHANCE:
            hostile = world is not None and world.owner not in (None, group.owner)
            if hostile and not group.dummy and rng.random() < ATTACK_CHANCE:
                return ["    hold: true", "    posture: attack"]
            return ["    hold: true"]
        lines: list[str] = []
        routes = [r for r in state.map.routes if world is not None and world.id in r.systems]
        if routes and rng.random() < ROUTE_CHANCE:
            route = rng.choice(routes)
            stops = [s for s in route.systems if s != world.id]  # type: ignore[union-attr]
            dest: str | Hex = rng.choice(stops)
            lines.append(f"    move: {dest}")
            lines.append(f"    route: {route.id}")
        else:
            choices = self._reach(state, here, world)
            if rng.random() < OBJECTIVE_CHANCE:
                best = min(_hex(state, c).distance(goal) for c in choices)
                choices = [c for c in choices if _hex(state, c).distance(goal) == best]
            dest = rng.choice(choices)
            lines.append(f"    move: {_yaml_place(dest)}")
        target = state.system(dest) if isinstance(dest, str) else None
        hostile = target is not None and target.owner not in (None, group.owner)
        if rng.random() < (ATTACK_CHANCE if hostile else ATTACK_CHANCE / 10):
            posture = "attack"
        else:
            posture = rng.choice(("stand-off", "stand-off", "withdraw-if-contested"))
        return [*lines, f"    posture: {posture}"]

    def _economy(self, state: State, player_id: str) -> dict[str, list[str]]:
        """The economic week's orders of one player, by kind (YAML flow items)."""
        rng = self.rng
        level = rng.choices([u for u, _ in UPKEEP], [w for _, w in UPKEEP])[0]
        found: dict[str, list[str]] = {"maintenance": [level]}
        if state.campaign.calendar.economic_turn < 2:
            return found
        player = state.player(player_id)
        assert player is not None
        worlds = sorted(s.id for s in state.worlds_of(player_id))
        designs = _warships(player.navy or player_id)
        if worlds and rng.random() < PURCHASE_CHANCE:
            self.bought += 1
            design = rng.choice(designs[:len(designs) * 2 // 3])
            found["purchases"] = [f"{{design: {design.id}, at: {rng.choice(worlds)}, "
                                  f"name: {json.dumps(f'{design.name} B{self.bought}')}}}"]
        if worlds and rng.random() < KEEL_CHANCE:
            self.bought += 1
            design = rng.choice(designs)
            found["keels"] = [f"{{design: {design.id}, at: {rng.choice(worlds)}, "
                              f"name: {json.dumps(f'{design.name} K{self.bought}')}}}"]
        repairs = []
        for group in state.groups_of(player_id):
            for ship in group.ships:
                if ship.damage and rng.random() < REPAIR_CHANCE:
                    repairs.append(f"{{group: {group.id}, ship: {json.dumps(ship.name)}, "
                                   f"boxes: {ship.damage}}}")
        if repairs:
            found["repairs"] = repairs
        return found

    def draw(self, state: State) -> dict[str, bytes]:
        """Every player's order file for the open turn, vetted clean, by player."""
        turn = turn_id(state.campaign.calendar.turn)
        self.drafts = {}
        for player in state.players.players:
            groups = {g.id: self._group_lines(state, g) for g in state.groups_of(player.id)}
            economy = self._economy(state, player.id) if economic_week(state) else {}
            self.drafts[player.id] = self._vetted(state, turn, player.id, groups, economy)
        return self.files(turn)

    def files(self, turn: str) -> dict[str, bytes]:
        return {player: _render(turn, player, *draft) for player, draft in self.drafts.items()}

    def calm(self, turn: str, groups: set[str]) -> dict[str, bytes]:
        """The order files again, with every one of ``groups`` standing off: the
        abstract combat is fought between two powers, and where three meet with
        one on attack the engine sends the battle to the table (and the turn
        waits), so the groups of such a battle are ordered not to attack
        (:data:`THREE_WAY_BATTLES_CALLED_OFF`)."""
        for group_lines, _ in self.drafts.values():
            for group_id in groups & set(group_lines):
                group_lines[group_id] = [
                    "    posture: stand-off" if line == "    posture: attack" else line
                    for line in group_lines[group_id]]
        return self.files(turn)

    def _vetted(self, state: State, turn: str, player: str, groups: dict[str, list[str]],
                economy: dict[str, list[str]],
                ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """The orders, after dropping whatever the engine's vetting refuses."""
        while True:
            data = _render(turn, player, groups, economy)
            loaded = parse_orders(data, f"orders/{turn}/{player}.yaml", ADAPTER)
            refused = vet(state, loaded).rejected
            if not refused:
                return groups, economy
            for r in refused:
                if r.loc[0] == "groups" and len(r.loc) > 1:
                    groups.pop(str(r.loc[1]), None)
                elif r.loc[0] == "economy" and len(r.loc) > 2:
                    kind, index = str(r.loc[1]), int(r.loc[2])  # type: ignore[call-overload]
                    items = economy.get(kind, [])
                    if index < len(items):
                        items[index] = ""
                elif r.loc[0] == "economy" and len(r.loc) == 2:
                    economy.pop(str(r.loc[1]), None)
                else:
                    economy.clear()
            economy = {k: [i for i in v if i] for k, v in economy.items()}
            economy = {k: v for k, v in economy.items() if v}


def _hex(state: State, place: str | Hex) -> Hex:
    found = state.hex_of(place)
    assert found is not None
    return found


def _yaml_place(place: str | Hex) -> str:
    return place if isinstance(place, str) else f"[{place.q}, {place.r}]"


def _render(turn: str, player: str, groups: dict[str, list[str]],
            economy: dict[str, list[str]]) -> bytes:
    lines = [f"turn: {turn}", f"player: {player}"]
    if groups:
        lines.append("groups:")
        for group_id, body in groups.items():
            lines += [f"  {group_id}:", *body]
    if economy:
        lines.append("economy:")
        for kind, items in economy.items():
            lines.append(f"  {kind}: {items[0]}" if kind == "maintenance" else
                         f"  {kind}: [{', '.join(items)}]")
    return ("\n".join(lines) + "\n").encode("utf-8")


# --- the turns ------------------------------------------------------------------------

def _move(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(source, target)


def write_turns(root: Path, turns: int, radius: int, seed: int, start: date,
                base_url: str) -> tuple[int, Counter[str]]:
    """``state/``, ``state/turns/t000`` … ``t<turns>`` and ``orders/`` in ``root``, each
    turn resolved by ftpress; returns the turns written and how many events of each
    kind they produced. ``root`` must hold the campaign's ``site.yaml``."""
    rng = random.Random(seed + 2)
    kinds: Counter[str] = Counter()
    environ = {SECRET_ENV: UMPIRE_SECRET}
    setup = f"{TURNS_DIR}/{SETUP}"
    with tempfile.TemporaryDirectory(prefix="ftpress-bench-") as tmp:
        made = Path(tmp) / CAMPAIGN_ID
        init_campaign(made, PLAYERS, now=datetime.combine(start, time(12, 0), UTC), seed=seed,
                      name="The Benchmark Reach", options=[f"radius={radius}"],
                      secrecy="open")  # the corpus's files are whole, in plain
        state = _complete_setup(load_state(made, setup).state, rng)
        setup_dice = load_dice(made, setup)
        work = Path(tmp) / "work"
        work.mkdir()
        shutil.copy(root / "site.yaml", work / "site.yaml")
        for folder in (setup, STATE_DIR):
            save_state(work, state, folder, base_url)
        save_dice(work, setup, setup_dice, base_url)
        orders = _Orders(rng)
        previous = setup
        for number in range(1, turns + 1):
            turn = turn_id(number)
            files = orders.draw(state)
            for _ in range(4):  # each retry calls off every battle the table waits for
                for player, data in files.items():
                    target = work / "orders" / turn / f"{player}.yaml"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
                result = resolve_turn(work, now=state.campaign.calendar.deadline,
                                      environ=environ)
                if not result.waiting:
                    break
                shutil.rmtree(work / "battles")
                files = orders.calm(turn, {g for e in result.events
                                           if e.kind == "battle-pending" for g in e.groups})
            assert result.written and result.turn == turn, result.summary()
            kinds.update(e.kind for e in result.events)
            state = result.state
            _move(work / previous, root / previous)
            previous = f"{TURNS_DIR}/{turn}"
        _move(work / previous, root / previous)
        for kind_file in sorted((work / STATE_DIR).glob("*.yaml")):
            _move(kind_file, root / STATE_DIR / kind_file.name)
        if (work / "orders").is_dir():
            _move(work / "orders", root / "orders")
    return turns, kinds
