"""What a turn reads besides the state: its order files, the battle results the
umpire filled in, and dice rolled by hand. Each reader reports every problem at once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import TypeAdapter

from ftpress.errors import InputError, Problem
from ftpress.files import yamlsource
from ftpress.orders.load import LoadedOrders, OrdersT, read_orders
from ftpress.secrecy.twins import TWIN
from ftpress.state.battle_results import BATTLES_DIR, LoadedBattle, battle_path, parse_battle
from ftpress.state.dice import SuppliedDice


def load_orders(root: Path, turn: str, adapter: TypeAdapter[OrdersT],
                ) -> dict[str, LoadedOrders[OrdersT]]:
    """Every order file of a turn, by player (the file's name); raises with every
    syntax mistake in any of them. ``adapter``: the ruleset's order format."""
    folder = root / "orders" / turn
    found: dict[str, LoadedOrders[OrdersT]] = {}
    problems: list[Problem] = []
    if folder.is_dir():
        for file in sorted(folder.iterdir()):
            if file.name.startswith(".") or file.suffix in (".md", ".age"):
                continue  # a README; a sealed file is opened by the sealed store
            rel = f"orders/{turn}/{file.name}"
            if not file.is_file() or file.suffix != ".yaml":
                problems.append(Problem(rel, 0, 0, "not an order file; expected "
                                        f"orders/{turn}/<player-id>.yaml"))
                continue
            try:
                found[file.stem] = read_orders(root, rel, adapter)
            except InputError as exc:
                problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return found


def read_supplied_dice(root: Path, path: Path) -> SuppliedDice:
    """``--dice FILE``: ``dice: [3, 6, 1, …]``, the dice rolled by hand, in order."""
    rel = str(path)
    data = yamlsource.parse(yamlsource.read_text(root / path if not path.is_absolute()
                                                 else path, rel), rel)
    values = data.get("dice") if isinstance(data, dict) else None
    if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise InputError([Problem(rel, 1, 1, "expected 'dice:' and a list of whole numbers, "
                                  "the dice rolled by hand in order, such as dice: [3, 6, 1]")])
    lines = [m[0] for m in getattr(values, "item_marks", [])] or None
    return SuppliedDice(values, rel, lines)


def load_battles(root: Path, turn: str, folder: str | None = None,
                 opened: Callable[[str], bytes] | None = None) -> dict[str, LoadedBattle]:
    """The battle-result files of a turn (``battles/<turn-id>/``, or the copies kept in
    ``folder``) that the umpire has filled in (``fought: true``), by battle id; raises
    with every problem. Each is named by its place under ``battles/``, as the turn's
    events name it, wherever it was read from. ``opened``: the files are sealed, each
    ``<battle-id>.yaml.age`` read through it (by its path) instead of the plain file."""
    base = root / (folder or f"{BATTLES_DIR}/{turn}")
    found: dict[str, LoadedBattle] = {}
    problems: list[Problem] = []
    tail = ".yaml" if opened is None else ".yaml" + TWIN
    if base.is_dir():
        for file in sorted(base.glob("*" + tail)):
            stem = file.name.removesuffix(tail)
            rel = battle_path(turn, stem)
            try:
                raw = yamlsource.read_bytes(file, rel) if opened is None else \
                    opened(file.relative_to(root).as_posix())
                loaded = parse_battle(raw, rel)
            except InputError as exc:
                problems.extend(exc.problems)
                continue
            if loaded.result.battle != stem:
                problems.append(loaded.problem(f"this file is named for battle {stem!r} "
                                               f"but says {loaded.result.battle!r}; expected "
                                               "the file name and 'battle:' to agree",
                                               "battle"))
            elif loaded.result.fought:
                found[stem] = loaded
    if problems:
        raise InputError(problems)
    return found
