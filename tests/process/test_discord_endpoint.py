"""How the bot reaches Discord: the `[discord] api_base` key (and `ARBITER_DISCORD_API`), the
gateway address asked of that API, and IDENTIFYs paced by Discord's session start limit.
Nothing in `bot/` imports the tests' Discord double (or anything of `tests/`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app.arbiter import ArbiterBot
from bot.app.discord_endpoint import IdentifyPacer, ask_gateway, use_api
from bot.kernel.config import DISCORD_API, Config, ConfigError, load_config
from tests.support.paths import ROOT


@pytest.fixture(autouse=True)
def discord_addresses() -> Iterator[None]:
    """Put discord.py's class-wide addresses back after each test."""
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    yield
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


def test_api_base_defaults_to_discord_and_the_environment_overrides_the_file(
    tmp_path: Path,
) -> None:
    assert Config().discord.api_base == DISCORD_API == "https://discord.com/api/v10"
    path = tmp_path / "config.toml"
    path.write_text('[discord]\napi_base = "http://127.0.0.1:1/api/v10/"\n', encoding="utf-8")
    assert load_config(path, environ={}).discord.api_base == "http://127.0.0.1:1/api/v10"
    env = {"ARBITER_DISCORD_API": "http://127.0.0.1:2/api/v10"}
    assert load_config(path, environ=env).discord.api_base == "http://127.0.0.1:2/api/v10"


@pytest.mark.parametrize("value", ["discord.com/api/v10", "ftp://x/api", "http://", "http://a b/"])
def test_a_bad_api_base_is_refused_naming_its_source(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match=r"^environment variable ARBITER_DISCORD_API: discord"):
        load_config(tmp_path / "none.toml", environ={"ARBITER_DISCORD_API": value})
    path = tmp_path / "config.toml"
    path.write_text(f'[discord]\napi_base = "{value}"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.toml: discord.api_base: "):
        load_config(path, environ={})


def test_the_bot_sends_rest_calls_to_the_configured_api() -> None:
    ArbiterBot(Config.model_validate({"discord": {"api_base": "http://127.0.0.1:3/api/v10"}}))
    assert Route("GET", "/users/@me").url == "http://127.0.0.1:3/api/v10/users/@me"
    use_api(DISCORD_API + "/")
    assert Route("GET", "/gateway/bot").url == "https://discord.com/api/v10/gateway/bot"


async def test_the_gateway_address_comes_from_the_api_and_becomes_the_fallback() -> None:
    class Http:
        """The one call `ask_gateway` makes of discord.py's HTTP client."""

        async def get_bot_gateway(self) -> tuple[int, str, dict[str, int]]:
            return 4, "ws://127.0.0.1:4/gateway", {"max_concurrency": 16, "remaining": 9}

    gateway = await ask_gateway(Http())  # type: ignore[arg-type]
    assert (gateway.shards, gateway.max_concurrency) == (4, 16)
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:4/gateway"


async def test_identifies_wait_only_as_long_as_the_session_start_limit_needs() -> None:
    now = [100.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    pacer = IdentifyPacer(2, window=5.0, clock=lambda: now[0], sleep=sleep)
    await pacer.wait(0)
    await pacer.wait(1)  # another bucket (1 % 2): at once
    assert slept == []
    now[0] += 2.0
    await pacer.wait(2)  # bucket 0 again, 2 s after its last: 3 s more
    assert slept == [3.0]
    assert IdentifyPacer().window > 5.0  # Discord's window, and a margin for the transit
    now[0] += 10.0
    await pacer.wait(3)  # bucket 1, long after its last: at once
    assert slept == [3.0]


def test_nothing_in_bot_imports_the_tests() -> None:
    importing = re.compile(r"^\s*(from|import)\s+tests\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if importing.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
