"""Games: reports, confirmations, disputes, arbiter entries and corrections by CCT-9.

It also covers PGN and game links by CCT-7, the game card and the open games offered to a member.
"""
