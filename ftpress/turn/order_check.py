"""The order files as ``ftpress check`` sees them: invalid ones (syntax), illegal ones
(against the current state, by the campaign's ruleset), and what each clean file of
the open turn will do, in plain words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from ftpress import rules
from ftpress.errors import InputError, Problem, UnknownRuleset
from ftpress.files import yamlsource
from ftpress.files.nolinks import links_below
from ftpress.files.wanted import asked_about
from ftpress.orders.every_problem import judge_parsed
from ftpress.orders.load import InvalidOrder, folded_problem, read_orders, stray_problem
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.load import LoadedState
from ftpress.state.model import PUBLIC_KNOWLEDGE, State
from ftpress.state.turns import TURNS_DIR, turn_id
from ftpress.store import CampaignStore
from ftpress.store.campaign import load_state as load_campaign_state
from ftpress.store.kept_names import NEEDS_KEY

#: What ``ftpress check`` says of a plain order file of a sealed campaign, checked with
#: no key: the state it can read is the public's, which does not show the player's ships.
NEEDS_OWN_VIEW = ("its form is checked; its orders are checked against what you know by "
                  "'ftpress orders seal FILE --identity KEY'")


def check_orders(store: CampaignStore, wanted: set[str] | None = None,
                 known: LoadedState | None = None,
                 ) -> tuple[list[Problem], list[tuple[str, list[str]]]]:
    """Every problem in the campaign's order files (or the ``wanted`` ones), and a
    plain-words summary of each clean file for the open turn.

    Syntax mistakes are invalid orders; against the current state, the ruleset
    finds illegal ones. Orders of a recorded turn are checked for syntax only:
    they were legal against the state of their day. ``known``: the state to check
    against (the player's own view of a sealed campaign, or the umpire's), instead of
    ``state/`` as it reads; a sealed campaign's plain files hold only what the public
    knows, so against them the orders' form alone is checked. A sealed order file is
    checked as the store takes it (with no key: its form and recipients).
    """
    root = store.root
    base = root / "orders"
    if not base.is_dir():
        return [], []
    paths = sorted(p.relative_to(root).as_posix() for p in base.rglob("*")
                   if p.is_file() and not any(part.startswith(".") for part in p.parts))
    if wanted is not None:
        paths = [p for p in paths if asked_about(p, wanted)]
    problems: list[Problem] = links_below(base, "orders")  # rglob passes over linked folders
    summaries: list[tuple[str, list[str]]] = []
    try:
        loaded_state = known if known is not None else load_campaign_state(root)
    except InputError:
        loaded_state = None  # the state's own problems are reported by the state check
    adapter = _orders_adapter(root, loaded_state.state if loaded_state else None)
    for rel in paths:
        if rel.endswith(".md"):
            continue  # a README for the players
        resealed = store.resealed_problems(rel)
        if resealed is not None:  # the receipts of files sealed again (keys rotate): their form
            problems.extend(resealed)
            continue
        found_sealed = store.sealed_order_problems(rel, loaded_state.state) \
            if loaded_state is not None else None
        if found_sealed is not None:
            problems.extend(found_sealed)
            if not found_sealed:
                summaries.append((rel, [NEEDS_KEY]))
            continue
        stray = stray_problem(rel)
        if stray is not None:
            problems.append(stray)
            continue
        if adapter is None:
            # The campaign names no ruleset ftpress knows (the state's check says so):
            # the files are in that ruleset's format, so only their place is checked.
            continue
        invalid = False
        try:
            loaded = read_orders(root, rel, adapter)
        except InvalidOrder as exc:
            problems.extend(exc.problems)
            if exc.partial is None:
                continue
            # What is right in form is still checked: one mistake hides no other.
            loaded, invalid = exc.partial, True
        if loaded_state is None:
            continue
        state = loaded_state.state
        open_turn = turn_id(state.campaign.calendar.turn)
        folder = rel.split("/")[1]
        if folder != open_turn:
            if invalid:
                continue
            if not (root / TURNS_DIR / folder).is_dir():
                problems.append(Problem(rel, 0, 0, f"orders for {folder}, but the turn open "
                                        f"for orders is {open_turn}"))
            elif (folded := folded_problem(root, loaded)) is not None:
                problems.append(folded)
            continue
        if state.campaign.known_to == PUBLIC_KNOWLEDGE:
            if not invalid:
                summaries.append((rel, [NEEDS_OWN_VIEW]))
            continue
        # The form's problems are in already: the rest is judged as check-pr judges it.
        judged = judge_parsed(loaded, rules.find_ruleset(state.campaign.ruleset), state)
        problems.extend(judged.problems)
        if judged.described is not None and not invalid:
            summaries.append((rel, list(judged.described)))
    return problems, summaries


def _orders_adapter(root: Path, state: State | None) -> TypeAdapter[Any] | None:
    """The order format of the campaign's ruleset (None: it names no ruleset ftpress
    knows). A state with problems elsewhere still names its ruleset, so its order
    files are not read in another ruleset's format."""
    name = state.campaign.ruleset if state is not None else _ruleset_named(root)
    try:
        return rules.find_ruleset(name).orders_adapter if name else None
    except UnknownRuleset:
        return None


def _ruleset_named(root: Path) -> str | None:
    """The ``ruleset`` of ``state/campaign.yaml`` as written, if it can be read."""
    rel = f"{STATE_DIR}/{KINDS['campaign'].file}"
    try:
        data = yamlsource.parse(yamlsource.read_text(root / rel, rel), rel)
    except (InputError, OSError):
        return None
    name = data.get("ruleset") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None
