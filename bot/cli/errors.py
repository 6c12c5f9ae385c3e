"""The exception a CLI subcommand raises to fail cleanly: a stderr message and an exit code."""


class CliError(Exception):
    """A user-facing CLI failure: `main` prints `message` to stderr and exits with `code`."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
