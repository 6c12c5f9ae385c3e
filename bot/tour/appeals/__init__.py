"""Fair-play appeals, by CCT-11."""
