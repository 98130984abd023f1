"""`ftpress init`: a new campaign made whole, its map rolled by its ruleset, its
repository ready for GitHub, its keys made where it is sealed."""
