"""Roster use cases and reads (CL-18, CL-19, CL-21)."""
