"""Standings views and pins (CL-14, CL-17)."""
