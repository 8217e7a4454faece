"""``python -m trackside``: the same as the ``trackside`` command."""

import sys

from trackside.cli.main import main

sys.exit(main())
