"""The site's own settings: ``site.yaml`` at the campaign root."""

from __future__ import annotations

import re
import zoneinfo
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter, WithJsonSchema

from ftpress.errors import InputError, Problem
from ftpress.files import validation, yamlsource
from ftpress.text.cleantext import LINE, CleanLine, CleanText

CONFIG_FILE = "site.yaml"

#: Names a theme or a page slug may take: lowercase words joined by hyphens.
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


#: What :func:`_base_url` takes, for editors: http(s), a host, no query or fragment.
_URL_PATTERN = r"^[hH][tT][tT][pP][sS]?://[^/?#\s]+[^?#]*(?![\s\S])"


def _base_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("must be an absolute http(s) URL such as "
                         "'https://umpire.github.io/campaign/'")
    if parts.query or parts.fragment:
        raise ValueError("must not have a query or fragment")
    return value if value.endswith("/") else value + "/"


def _timezone(value: str) -> str:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {value!r}; expected an IANA name "
                         "such as 'Europe/London' or 'UTC'") from None
    return value


@dataclass(frozen=True, slots=True)
class SiteConfig:
    """What ``site.yaml`` says. Unknown keys are errors, so typos never pass."""

    __pydantic_config__ = ConfigDict(extra="forbid", str_strip_whitespace=True)

    title: Annotated[str, Field(min_length=1), LINE]
    base_url: Annotated[str, AfterValidator(_base_url), WithJsonSchema(
        {"type": "string", "pattern": _URL_PATTERN,
         "description": "where the site lives: an absolute http(s) URL"})]
    description: CleanText = ""
    author: CleanLine = ""
    language: Annotated[str, Field(pattern=r"^[a-zA-Z]{2,3}(-[a-zA-Z0-9]+)*$")] = "en"
    timezone: Annotated[str, AfterValidator(_timezone)] = "UTC"
    theme: Annotated[str, Field(pattern=SLUG_PATTERN)] = "default"
    paginate: Annotated[int, Field(ge=1, le=1000)] = 10
    #: How many posts the Atom feed carries, newest first; 0 means all of them.
    feed_limit: Annotated[int, Field(ge=0)] = 0
    #: Build the client-side search index (Pagefind) and the search page.
    search: bool = True

    @property
    def base_path(self) -> str:
        """The URL path the site lives under: '/' or '/campaign/'."""
        return urlsplit(self.base_url).path or "/"

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)


_ADAPTER = TypeAdapter(SiteConfig)


def load_config(root: Path) -> SiteConfig:
    """Read and check ``site.yaml``; every problem is reported at once."""
    file = root / CONFIG_FILE
    if not file.is_file():
        raise InputError([Problem(CONFIG_FILE, 0, 0, "missing; expected the site settings "
                                  "(title, base_url, timezone) at the campaign root")])
    data = yamlsource.parse(yamlsource.read_text(file, CONFIG_FILE), CONFIG_FILE)
    if not isinstance(data, dict):
        raise InputError([Problem(CONFIG_FILE, 1, 1, "expected a mapping of settings")])
    return validation.validate(_ADAPTER, data, CONFIG_FILE)


def config_schema() -> dict[str, Any]:
    """JSON Schema of ``site.yaml``, for editors."""
    return _ADAPTER.json_schema()


def repository_of(base_url: str) -> str | None:
    """The repository ``OWNER/NAME`` whose GitHub Pages site ``base_url`` is (the
    inverse of :func:`pages_url`); None for a site served from anywhere else."""
    match = re.fullmatch(r"https://([A-Za-z0-9-]+)\.github\.io/(?:([A-Za-z0-9._-]+)/)?",
                         base_url)
    if match is None:
        return None
    owner = match.group(1).lower()
    return f"{owner}/{match.group(2) or f'{owner}.github.io'}"
