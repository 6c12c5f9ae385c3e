"""The league running itself ("What happens on its own" in docs/league-in-discord.md): the
handlers of the match jobs — CL-15 reminders and deadline, the at-start snapshot, chess.com
polling."""
