"""Arbiter offline: the real bot driven without Discord or chess.com — a recorded Discord
boundary (`discord_stub`), a local chess.com stand-in (`chesscom_standin`) and the replay of a
script of interactions on a virtual clock (`replay`)."""
