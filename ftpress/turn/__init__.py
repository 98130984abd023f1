"""``ftpress turn``: a turn resolved from its order files, recorded, verified, redone.

- :mod:`.resolve`: the open turn resolved and recorded, the calendar advanced.
- :mod:`.secret`: the turn's keyed dice and the umpire's secret behind them.
- :mod:`.inputs`: what a turn reads besides the state: orders, battle results, dice.
- :mod:`.tabletop`: a turn paused for battles fought on the table.
- :mod:`.record`: what a turn's record keeps, read back (the campaign store,
  :mod:`ftpress.store`, writes it).
- :mod:`.verify`: a recorded turn resolved again and compared with its record.
- :mod:`.redo`: recorded turns resolved again and rewritten.
- :mod:`.order_check`: the order files as ``ftpress check`` reports them.
- :mod:`.last_record`: is ``state/`` where the last recorded turn left it?

(:mod:`ftpress.state.turns` is something else: how turns are named.)
"""
