"""`arbiter demo`: a whole CL season generated from a seed and played through the real bot
offline (`arbiter replay`'s machinery): the world, its chess.com payloads, the script, the run."""
