"""`arbiter run` (its real entry point, in this process) against a Discord that has not had
the Server Members intent switched on: Discord closes the gateway with 4014, and the command
says so in one line, exit 1 (README, "Creating the Discord application")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.cli import main
from tests.support.arbiter_process import write_config
from tests.support.threaded_double import running_double


@pytest.fixture(autouse=True)
def discord_addresses() -> Iterator[None]:
    """Put discord.py's class-wide addresses back after the test."""
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    yield
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


def test_a_missing_server_members_intent_stops_arbiter_run_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with running_double(privileged_intents=0) as running:
        double = running.double
        running.call(lambda: double.add_guild("No Intent League"))
        config = write_config(tmp_path, "http://127.0.0.1:9/pub")
        monkeypatch.setenv("DISCORD_TOKEN", double.token)
        monkeypatch.setenv("ARBITER_DISCORD_API", double.api_base)
        monkeypatch.setattr(discord.utils, "setup_logging", lambda **_: None)  # keep root's
        assert main(["run", "--config", str(config)]) == 1
        codes = running.call(lambda: [c.close_code for c in double.gateway.connections])
    assert codes == [4014]
    err = capsys.readouterr().err
    assert err.startswith("arbiter run: Discord refused a privileged intent"), err
    assert err.count("\n") == 1 and "Traceback" not in err
