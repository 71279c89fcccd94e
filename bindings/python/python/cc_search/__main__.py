"""``python -m cc_search``: the ``cc-search`` command line."""

from ._main import main

main()
