"""Arbiter offline: the real bot driven without Discord, chess.com or lichess — a recorded
Discord boundary (`discord_stub`), local chess.com and lichess.org stand-ins (`chesscom_standin`,
`lichess_standin`, on `standin_server`) and the replay of a script of interactions on a virtual
clock (`replay`)."""
