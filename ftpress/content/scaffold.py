"""Create new content files with valid front matter (``ftpress new post``)."""

from __future__ import annotations

import json
import re
import unicodedata
import uuid
from datetime import datetime
from pathlib import Path

from ftpress.content.posts import KINDS, POSTS_DIR, TAG_PATTERN, load_posts
from ftpress.errors import InputError, Problem
from ftpress.files.config import load_config
from ftpress.files.write import write_file
from ftpress.text import cleantext


def slugify(title: str) -> str:
    """'Rule clarifications: §10.2!' → 'rule-clarifications-10-2'."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")[:60].strip("-")


def new_post(root: Path, title: str, kind: str, tags: tuple[str, ...], now: datetime) -> Path:
    """Write ``content/posts/YYYY/MM/DD-slug.md`` dated ``now`` in the campaign's zone."""
    config = load_config(root)
    problems = []
    if kind not in KINDS:
        problems.append(Problem("new post", 0, 0, f"unknown kind {kind!r}; expected one of "
                                f"{', '.join(KINDS)}"))
    for tag in tags:
        if not re.fullmatch(TAG_PATTERN, tag):
            problems.append(Problem("new post", 0, 0, f"tag {tag!r} is not lowercase words "
                                    "joined by hyphens, such as 'rule-10' or 'sieges'"))
    title = title.strip()
    hidden = cleantext.unclean(title, lines=False)
    if hidden is not None:  # the title a post's front matter would refuse
        problems.append(Problem("new post", 0, 0, "the title: " + cleantext.refusal(
            title[hidden], lines=False)))
    elif any(unicodedata.category(c) == "Cs" for c in title):
        problems.append(Problem("new post", 0, 0, "the title has a lone surrogate; "
                                "expected plain text"))
    slug = slugify(title)
    if not slug:
        problems.append(Problem("new post", 0, 0, "the title needs at least one letter or "
                                "digit to make a slug from"))
    if problems:
        raise InputError(problems)
    taken = {p.slug: p.source for p in load_posts(root, config.zone)}
    if slug in taken:
        raise InputError([Problem(taken[slug], 0, 0, f"slug {slug!r} is already used by this "
                                  "post; choose another title")])
    when = now.astimezone(config.zone).replace(microsecond=0)
    rel = f"{POSTS_DIR}/{when:%Y/%m/%d}-{slug}.md"
    target = root / rel
    lines = [
        "---",
        f"title: {json.dumps(title, ensure_ascii=False)}",
        f"date: {when.isoformat()}",
        f"kind: {kind}",
        f"tags: [{', '.join(tags)}]",
        f"id: urn:uuid:{uuid.uuid4()}",
        "---",
        "",
    ]
    write_file(target, "\n".join(lines).encode("utf-8"))
    return Path(rel)
