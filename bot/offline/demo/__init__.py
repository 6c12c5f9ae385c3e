"""`arbiter demo`: a whole CL season generated from a seed and played through the real bot offline.

It uses `arbiter replay`'s machinery, and holds the world, its chess.com payloads, the script and
the run.
"""
