"""Maps drawn from public facts: the strategic star map and small charts."""
