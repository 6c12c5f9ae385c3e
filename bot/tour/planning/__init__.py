"""The jobs a change to an event or a game calls for: their kinds, names and plan."""
