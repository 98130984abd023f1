"""Where speed lives: the executor that spreads work over the cores and the cache of
what a build can reuse. The plain pipeline works without either."""
