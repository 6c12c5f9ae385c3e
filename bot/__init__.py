"""Arbiter: the running program (config, bot, scheduler, services, clients, CLI)."""
