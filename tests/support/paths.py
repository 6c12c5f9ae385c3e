"""Where the repository and the shared reference folder are: the one place tests learn it."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
