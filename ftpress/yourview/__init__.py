"""A player's own report, delivered: "Your view".

After each turn of a sealed campaign every player with a recipient gets what the
turn did to them, as one small document (:mod:`ftpress.yourview.report`): their
refused orders first, their groups by id, what they learned, their accounts, the
order form for the open turn and the keys to seal their orders to. The turn seals
it to the player and the umpires like any sealed file (:mod:`ftpress.yourview.files`:
padded to a fixed size, named by a hash of the player's recipient, not by their
id), and the public site publishes the latest turn's, where the "Your view" page
opens it in the browser with the player's key. ``ftpress build --view PLAYER``
renders the same document into the same page, server-side.
"""
