"""The tour running itself: jobs from stored facts on the bot's scheduler, as issue 23 asked."""
