"""benchmarks/reports.py on a few imports: every board stored exactly once through the
service and through raw inserts (the counts it prints are checked, not the speed)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import reports


def test_imports_on_concurrent_tasks_lose_and_double_no_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keep = tmp_path / "kept.db"
    assert asyncio.run(reports.run(2, 12, tmp_path, keep, rounds=2)) == 0
    out = capsys.readouterr().out
    assert out.count(": ok") == 4 and "finished matches 12/12" in out  # 2 rounds x 2 sides
    assert "round 2 (raw first)" in out and "over 2 round(s): median" in out
    assert keep.exists()
