"""Standings views and pins, by CL-14 and CL-17."""
