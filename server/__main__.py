"""``python -m server`` is the ``seize`` command."""

import sys

from server.cli import main

sys.exit(main())
