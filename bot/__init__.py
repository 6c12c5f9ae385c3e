"""Arbiter: the running program, with its config, bot, scheduler, services, clients and CLI."""
