"""Input files of CLI commands, read with a size cap.

A device such as /dev/zero, or a file far larger than any real one, is refused with one line instead
of filling memory. Every command that reads a file the user names goes through here: a TRF file, a
season file, the configuration or a README. README.md documents the limit.
"""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

from bot.cli.errors import CliError
from bot.rendering.common.text import cut

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""16 MiB: a season file or TRF export of a real event is well under 1 MiB."""
LIMIT_TEXT = "16 MiB"

_SHOWN_NAME = 120
"""Longest file name shown whole in a message. A longer one is cut, so a 1 MB name is not echoed."""


def shown(path: str | os.PathLike[str]) -> str:
    """The file name for a message: control characters escaped, cut after `_SHOWN_NAME`."""
    text = os.fspath(path)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut(text, _SHOWN_NAME))


def _refuse(path: str | os.PathLike[str], problem: str) -> CliError:
    return CliError(f"cannot read {shown(path)}: {problem}", 2)


def _open_error(path: str | os.PathLike[str], error: OSError) -> CliError:
    if isinstance(error, IsADirectoryError):
        return _refuse(path, "it is a folder, not a file")
    if isinstance(error, FileNotFoundError):
        return _refuse(path, "no such file")
    if isinstance(error, PermissionError):
        return _refuse(path, "permission denied")
    return _refuse(path, str(error.strerror or type(error).__name__))


def read_input(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the input file `path`, at most MAX_INPUT_BYTES.

    A missing, unreadable or larger file, or a folder, is a CliError with exit 2 naming the file.
    Pipes and devices are read up to the cap too, so `<(…)` and /dev/stdin work and /dev/zero is
    refused.
    """
    if os.fspath(path) == "":
        raise CliError("the input file name is empty", 2)
    try:
        if Path(path).is_dir():
            raise _refuse(path, "it is a folder, not a file")
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise _open_error(path, error) from None
    except ValueError:  # e.g. a NUL character in the name
        raise _refuse(path, "not a valid file name") from None
    if len(data) > MAX_INPUT_BYTES:
        raise _refuse(path, f"it is larger than {LIMIT_TEXT}, the limit for an input file")
    return data


def check_input(path: Path) -> None:
    """Refuses a file that could not be read in bounded memory, before another reader opens it.

    That is a folder, something that is not a regular file such as /dev/zero, or a file over the
    limit.
    """
    try:
        status = path.stat()
    except FileNotFoundError:
        return  # the caller decides what a missing file means
    except OSError as error:
        raise _open_error(path, error) from None
    except ValueError:
        raise _refuse(path, "not a valid file name") from None
    if stat.S_ISDIR(status.st_mode):
        raise _refuse(path, "it is a folder, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise _refuse(path, "it is not a regular file")
    if status.st_size > MAX_INPUT_BYTES:
        raise _refuse(path, f"it is larger than {LIMIT_TEXT}, the limit for an input file")


def input_path(text: str) -> Path:
    """The argparse type of an input-file argument. An empty name is refused at once.

    A bare `Path("")` would mean the current folder.
    """
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    return Path(text)
