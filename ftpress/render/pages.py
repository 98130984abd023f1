"""Rendering one page: a template, the context every page shares, one output file."""

from __future__ import annotations

import jinja2

from ftpress.render.outputs import Outputs
from ftpress.render.views import PageInfo, SiteView, Urls


class Renderer:
    """Renders templates with the context every page shares."""

    def __init__(self, env: jinja2.Environment, site: SiteView, urls: Urls, out: Outputs) -> None:
        self.env, self.site, self.urls, self.out = env, site, urls, out

    def page(self, path: str, template: str, origin: str, *, title: str, description: str,
             section: str = "", noindex: bool = False, **context: object) -> None:
        full_title = title if title == self.site.title else f"{title} · {self.site.title}"
        info = PageInfo(full_title, description or self.site.description, self.urls.page(path),
                        self.urls.absolute(path), section, noindex)
        html = self.env.get_template(template).render(site=self.site, page=info, **context)
        self.out.add(path, html, origin)
        if not noindex:
            self.out.listed.append(path)
