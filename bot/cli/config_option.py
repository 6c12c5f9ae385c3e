"""The `--config PATH` option every `arbiter` subcommand shares, and loading it for the CLI."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.errors import CliError
from bot.cli.input_file import check_input, input_path, shown

if TYPE_CHECKING:  # bot.kernel.config loads pydantic: imported when a command runs, not for --help
    from bot.kernel.config import Config


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """Adds `--config PATH`. The default is ./config.toml, where a missing file means the
    defaults.
    """
    parser.add_argument(
        "--config",
        type=input_path,
        default=None,
        metavar="PATH",
        help="configuration file (default: ./config.toml, or every default if there is none)",
    )


def config_from_args(args: argparse.Namespace) -> Config:
    """Returns the validated configuration, or raises a `CliError` naming the bad key.

    The error exits with 2. A file named with --config must exist, so that a typo does not mean
    every default and a new empty database.
    """
    from bot.kernel.config import DEFAULT_PATH, ConfigError, load_config

    path: Path | None = args.config
    if path is not None and not path.exists():
        raise CliError(f"{shown(path)}: no such configuration file", 2)
    check_input(path if path is not None else DEFAULT_PATH)  # not /dev/zero, not a folder
    try:
        return load_config(path if path is not None else DEFAULT_PATH)
    except ConfigError as error:
        raise CliError(str(error), 2) from None


def require_token(config: Config) -> str:
    """The bot token, or a `CliError` with exit 2 saying how to set `DISCORD_TOKEN`."""
    if not config.token:
        raise CliError(
            "no Discord bot token: set the DISCORD_TOKEN environment variable "
            "(export DISCORD_TOKEN=...) or `token` in the configuration file",
            2,
        )
    return config.token
