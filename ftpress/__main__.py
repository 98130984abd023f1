from ftpress.cli import run

run()
