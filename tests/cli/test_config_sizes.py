"""CCT-3: a configuration whose event sizes cannot hold the players qualified by right is
refused at start-up with one line naming the key, through the config loader and `arbiter run`
(not found weeks later by a wrap-up that cannot list the next event's players)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.kernel.config import ConfigError, load_config
from tests.cli.test_cli_basics import arbiter


@pytest.mark.parametrize(
    ("text", "key", "said"),
    [
        ("finals_players = 4\nqualifying_top = 8\n", "rules.cct.finals_players", "10 players"),
        ("finals_players = 9\nqualifying_top = 4\n", "rules.cct.finals_players", "2 Ambassadors"),
        ("regular_players = 6\n", "rules.cct.regular_players", "top 8"),
        ("major_players = 10\nqualifying_top = 12\n", "rules.cct.major_players", "top 12"),
    ],
)
def test_cct_3_event_sizes_that_cannot_hold_the_qualified_are_refused(
    tmp_path: Path, text: str, key: str, said: str
) -> None:
    """CCT-3: the Finals take 8 players by merit and 2 Ambassadors whatever `qualifying_top`
    says; a Regular or a Major takes the top `qualifying_top` of the standings."""
    path = tmp_path / "config.toml"
    path.write_text("[rules.cct]\n" + text)
    with pytest.raises(ConfigError) as refused:
        load_config(path, environ={})
    line = str(refused.value)
    assert f"{key}: " in line and said in line and "CCT-3" in line and "\n" not in line, line


def test_cct_3_sizes_that_hold_the_qualified_load(tmp_path: Path) -> None:
    """CCT-3: Finals of 10 (or more) and events as large as the top that qualifies load."""
    path = tmp_path / "config.toml"
    path.write_text("[rules.cct]\nfinals_players = 12\nregular_players = 8\nqualifying_top = 8\n")
    cct = load_config(path, environ={}).rules.cct
    assert (cct.finals_players, cct.regular_players) == (12, 8)


def test_cct_3_arbiter_run_refuses_a_finals_too_small_with_one_line(tmp_path: Path) -> None:
    """CCT-3: `arbiter run` exits 2 with the one line on stderr, before it contacts Discord."""
    (tmp_path / "config.toml").write_text("[rules.cct]\nfinals_players = 4\nqualifying_top = 8\n")
    result = arbiter("run", cwd=tmp_path, env={"DISCORD_TOKEN": "x"})
    assert result.returncode == 2, result.stderr
    line = result.stderr.strip()
    assert "\n" not in line and "rules.cct.finals_players" in line and "CCT-3" in line, line
    assert "Traceback" not in result.stderr
