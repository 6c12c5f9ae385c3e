"""How the CLI reports failures talking to Discord: one clear line and an exit code."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.cli.errors import CliError


@contextmanager
def reported_discord_failures() -> Iterator[None]:
    """Turns a refused token, an unreachable Discord or a refused request into a `CliError`.

    A refused token exits 2, and the others exit 1. Every subcommand that logs in uses it.
    """
    import aiohttp  # imported by the commands that log in, not by every `arbiter` start
    import discord

    try:
        yield
    except discord.LoginFailure:
        raise CliError("Discord refused the token: check DISCORD_TOKEN", 2) from None
    except discord.PrivilegedIntentsRequired as error:
        raise CliError(f"Discord refused a privileged intent: {error}", 1) from None
    except discord.HTTPException as error:
        raise CliError(f"Discord refused the request: {error}", 1) from None
    except (aiohttp.ClientError, OSError) as error:
        raise CliError(f"cannot reach Discord: {error}", 1) from None
