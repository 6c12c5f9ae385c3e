"""Output files of CLI commands, written whole or not at all.

These are `--trf-out`, `season … -o` and `commands --readme`. A path that cannot be written is a
runtime failure with exit 1 and one line. A failure half-way never leaves a truncated file where the
user's file was.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from bot.cli.errors import CliError
from bot.cli.input_file import shown

_PREFIX_CHARS = 100
"""How much of the file's name the temporary file borrows, so a name near the limit stays legal."""


def _mode(target: Path) -> int:
    """The permissions the written file gets: the old file's, else a new file's under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_output(path: Path, data: bytes) -> None:
    """Writes `data` to `path` through a temporary file beside it, renamed over it at the end.

    A device or pipe such as `-o /dev/stdout` is written directly. Raises CliError with exit 1.
    """
    try:
        target = path.resolve()
        if target.exists() and not target.is_file():
            with open(target, "wb") as stream:
                stream.write(data)
            return
        handle, name = tempfile.mkstemp(
            prefix=f".{target.name[:_PREFIX_CHARS]}.", suffix=".partial", dir=target.parent
        )
    except ValueError:  # a NUL character in the name: refused, as for an input file
        raise CliError(f"{shown(path)}: not a valid file name", 2) from None
    except OSError as error:
        raise CliError(f"cannot write {shown(path)}: {_reason(error)}", 1) from None
    partial = Path(name)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        partial.chmod(_mode(target))
        partial.replace(target)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise CliError(f"cannot write {shown(path)}: {_reason(error)}", 1) from None


def _reason(error: OSError) -> str:
    """The system's words for a failure, such as `No such file or directory`, without the path."""
    return str(error.strerror or error)
