"""``python -m hybridgui [options]``: the desktop application (what ``hybridgui`` and ``hybrid gui`` start)."""
import sys

from .app import main

sys.exit(main(sys.argv[1:]))
