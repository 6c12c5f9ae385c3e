"""A Discord-protocol double for tests: Discord's REST API v10 and gateway on 127.0.0.1, so
the real program (`arbiter run` as a child process, or an `ArbiterBot` in the test) can be
driven the way Discord drives it. Test infrastructure only: nothing in `bot/` imports it;
the bot reaches it through `ARBITER_DISCORD_API` alone.

- `server.DiscordDouble`: the server and the test API (guilds, members, roles, interactions
  sent as a member, button clicks, every message and callback the bot made);
- `rest`: the REST routes, Discord's interaction and message rules, error shapes;
- `ratelimits`: `X-RateLimit-*` headers, per-route and global limits, scripted 429s and 5xx;
- `gateway`: HELLO, heartbeats, IDENTIFY (intents, shards, session start limit), READY,
  GUILD_CREATE, RESUME, RECONNECT, INVALID_SESSION, member chunks, close codes, zlib-stream;
- `limits`: Discord's documented body limits and its 400 Invalid Form Body;
- `world`: guilds, roles, channels, members and messages as Discord's objects.
"""

from tests.discord_double.server import DiscordDouble, Interaction, Sent

__all__ = ["DiscordDouble", "Interaction", "Sent"]
