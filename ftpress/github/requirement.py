"""Which ftpress a campaign's workflows install: the line of its ``requirements.txt``.

By default the git tag of the version ``ftpress init`` was run with
(``ftpress @ git+https://github.com/ftpress/ftpress@v0.1.0``): it installs as soon
as the version is tagged, which is what starts the release workflow, before PyPI
or the GitHub release has the files. ``--ftpress-requirement`` names any other: a
version on PyPI, ``release`` for the wheel the release workflow attaches to the
GitHub release (under the name ``python -m build`` gives it), a git URL with the
tag (or commit) to install, or a wheel's URL. A git URL without a tag is refused:
every run would install whatever the default branch held that hour, and a
recorded turn could stop verifying.
"""

from __future__ import annotations

import re

from ftpress import __version__
from ftpress.errors import InvalidArgument

#: A release's version as PEP 440 writes it (the forms ftpress's own tags take).
_VERSION = re.compile(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")
#: ``git+https://host/owner/repo[.git]@ref``: the ref after the last path segment.
_GIT = re.compile(r"git\+https://[^\s@/]+(/[^\s@/]+)+@[^\s@/#]+(#\S*)?")
#: A wheel of ftpress, by its file name (``ftpress-0.1.0-py3-none-any.whl``).
_WHEEL = re.compile(r"https://\S+/ftpress-[^\s/]+\.whl")

#: ftpress's own repository, whose tags and releases the default and ``release`` name.
SOURCE = "https://github.com/ftpress/ftpress"

EXAMPLES = ("a version (0.1.0), 'release' (the wheel of the GitHub release), a git URL with "
            "a tag "
            "(git+https://github.com/ftpress/ftpress@v0.1.0) or a wheel's URL "
            "(https://example.org/ftpress-0.1.0-py3-none-any.whl)")


def requirement(spec: str | None = None) -> str:
    """The requirement line for ``spec`` (default: this ftpress's own version's tag)."""
    if spec is None:
        return f"ftpress @ git+{SOURCE}@v{__version__}"
    given = spec.strip()
    if given == "release":
        return f"ftpress @ {release_wheel(__version__)}"
    if _VERSION.fullmatch(given):
        return f"ftpress=={given}"
    if _GIT.fullmatch(given) or _WHEEL.fullmatch(given):
        return f"ftpress @ {given}"
    if given.startswith("git+") and _GIT.fullmatch(f"{given.split('#')[0]}@x"):
        raise InvalidArgument(f"--ftpress-requirement {spec!r}: a git URL must name the tag "
                              f"to install, such as {given.split('#')[0]}@v{__version__}")
    raise InvalidArgument(f"--ftpress-requirement {spec!r}: expected {EXAMPLES}")


def requirements_txt(spec: str | None = None) -> str:
    """A new campaign's ``requirements.txt``."""
    return ("# The ftpress the campaign's workflows install; change it to upgrade (a version,\n"
            "# 'ftpress @ git+https://…@TAG' or 'ftpress @ https://…/ftpress-….whl').\n"
            f"{requirement(spec)}\n")


def release_wheel(version: str) -> str:
    """The URL of the wheel the release workflow attaches to the GitHub release of
    ``version`` (``gh release create vX.Y.Z dist/*``)."""
    return f"{SOURCE}/releases/download/v{version}/ftpress-{version}-py3-none-any.whl"
