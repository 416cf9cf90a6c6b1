"""``python -m server`` is the ``seize`` command."""

import sys

from server.run.cli import main

sys.exit(main())
