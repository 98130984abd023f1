import sys

from ftpress.cli import main

sys.exit(main())
