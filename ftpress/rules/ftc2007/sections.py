"""The ruleset's name and the namer of its sections, which every rule module cites
(``rule("10.3")`` → ``ftc2007 §10.3``): below every other module of the ruleset,
so that any of them may import it."""

from __future__ import annotations

from ftpress.rules.planning import section_namer

RULESET = "ftc2007"

rule = section_namer(RULESET)
