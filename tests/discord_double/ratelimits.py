"""Discord's REST rate limits as the double enforces them, and the failures a test scripts.

Every answer carries `X-RateLimit-Limit`, `-Remaining`, `-Reset` (Unix seconds), `-Reset-After`
(seconds) and `-Bucket` (an opaque hash per route), as Discord's "Rate Limits" page documents;
limits apply per bucket and top-level resource (channel, guild, or webhook and token) and
globally per bot (interaction callbacks and webhook calls are exempt from the global limit).
Discord publishes no per-route numbers (clients must read the headers), so a route's limit is
the double's setting: generous by default, tightened by a test (`limit`). A request over a
limit gets 429 with `Retry-After`, `X-RateLimit-Scope` (`user`, `global`) and, when global,
`X-RateLimit-Global: true`, and the body `{"message", "retry_after", "global", "code"}`.

A test scripts failures (`Fault`): the next N matching requests answer 429 (route or global,
with a retry-after) or a 5xx, before anything is done, or (`after=True`) after the request
did its work, as when Discord created the message but the answer was lost.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limit:
    """`limit` requests per `window` seconds."""

    limit: int
    window: float


DEFAULT_LIMIT = Limit(1000, 1.0)
"""A route nobody tightened: well above what a test sends."""
GLOBAL_LIMIT = Limit(50, 1.0)
"""Discord's documented global limit: 50 requests per second per bot."""
EXEMPT_FROM_GLOBAL = ("/interactions/", "/webhooks/")


@dataclass
class Bucket:
    """One bucket and resource: requests left and when the window resets."""

    limit: Limit
    remaining: int
    reset_at: float

    def refresh(self, now: float) -> None:
        """Start a new window if the old one is over."""
        if now >= self.reset_at:
            self.remaining = self.limit.limit
            self.reset_at = now + self.limit.window


@dataclass
class Fault:
    """A scripted failure of the next `times` requests matching method, route (a key as for
    `RateLimiter.limit`: `METHOD /path/{param}`) and resource (`channel_id=…`)."""

    status: int
    method: str | None = None
    route: str | None = None
    resource: str | None = None
    times: int = 1
    retry_after: float = 0.0
    scope: str = "user"
    after: bool = False

    def matches(self, method: str, route: str, resource: str, after: bool) -> bool:
        """Whether a request (before or after its work) is one this fault fails."""
        return (
            self.times > 0
            and self.after == after
            and self.method in (None, method)
            and self.route in (None, f"{method} {route}")
            and self.resource in (None, resource)
        )


@dataclass
class Answer:
    """The rate-limit verdict for a request: headers to send and, if limited, the 429."""

    headers: dict[str, str]
    limited: dict[str, object] | None = None
    retry_after: float = 0.0
    scope: str = "user"


def bucket_hash(route: str) -> str:
    """An opaque bucket id per route (Discord's look like this)."""
    return hashlib.sha256(route.encode()).hexdigest()[:32]


@dataclass
class RateLimiter:
    """The per-route buckets, the global limit, and the scripted faults."""

    limits: dict[str, Limit] = field(default_factory=dict)
    global_limit: Limit = GLOBAL_LIMIT
    faults: list[Fault] = field(default_factory=list)
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    global_bucket: Bucket | None = None
    limited: list[tuple[str, str, str]] = field(default_factory=list)
    """(method route, resource, scope) of every 429 the limits (not the faults) gave."""

    def limit(self, route: str, limit: int, window: float) -> None:
        """Set a route's limit (a route key is `METHOD /path/{param}`)."""
        self.limits[route] = Limit(limit, window)

    def fault(self, fault: Fault) -> None:
        """Script a failure."""
        self.faults.append(fault)

    def scripted(self, method: str, route: str, resource: str, *, after: bool) -> Fault | None:
        """The fault this request meets, if any (counted down)."""
        for fault in self.faults:
            if fault.matches(method, route, resource, after):
                fault.times -= 1
                return fault
        return None

    def _bucket(self, key: str, resource: str, now: float) -> Bucket:
        """The bucket of a route and resource, its window refreshed."""
        limit = self.limits.get(key, DEFAULT_LIMIT)
        bucket = self.buckets.get((key, resource))
        if bucket is None:
            bucket = self.buckets[(key, resource)] = Bucket(limit, limit.limit, now + limit.window)
        bucket.limit = limit
        bucket.refresh(now)
        return bucket

    def peek(self, method: str, route: str, resource: str) -> Answer:
        """The headers of a request's bucket as it stands, counting nothing."""
        now = time.time()
        key = f"{method} {route}"
        bucket = self._bucket(key, resource, now)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit.limit),
            "X-RateLimit-Bucket": bucket_hash(key),
        }
        return Answer(headers | self._window(bucket, now))

    def admit(self, method: str, route: str, resource: str, path: str) -> Answer:
        """Count one request; its headers, and a 429 if it is over a limit."""
        now = time.time()
        key = f"{method} {route}"
        bucket = self._bucket(key, resource, now)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit.limit),
            "X-RateLimit-Bucket": bucket_hash(key),
        }
        if not path.startswith(EXEMPT_FROM_GLOBAL):
            if self.global_bucket is None:
                self.global_bucket = Bucket(self.global_limit, self.global_limit.limit, now)
            self.global_bucket.limit = self.global_limit
            self.global_bucket.refresh(now)
            if self.global_bucket.remaining <= 0:
                wait = self.global_bucket.reset_at - now
                self.limited.append((key, resource, "global"))
                return self._limited(headers, bucket, now, wait, "global")
            self.global_bucket.remaining -= 1
        if bucket.remaining <= 0:
            self.limited.append((key, resource, "user"))
            return self._limited(headers, bucket, now, bucket.reset_at - now, "user")
        bucket.remaining -= 1
        headers |= self._window(bucket, now)
        return Answer(headers)

    def _window(self, bucket: Bucket, now: float) -> dict[str, str]:
        """The Remaining/Reset/Reset-After headers of a bucket now."""
        return {
            "X-RateLimit-Remaining": str(bucket.remaining),
            "X-RateLimit-Reset": f"{bucket.reset_at:.3f}",
            "X-RateLimit-Reset-After": f"{max(bucket.reset_at - now, 0):.3f}",
        }

    def _limited(
        self, headers: dict[str, str], bucket: Bucket, now: float, wait: float, scope: str
    ) -> Answer:
        """A 429 of the limits (not a scripted one), with the bucket's headers."""
        return self.too_many(headers | self._window(bucket, now), max(wait, 0.0), scope)

    @staticmethod
    def too_many(headers: dict[str, str], retry_after: float, scope: str) -> Answer:
        """A 429 answer as Discord gives it."""
        headers = dict(headers)
        headers["Retry-After"] = f"{retry_after:.3f}"
        headers["X-RateLimit-Scope"] = scope
        headers["X-RateLimit-Remaining"] = "0"
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        body: dict[str, object] = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": scope == "global",
            "code": 0,
        }
        return Answer(headers, body, retry_after, scope)
