"""One module per ``ftpress`` command: what it reads, does and prints."""
