"""ftpress: a Full Thrust strategic campaign, run from Git and published as a static site."""

__version__ = "0.1.0"
