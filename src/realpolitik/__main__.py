"""``python -m realpolitik``: the ``realpolitik`` command (see :mod:`realpolitik.cli`)."""

import sys

from realpolitik.cli import main

sys.exit(main())
