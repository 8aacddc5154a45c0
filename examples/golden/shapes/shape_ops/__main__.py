# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""`python -m <this package> ...`: see cli.py."""

import sys

from .cli import main

sys.exit(main())
