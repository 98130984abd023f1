"""A campaign's files on disk: read safely (YAML with locations, validation, no
symbolic links), written atomically, and the site's own settings."""
