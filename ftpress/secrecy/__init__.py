"""Who may know what: keys, sealed files, twins, each viewer's knowledge."""
