"""``python -m controller.cli``: the ``tabletop`` command without its console script."""

import sys

from controller.cli import main

sys.exit(main(sys.argv[1:]))
