"""The campaign state: typed, frozen, loaded with line marks, saved canonically.

A campaign keeps its state in ``state/``, one file per kind so that pull
request diffs stay small and readable::

    state/campaign.yaml     id, name, ruleset, calendar, setup (seed), settings
    state/players.yaml      players: name, colour, treasury, capital, upkeep, ally
    state/map.yaml          radius, star systems (hex, owner, income, defences), routes
    state/designs.yaml      the ship designs in use
    state/groups.yaml       task groups: owner, location, ships and their damage
    state/queues.yaml       keels, repairs (and what a ruleset queues beside them)
    state/turns/<turn-id>/  each turn's immutable snapshot (see turns.py)

:mod:`.model` holds the models every ruleset shares, :mod:`.extension` what a
ruleset adds to them, :mod:`.load` reads and checks a folder, :mod:`.crossrefs`
the references between files, :mod:`.save` writes it back through
:mod:`.writeout` (all or nothing, finished or undone after a crash).
"""
