"""Events: creating one, entering players, the draw, the knock-out start and the pin.

The event card, pairings, standings, bracket and calendar are its read models.
"""
