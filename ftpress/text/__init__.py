"""Words and marks with no campaign in them: clean text, spans of time, safe log lines."""
