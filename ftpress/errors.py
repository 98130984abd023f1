"""Problems with the user's input, reported the way a compiler reports them.

Every stage collects :class:`Problem` values instead of stopping at the first,
and raises one :class:`InputError` holding all of them. The CLI prints each as
``path:line:col: message`` and exits with code 1.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with one input file, at a line and column (1-based)."""

    path: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        if self.line <= 0:
            return f"{self.path}: {self.message}"
        if self.col <= 0:
            return f"{self.path}:{self.line}: {self.message}"
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


class InputError(Exception):
    """Raised once a stage has found problems; carries every one of them."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems = tuple(sorted(set(problems)))
        super().__init__("\n".join(str(p) for p in self.problems))


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
