"""The league running itself, as "What happens on its own" in docs/league-in-discord.md tells.

These are the handlers of the match jobs: CL-15 reminders and deadline, the at-start snapshot and
chess.com polling.
"""
