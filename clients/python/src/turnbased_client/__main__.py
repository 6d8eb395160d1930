"""``python -m turnbased_client`` runs turnbased-cli."""

import sys

from turnbased_client.cli import main

sys.exit(main())
