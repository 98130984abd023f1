"""``ftpress schemas``: the JSON Schema of every kind of campaign file, into a folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.files.write import check_out_dir
from ftpress.site.schema_export import write_schemas
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=Path("schemas"))
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    check_out_dir(args.source, args.out)  # never into the campaign's state or orders
    for path in write_schemas(args.source, args.out):
        say(path)
    return 0
