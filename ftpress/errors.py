"""What ftpress tells a user who can put something right, as types of their own.

Every mistake a user can make or fix is a :class:`UserError`; the ``ftpress``
command prints its :meth:`~UserError.lines` and exits 1, with no traceback. Any
other exception is a bug in ftpress, and the command shows it as one. So a
``ValueError`` never tells a user anything: the functions that pydantic calls
as validators raise it because pydantic turns it into a located problem, and a
parse function such as :func:`ftpress.state.turns.turn_number` raises it as
``int()`` would; whoever hands them the user's text turns it into one of these.

- :class:`InputError`: invalid files. Every stage collects :class:`Problem`
  values instead of stopping at the first, and raises one ``InputError``
  holding all of them, each printed as ``path:line:col: message``; an order
  file's is :class:`ftpress.orders.load.InvalidOrder`.
- :class:`InvalidArgument`: a value on the command line (or in the
  environment, ``SOURCE_DATE_EPOCH``) not in the form expected.
- :class:`RefusedCommand`: the campaign is in a state in which the command
  will not do what was asked (a turn not yet due, a state edited since the
  last turn); nothing was done.
- :class:`SetupError`: a new campaign cannot be made as asked (an option out
  of range, a seed whose map the players cannot start from).
- :class:`UnknownRuleset`: a ruleset name no ruleset answers to.
- :class:`ToolFailed`: a program ftpress runs failed (git for ``check-pr``,
  Pagefind for the search index).

Orders the rules forbid (illegal, where an invalid order breaks the file's
form) are never raised: ``check`` and ``check-pr`` report them as located
problems (the rulesets' ``check_orders``), and a turn records each as a
``rejected`` event, the group holding instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from ftpress.text.logsafe import escape


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with one input file, at a line and column (1-based)."""

    path: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        """``path:line:col: message``, safe to print (:func:`ftpress.text.logsafe.escape`:
        a file name or a key may hold a line break, and a log must not obey it)."""
        if self.line <= 0:
            return escape(f"{self.path}: {self.message}")
        if self.col <= 0:
            return escape(f"{self.path}:{self.line}: {self.message}")
        return escape(f"{self.path}:{self.line}:{self.col}: {self.message}")


class UserError(Exception):
    """Something the user can put right; the message says what and how."""

    def lines(self) -> list[str]:
        """What the ``ftpress`` command prints for it, one line each, on stderr."""
        return [f"ftpress: {self}"]


class InputError(UserError):
    """Invalid files: raised once a stage has found problems; carries every one of them."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems = tuple(sorted(set(problems)))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[object, ...]:
        # Made again from its problems, not its message (a build renders in a process of
        # its own and raises its errors here: ``ftpress.speed.executor.apart``).
        return type(self), (self.problems,), self.__dict__

    def lines(self) -> list[str]:
        count = len(self.problems)
        return [*(str(p) for p in self.problems),
                f"ftpress: {count} problem{'s' if count != 1 else ''} found; nothing was written"]


class InvalidArgument(UserError):
    """A value on the command line or in the environment is not in the form expected."""


class RefusedCommand(UserError):
    """The campaign is in a state in which the command will not do what was asked."""


class SetupError(UserError):
    """A new campaign cannot be made as asked: its options are out of range, or the
    dice made a starting position the players cannot start from."""


class UnknownRuleset(UserError):
    """A ruleset name that no ruleset answers to."""


class ToolFailed(UserError):
    """A program ftpress runs failed; the message is what it said."""


class Problems:
    """A collector: stages add problems as they go, then :meth:`raise_if_any`."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        self._items: list[Problem] = []

    def add(self, path: str, line: int, col: int, message: str) -> None:
        self._items.append(Problem(path, line, col, message))

    def extend(self, problems: tuple[Problem, ...] | list[Problem]) -> None:
        self._items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def raise_if_any(self) -> None:
        if self._items:
            raise InputError(self._items)
