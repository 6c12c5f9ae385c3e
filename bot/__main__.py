"""`python -m bot` runs the `arbiter` command line."""

from bot.cli import main

raise SystemExit(main())
