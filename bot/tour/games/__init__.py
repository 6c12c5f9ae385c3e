"""Games: reports, confirmations, disputes, arbiter entries and corrections (CCT-9), PGN and
game links (CCT-7); the game card and the open games offered to a member."""
