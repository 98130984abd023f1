"""Building the site, stage by stage, each in its own module:

- :mod:`ftpress.site.load`: read and check every input into a :class:`Site`;
- :mod:`ftpress.site.render`: every output file of a loaded site, into a sink;
- :mod:`ftpress.site.build`: load → render → write → index, as a table of contents.

The names a caller needs are here.
"""

from ftpress.site.build import BuildReport, build, rebuild_post
from ftpress.site.load import BuildOptions, Site, load
from ftpress.site.render import render

__all__ = ["BuildOptions", "BuildReport", "Site", "build", "load", "rebuild_post", "render"]
