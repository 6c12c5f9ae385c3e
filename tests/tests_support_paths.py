"""Where the repository and the shared reference folder are, for tests that read them."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
