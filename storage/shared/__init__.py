"""Repositories both competitions use: guild settings, audit, outbox and jobs."""
