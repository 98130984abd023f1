"""Files a campaign publishes as they are: what a post names beside it (an image, a
PDF), and the campaign's own ``static/`` folder, copied to the root of the site."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from ftpress.content import markdown
from ftpress.content.posts import Post
from ftpress.errors import Problems
from ftpress.files.nolinks import links_below

STATIC_DIR = "static"


@dataclass(frozen=True, slots=True)
class Asset:
    #: Where it goes in the site, e.g. ``posts/2026/04/07/slug/photo.png``.
    path: str
    data: bytes
    #: The campaign file it is a copy of.
    source: str


def load_assets(root: Path, posts: Sequence[Post]) -> tuple[Asset, ...]:
    """The files ``posts`` name beside them, each copied next to its post's page (a
    post at ``content/posts/2026/04/07-slug.md`` or ``…/07-slug/index.md`` naming
    ``photo.png`` gets ``posts/2026/04/07/slug/photo.png``), then every file of
    ``static/``; raises with every problem at once. An image that is not there is an
    error at its line; a link to a file that is not there is left as written (it may
    name a page)."""
    problems = Problems()
    found: dict[str, Asset] = {}
    for post in posts:
        folder = (root / post.source).parent
        for target in markdown.local_targets(post.body):
            name = unquote(target.target.split("#", 1)[0].split("?", 1)[0])
            where = (post.source, post.body_line + target.line, target.col)
            inside = name and ".." not in PurePosixPath(name).parts
            file = folder / name
            if inside and file.is_file():
                path = post.url_path + PurePosixPath(name).as_posix()
                found[path] = Asset(path, file.read_bytes(), file.relative_to(root).as_posix())
            elif target.image and not inside:
                problems.add(*where, f"image {target.target!r} is outside the post's folder; "
                             "expected a file beside the post or in a folder below it")
            elif target.image:
                problems.add(*where, f"image {target.target!r} not found; expected the file "
                             f"{file.relative_to(root).as_posix()} beside the post")
    static = root / STATIC_DIR
    if static.is_dir():
        problems.extend(links_below(static, STATIC_DIR))
        for file in sorted(static.rglob("*")):
            if file.is_file() and not file.name.startswith(".") and not file.is_symlink():
                path = file.relative_to(static).as_posix()
                found[path] = Asset(path, file.read_bytes(), f"{STATIC_DIR}/{path}")
    problems.raise_if_any()
    return tuple(found[p] for p in sorted(found))
