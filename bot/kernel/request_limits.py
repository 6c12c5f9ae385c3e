"""The limits of a chess.com or lichess.org request, shared by the configuration and the CLI's
flags.

Both thus refuse the same values. It is a module of its own so that the CLI reads it without loading
the configuration's models.
"""

from __future__ import annotations

MAX_RETRIES = 10
"""chesscom.max_retries and `--retries`: more would keep a command waiting minutes."""
MAX_TIMEOUT_SECONDS = 600
"""chesscom.timeout_seconds and `--timeout`: a longer wait per request is a hung command."""
