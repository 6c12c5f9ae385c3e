"""The Finals (CCT-8f): the table with bonus points."""
