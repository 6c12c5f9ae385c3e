"""Where the repository and its test fixtures are: the one place tests learn it."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
"""The recorded and published inputs the tests read (see tests/fixtures/README.md)."""
