"""The league running itself (SURFACE.md "What happens on its own"): the handlers of the
match jobs — CL-15 reminders and deadline, the at-start snapshot, chess.com polling."""
