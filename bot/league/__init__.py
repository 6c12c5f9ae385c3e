"""The CL league's use cases, its automation jobs, read models and database adapter.

There is one package per feature: clubs, seasons, matches, rosters, motions and standings.
"""
