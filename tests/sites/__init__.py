"""Tests: the chess.com and lichess clients and the game search over them."""
