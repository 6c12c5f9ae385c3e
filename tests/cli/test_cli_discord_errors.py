"""Failures talking to Discord reach the CLI user as one line and the right exit code."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.cli.discord_errors import reported_discord_failures
from bot.cli.errors import CliError


class _Response:
    """The least of an aiohttp response that discord.HTTPException reads."""

    status = 403
    reason = "Forbidden"


@pytest.mark.parametrize(
    ("failure", "code", "words"),
    [
        (discord.LoginFailure("Improper token has been passed."), 2, "DISCORD_TOKEN"),
        (aiohttp.ClientConnectionError("no route"), 1, "cannot reach Discord"),
        (OSError("network down"), 1, "cannot reach Discord"),
        (discord.HTTPException(_Response(), "Missing Access"), 1, "refused the request"),
    ],
)
def test_discord_failure_becomes_one_cli_error(failure: Exception, code: int, words: str) -> None:
    with pytest.raises(CliError) as caught, reported_discord_failures():
        raise failure
    assert caught.value.code == code
    assert words in caught.value.message
    assert "\n" not in caught.value.message


def test_other_errors_pass_through_untouched() -> None:
    with pytest.raises(ZeroDivisionError), reported_discord_failures():
        raise ZeroDivisionError
