"""Events: creating one, entering players, the draw, the knock-out start and the pin; the
event card, pairings, standings, bracket and calendar as read models."""
