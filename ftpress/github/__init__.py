"""The campaign on GitHub: workflows, the roster of accounts, publishing runs."""
