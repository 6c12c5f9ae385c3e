"""Knock-out series (CCT-8c-e): colour choices and the series card."""
