"""Ship catalogues shipped with a ruleset: a YAML file of navies and designs.

Each ruleset says what a navy holds (its own ``Navy`` and ``Catalogue``
dataclasses, so the schema stays its own); how a catalogue is read and looked
up is the same for all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Generic, Protocol, TypeVar

from pydantic import TypeAdapter

from ftpress.files import validation, yamlsource
from ftpress.state.model import Design

C = TypeVar("C")


class _Navy(Protocol):
    @property
    def id(self) -> str: ...


N = TypeVar("N", bound=_Navy)


def read_catalogue(adapter: TypeAdapter[C], file: Path, shown: str) -> C:
    """The catalogue in ``file``, checked against ``adapter``; errors name ``shown``."""
    data = yamlsource.parse(yamlsource.read_text(file, shown), shown)
    return validation.validate(adapter, data, shown)


class Lookups(Generic[N]):
    """Finding a navy or designs in a catalogue (a dataclass with ``navies`` and
    ``designs`` tuples, each navy with an ``id``)."""

    __slots__ = ()

    navies: tuple[N, ...]
    designs: tuple[Design, ...]

    def navy(self, navy_id: str) -> N | None:
        """The navy of that id, or None."""
        return next((n for n in self.navies if n.id == navy_id), None)

    def design(self, design_id: str) -> Design | None:
        return next((d for d in self.designs if d.id == design_id), None)

    def of_navy(self, navy_id: str) -> tuple[Design, ...]:
        return tuple(d for d in self.designs if d.navy == navy_id)
