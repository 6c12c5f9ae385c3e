"""The tour's repositories: tours, events, games and rulings."""
