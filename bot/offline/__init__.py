"""Arbiter offline: the real bot driven without Discord, chess.com or lichess.

It has a recorded Discord boundary in `discord_stub`, local chess.com and lichess.org stand-ins in
`chesscom_standin` and `lichess_standin` on `standin_server`, and the replay of a script of
interactions on a virtual clock in `replay`.
"""
