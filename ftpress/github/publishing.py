"""What the publishing run needs of a resolved (or paused) turn beyond the record:
the next deadline by the campaign's calendar policy, the commit message, and
the Markdown for the umpires' issue and the job summary about battles fought on
the tabletop: which wait (the issue is opened or updated), and once the turn is
resolved, how each ended (the comment the issue is closed with).

**The calendar policy.** The rules open the next turn ``turn_days`` after the
last deadline. When a turn is resolved long after its deadline (the calendar
lags: nobody ran the turn for weeks), that deadline would be past already and
the next scheduled run would resolve an empty turn, and the next, one per run.
So once a turn is resolved, the deadline of the turn it opens is set by
``calendar.next_deadline``: ``on-schedule`` (the default) moves it on by whole
``turn_days`` to the first deadline still ahead, keeping its weekday and time;
``after-resolution`` makes it ``turn_days`` after the moment of resolution.
The change is written to ``state/campaign.yaml`` after the turn's record, as an
umpire's edit would be, so the record re-resolves exactly and the next turn's
record keeps the state it started from.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from ftpress.files.config import load_config
from ftpress.secrecy.twins import TWIN
from ftpress.state import words
from ftpress.state.battle_results import BATTLES_DIR, battle_id
from ftpress.state.events import Event
from ftpress.state.model import Calendar
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.store import open_with
from ftpress.store.campaign import load_state
from ftpress.store.state_edits import write_state_file
from ftpress.text import durations
from ftpress.turn.resolve import TurnResult
from ftpress.turn.window import SetAside


def next_deadline(calendar: Calendar, resolved_at: datetime) -> datetime:
    """The open turn's deadline by the calendar policy, for a turn resolved at
    ``resolved_at`` (``calendar`` is the one the rules opened it with)."""
    step = timedelta(days=calendar.turn_days)
    if calendar.next_deadline == "after-resolution":
        return (resolved_at + step).replace(second=0, microsecond=0).astimezone(
            calendar.deadline.tzinfo)
    deadline = calendar.deadline
    if deadline > resolved_at:
        return deadline
    behind = (resolved_at - deadline) // step + 1
    return deadline + behind * step


def keep_to_the_calendar(root: Path, result: TurnResult, resolved_at: datetime,
                         ) -> tuple[TurnResult, str | None]:
    """Set the open turn's deadline by the policy, if it differs from the rules': the
    result with the state as it now stands, and a note saying so (None if unchanged)."""
    if not result.written or result.waiting:
        return result, None
    calendar = result.state.campaign.calendar
    wanted = next_deadline(calendar, resolved_at)
    if wanted == calendar.deadline:
        return result, None
    state = dataclasses.replace(result.state, campaign=dataclasses.replace(
        result.state.campaign, calendar=dataclasses.replace(calendar, deadline=wanted)))
    write_state_file(root, state, "campaign")
    policy = calendar.next_deadline or "on-schedule"
    return dataclasses.replace(result, state=state), (
        f"{turn_id(calendar.turn)}'s orders are due {durations.utc(wanted)}, not "
        f"{durations.utc(calendar.deadline)}, which had passed when {result.turn} was "
        f"resolved (calendar.next_deadline: {policy})")


def commit_message(result: TurnResult) -> str | None:
    """'Turn 7 (t007) resolved: 26 events, 1 battle'; for a pause, which battles wait;
    None when nothing was written."""
    number = turn_number(result.turn)
    if result.waiting:
        count = len(result.waiting)
        return (f"Turn {number} ({result.turn}) paused: {count} battle"
                f"{'s' if count != 1 else ''} to fight on the tabletop\n\n"
                + "\n".join(result.waiting) + "\n")
    if not result.written:
        return None
    events = len(result.public_events)
    battles = sum(1 for e in result.public_events if e.kind == "battle")
    said = f"{events} event{'s' if events != 1 else ''}"
    if battles:
        said += f", {battles} battle{'s' if battles != 1 else ''}"
    return f"Turn {number} ({result.turn}) resolved: {said}\n"


def battles_markdown(root: Path, turn: str, waiting: Sequence[str],
                     link: str | None = None) -> str | None:
    """For the umpires, in public (an issue, a job summary): each battle of ``turn`` that
    waits (its result file, as committed), the forces that meet where everyone may read
    them (an open campaign's plain file), and a link to the file (``link``: where the
    files are read online, such as ``https://github.com/OWNER/REPO/blob/main/``). A
    sealed file's forces are the umpires' (real ids, every ship): the text says only how
    to open it. None when no battle waits."""
    if not waiting:
        return None
    store = open_with(root)  # what everyone reads: no key
    count = len(waiting)
    out = [f"## {turn} waits for {count} battle{'s' if count != 1 else ''} fought on "
           "the tabletop", "",
           "Fill in each file (every ship's fate, who withdrew, who holds the field), set "
           "`fought: true` and commit it to main: the next publishing run resolves the turn."]
    for path in waiting:
        name = f"[`{path}`]({link}{path})" if link else f"`{path}`"
        out += ["", f"### {name}", ""]
        shown = store.public_battle(path)
        out += [f"- {line}" for line in _forces(shown)] if shown is not None else [
            f"- sealed to the umpires: `ftpress battles open {turn}` writes it in plain "
            f"beside (git-ignored) with the umpire's key; once it is filled in, `ftpress "
            f"battles seal {turn}` seals it again, and the sealed file is committed"]
    return "\n".join(out) + "\n"


def _forces(raw: bytes) -> list[str]:
    """'nac: Lancer (nac-1, lancer-class), …' per power, from a battle-result file."""
    data: Any = yaml.safe_load(raw.decode("utf-8"))
    ships: Sequence[dict[str, Any]] = data.get("ships") or [] if isinstance(data, dict) else []
    by_power: dict[str, list[str]] = {}
    for ship in ships:
        by_power.setdefault(str(ship.get("player")), []).append(
            f"{ship.get('ship')} ({ship.get('group')}, {ship.get('design')})")
    return [f"{power}: {', '.join(names)}" for power, names in by_power.items()]


#: What a battle's public events tell of how it ended, after the battle event itself.
_OUTCOME_KINDS = ("ship-lost", "prize", "withdrawal", "crippled")


def fought_markdown(root: Path, turn: str, link: str | None = None) -> str | None:
    """Once ``turn`` is resolved: the battles it waited for on the tabletop (the result
    files its record keeps, plain or sealed, linked with ``link`` as in
    :func:`battles_markdown`), how each ended as its public events tell it (who holds
    the field, the ships lost and taken, who jumped out, never where to: ftc2007
    §18.4), and where its report is. None when the turn was resolved without a
    tabletop battle."""
    folder = root / TURNS_DIR / turn / BATTLES_DIR
    files = sorted(folder.glob("*.yaml*")) if folder.is_dir() else []
    names = {file.name.removesuffix(TWIN): file.name for file in files
             if file.name.removesuffix(TWIN).endswith(".yaml")}
    if not names:
        return None
    store = open_with(root)  # what everyone reads: no key
    events = [e for e in store.events_of(f"{TURNS_DIR}/{turn}") if e.audience.public]
    count = len(names)
    report = f"{load_config(root).base_url}turns/{turn}/"
    out = [f"## {turn} is resolved: its {words.plural(count, 'battle')} fought on the "
           f"tabletop {'are' if count != 1 else 'is'} in", "",
           f"The turn's report: {report}", ""]
    for plain, kept in sorted(names.items()):
        path = f"{TURNS_DIR}/{turn}/{BATTLES_DIR}/{kept}"
        name = f"[`{path}`]({link}{path})" if link else f"`{path}`"
        out.append(f"- {name}: {_outcome(events, plain.removesuffix('.yaml'))}")
    return "\n".join(out) + "\n"


def _outcome(events: Sequence[Event], battle: str) -> str:
    """'The battle at Lumen, fought on the tabletop: the FSE holds the field. Sa'Vasku's
    Keen is destroyed. …': the battle's public event, then those that follow it at its
    place telling a ship lost or taken, or a force jumping out."""
    said: list[str] = []
    at = None
    for event in events:
        if not said:
            if event.kind == "battle" and event.at is not None and \
                    battle_id(event.at) == battle:
                said, at = [event.text], event.at
            continue
        if event.at != at:
            break
        if event.kind in _OUTCOME_KINDS:
            said.append(event.text)
    return " ".join(said) if said else "its result is in the turn's report."


def set_aside_message(moved: Sequence[SetAside]) -> str:
    """The commit message's paragraph on order files set aside (with the turn's
    message above it, or alone when nothing else was done)."""
    count = len(moved)
    lines = [f"{words.plural(count, 'order file')} set aside: landed after "
             f"{'its turn' if count == 1 else 'their turns'} closed", ""]
    lines += [f"{item.path} -> {item.to}" + (" (the version in time put back)"
                                              if item.restored else "") for item in moved]
    return "\n".join(lines) + "\n"


def set_aside_comment(item: SetAside, link: str | None = None) -> str:
    """For the pull request that brought in an order file set aside: what happened to
    it and why (``link`` as in :func:`battles_markdown`)."""
    kept = f"[`{item.to}`]({link}{item.to})" if link else f"`{item.to}`"
    restored = (f" The version of `{item.path}` that was on main in time is back in its "
                "place, and counts." if item.restored else "")
    return (f"The publishing run set `{item.path}` aside: {item.reason}. It is kept as "
            f"{kept}, and takes no part in the turn.{restored} Orders for the turn open now "
            "go in a new pull request.\n")


def views_markdown(root: Path, turn: str) -> str | None:
    """Once ``turn`` is resolved in a sealed campaign: the comment that tells each player
    their own report is in, mentioning each by their GitHub login (a mention notifies
    them), with the link to the site's "Your view" page, where it opens with their key.
    Nothing of any report: whose are sealed is public already (the roster's
    recipients). None in an open campaign, or where no player has a recipient: whose
    report is sealed to them, the campaign's store says.

    Its first line marks its turn (``<!-- ftpress:views:t004 -->``): a comment of the
    bot's with that mark is the record that it went out, so the publishing run posts it
    once, whichever run first finds it unposted."""
    store = open_with(root)  # the roster is public: no key is needed
    loaded = store.state()
    if loaded is None:
        return None
    players = {player for player, _ in store.keyed_players(loaded.state)}
    keyed = [p for p in loaded.state.players.players if p.id in players]
    if not keyed:
        return None
    link = f"{load_config(root).base_url}you/"
    who = ", ".join(f"@{p.github} ({p.id})" if p.github else p.id for p in keyed)
    return (f"{VIEWS_MARK.format(turn=turn)}\n## {turn} is resolved: your own report is in\n\n"
            f"{who}: open {link} and give "
            "it your key (it never leaves your browser) to read what the turn did to you, "
            "and to seal your orders for the next turn there.\n")


#: The first line of a turn's comment to the players (:func:`views_markdown`).
VIEWS_MARK = "<!-- ftpress:views:{turn} -->"


def latest_resolved(root: Path) -> str | None:
    """The last turn resolved and recorded (``t004``), or None before the first. A turn
    paused for tabletop battles is not resolved yet: the one before it is the last."""
    loaded = load_state(root)
    if loaded is None or loaded.state.campaign.calendar.turn < 2:
        return None
    turn = turn_id(loaded.state.campaign.calendar.turn - 1)
    return turn if (root / TURNS_DIR / turn / "turn.yaml").is_file() else None


@dataclass(frozen=True, slots=True)
class WorkflowFiles:
    """Where the publishing run's steps read what ``ftpress turn --if-due`` did (each
    None where the step is not run)."""

    commit_message: Path | None = None
    views_comment: Path | None = None
    battles_outcome: Path | None = None
    battles_report: Path | None = None
    #: The site's address, for the links in comments.
    link: str | None = None

    def clear(self, *more: Path | None) -> None:
        """Remove the files (and ``more``) an earlier run left: they say nothing now."""
        for out in (self.commit_message, self.views_comment, self.battles_outcome,
                    self.battles_report, *more):
            if out is not None:
                out.unlink(missing_ok=True)


def write_set_aside(out: Path | None, moved: Sequence[SetAside], link: str | None) -> None:
    """The order files set aside, as JSON for the step that comments on their pull
    requests."""
    if out is None or not moved:
        return
    out.write_text(json.dumps(
        [{"path": item.path, "to": item.to, "commit": item.commit,
          "comment": set_aside_comment(item, link)} for item in moved]) + "\n",
        encoding="utf-8")


def write_workflow_files(root: Path, result: TurnResult | None, moved: Sequence[SetAside],
                         files: WorkflowFiles) -> None:
    """What the publishing run's later steps need of the turn (None: no turn was due):
    its commit message, the battles' outcome and report for the umpires' issue, and
    the comment to each player of the last turn resolved, by this run or an earlier
    one (a run cancelled before it posted its comment leaves it to the next: the
    comment's mark says whether it went out)."""
    message = None if result is None else commit_message(result)
    if moved:
        aside = set_aside_message(moved)
        message = aside if message is None else f"{message.rstrip()}\n\n{aside}"
    if files.commit_message is not None and message is not None:
        files.commit_message.write_text(message, encoding="utf-8")
    if files.views_comment is not None and (turn := latest_resolved(root)) is not None and \
            (views := views_markdown(root, turn)) is not None:
        files.views_comment.write_text(views, encoding="utf-8")
    if result is None:
        return
    if files.battles_outcome is not None and (result.waiting or result.written):
        if result.waiting:
            files.battles_outcome.write_text(f"paused={result.turn}\n", encoding="utf-8")
        elif fought_markdown(root, result.turn) is not None:
            files.battles_outcome.write_text(f"fought={result.turn}\n", encoding="utf-8")
    if result.waiting:
        report = battles_markdown(root, result.turn, result.waiting, files.link)
    elif result.written:  # resolved now: with tabletop results, the umpires' issue is done
        report = fought_markdown(root, result.turn, files.link)
    else:
        report = None
    if files.battles_report is not None and report is not None:
        files.battles_report.write_text(report, encoding="utf-8")
