"""``python -m cc_search``: the ``cc-search`` command line."""

from .cli import app

app(prog_name="cc-search")
