"""The league's repositories: clubs, seasons, matches, rosters, motions, decisions and pins."""
