"""The CL league's use cases (one package per feature: clubs, seasons, matches, rosters, motions,
standings), its automation jobs, read models and database adapter."""
