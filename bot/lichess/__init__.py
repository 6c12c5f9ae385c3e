"""lichess.org's public API: the game-export client, its payload models, its site games."""
