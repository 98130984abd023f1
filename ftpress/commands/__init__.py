"""One module per ``ftpress`` command: what it reads, does and prints.

Each has ``arguments(parser)``, which adds the command's arguments to its
``argparse`` parser, and ``run(args)``, which does the command and returns its
exit code; ``ftpress.cli.COMMANDS`` lists them. A user's mistake is raised as an
``ftpress.errors.UserError`` for the command line to print.
"""
