"""`ftpress check`: the whole campaign checked as a build would read it, and as a turn
would, with nothing written."""
