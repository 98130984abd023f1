"""The umpire's Markdown content: posts and standalone pages."""
