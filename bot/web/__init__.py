"""The public web site: a read-only view of the competitions of the guilds that opted in.

`site.py` builds the aiohttp application, `pages.py` the frame every page shares, and the
`league` and `tour` packages each competition's pages and feeds. docs/web.md describes it.
"""
