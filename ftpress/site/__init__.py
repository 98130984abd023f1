"""Building the site, stage by stage, each in its own module:

- :mod:`ftpress.site.loading`: read and check every input into a :class:`Site`;
- :mod:`ftpress.site.rendering`: every output file of a loaded site, into a sink;
- :mod:`ftpress.site.building`: load → render → write → index, as a table of contents.

The names a caller needs are here.
"""

from ftpress.site.building import BuildReport, build, rebuild_post
from ftpress.site.loading import BuildOptions, Site, load
from ftpress.site.rendering import render

__all__ = ["BuildOptions", "BuildReport", "Site", "build", "load", "rebuild_post", "render"]
