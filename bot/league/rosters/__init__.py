"""Roster use cases and reads, by CL-18, CL-19 and CL-21."""
