"""Autocomplete of the commands' options, one module per competition."""
