"""``python -m turnbased.local COMMAND``: run the service, its tests or its tools on one machine (``commands``)."""

import sys

from turnbased.local.commands import main

sys.exit(main(sys.argv[1:]))
