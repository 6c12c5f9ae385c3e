"""Discord wiring: the Bot, its command tree and error handler, config, user-facing errors, roles
and permission checks, option parsing, autocomplete, mentions and shared UI components."""
