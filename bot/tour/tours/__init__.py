"""Tours: creating one with its rules frozen, Ambassadors, linking members to players; the
tour standings, qualification and prizes as read models."""
