"""What every ftcamp02 rule function shares: how events name their rule."""

from __future__ import annotations

RULESET = "ftcamp02"


def rule(section: str) -> str:
    """'4.1.1' → 'ftcamp02 §4.1.1', as events name their rule."""
    return f"{RULESET} §{section}"
