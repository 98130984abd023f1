"""What every ftcamp02 rule function shares: how events name their rule."""

from __future__ import annotations

from ftpress.rules.planning import section_namer

RULESET = "ftcamp02"

rule = section_namer(RULESET)
