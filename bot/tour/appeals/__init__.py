"""Fair-play appeals (CCT-11)."""
