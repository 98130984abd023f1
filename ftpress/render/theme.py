"""The theme: Jinja2 templates and static files, overridable per campaign.

Lookup order for a template or static file named ``post.html`` / ``style.css``:
the campaign's ``themes/<theme>/``, then the campaign's ``themes/default/``,
then the theme that ships with ftpress. A campaign overrides any one file by
putting a file of the same name there; it need not copy the rest.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import jinja2

from ftpress.errors import InputError, Problem
from ftpress.files.nolinks import REFUSAL, links_below
from ftpress.render.words import plural
from ftpress.state.words import long_date, sentence

BUILTIN = Path(__file__).resolve().parent.parent / "themes" / "default"


@dataclass(frozen=True, slots=True)
class StaticFile:
    path: str  # output path, e.g. "static/style.css"
    data: bytes

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.data).hexdigest()[:10]


def theme_dirs(root: Path, name: str) -> tuple[Path, ...]:
    """Where templates are looked up, first match wins."""
    dirs = [root / "themes" / name]
    if name != "default":
        if not dirs[0].is_dir():
            raise InputError([Problem("site.yaml", 0, 0, f"theme {name!r} not found; expected a "
                                      f"folder themes/{name}/ with templates to override")])
        dirs.append(root / "themes" / "default")
    links = [p for d in dirs for p in links_below(d, d.relative_to(root).as_posix())]
    if (root / "themes").is_symlink():
        links.append(Problem("themes", 0, 0, REFUSAL))
    if links:
        raise InputError(links)  # a template or static file behind a link is never read
    dirs.append(BUILTIN)
    return tuple(d for d in dirs if d.is_dir())


class _Compiled(jinja2.BytecodeCache):
    """Templates' bytecode kept in ``code`` (the build cache's) for every environment
    made after with it. Jinja checks each entry against the template's source, so an
    edited template is compiled again."""

    def __init__(self, code: dict[str, bytes]) -> None:
        self.code = code

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if (code := self.code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


#: The templates' bytecode every environment of this process shares when it is given
#: no store of its own: a process that builds or checks more than once (the tests, a
#: tool that calls ``main`` in a loop) compiles each template once, not each time
#: (compiling the theme's templates is most of a small campaign's ``check``).
_PROCESS_COMPILED: dict[str, bytes] = {}


def environment(dirs: tuple[Path, ...], compiled: dict[str, bytes] | None = None
                ) -> jinja2.Environment:
    """Autoescaping, strict Jinja2 environment: a typo in a template fails the build.

    An environment lasts one build, so it never looks at a template's file again
    once loaded (``auto_reload``: 9,000 stats at 1,000 posts). ``compiled`` keeps
    the templates' bytecode for the next environment (the build cache's); without
    it, the process's own store does.
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in dirs]),
        autoescape=jinja2.select_autoescape(("html", "xml", "svg"), default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=_Compiled(_PROCESS_COMPILED if compiled is None else compiled),
    )
    env.filters["longdate"] = long_date
    env.filters["plural"] = plural
    env.filters["sentence"] = sentence
    env.filters["isodate"] = lambda d: d.isoformat()
    env.filters["clock"] = lambda d: f"{d:%H:%M}"
    return env


def static_files(dirs: tuple[Path, ...]) -> tuple[StaticFile, ...]:
    """The theme's ``static/`` folders merged; earlier folders win."""
    found: dict[str, Path] = {}
    for base in reversed(dirs):
        static = base / "static"
        if static.is_dir():
            for file in static.rglob("*"):
                if file.is_file() and not file.name.startswith("."):
                    found["static/" + file.relative_to(static).as_posix()] = file
    return tuple(StaticFile(path, found[path].read_bytes()) for path in sorted(found))


