"""Games looked up where they are played: what a poll reads from chess.com and lichess."""
