"""Knock-out series by CCT-8c to CCT-8e: colour choices and the series card."""
