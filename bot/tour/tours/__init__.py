"""Tours: creating one with its rules frozen, Ambassadors, and linking members to players.

The tour standings, qualification and prizes are its read models.
"""
