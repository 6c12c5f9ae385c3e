"""The Finals by CCT-8f: the table with bonus points."""
