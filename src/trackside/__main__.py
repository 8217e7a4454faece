"""``python -m trackside``: the same as the ``trackside`` command."""

import sys

from trackside.engine.cli import main

sys.exit(main())
