"""The tour running itself: jobs from stored facts on the bot's scheduler (issue 23)."""
