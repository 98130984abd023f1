"""``ftpress turn``: a turn resolved from its order files, recorded, verified, redone.

- :mod:`.resolve`: the open turn resolved and recorded, the calendar advanced.
- :mod:`.tabletop`: a turn paused for battles fought on the table.
- :mod:`.verify`: a recorded turn resolved again and compared with its record.
- :mod:`.redo`: recorded turns resolved again and rewritten.
- :mod:`.order_check`: the order files as ``ftpress check`` reports them.
- :mod:`.last_record`: is ``state/`` where the last recorded turn left it?

What a turn reads and writes, it reads and writes through the campaign's store
(:mod:`ftpress.store`): its inputs (:mod:`ftpress.store.inputs`), the umpire's
secrets behind its dice (:mod:`ftpress.store.secret`) and its record
(:mod:`ftpress.store.record`). (:mod:`ftpress.state.turns` is something else: how
turns are named.)
"""
