"""`python -m arena.cli`: the `arena` command, as `python -m arena` runs it."""

from . import main

raise SystemExit(main())
