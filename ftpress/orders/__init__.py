"""Order files: what players write each turn, parsed and checked for syntax only.

``orders/<turn-id>/<player-id>.yaml`` holds one player's orders for one
strategic turn. Each ruleset's format is its own (``rules/<ruleset>/orderfile.py``,
frozen dataclasses validated by pydantic, exported as JSON Schema), built from the
pieces of :mod:`.fields`; :mod:`.load` reads a file in that format with its line
marks and reports every syntax mistake as an *invalid order* at
``path:line:col``. Whether an order is *legal* (you own the group, the jump is
in range) is the ruleset's business: this package never imports the rules.
"""
