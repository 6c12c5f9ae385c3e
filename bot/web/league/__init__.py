"""The league's pages: seasons, division tables, crosstables, rounds and matches."""
