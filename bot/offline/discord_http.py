"""Discord's HTTP side, offline: its errors, message bodies and the recording webhook adapter.

Interaction replies reach Discord through discord.py's webhook adapter. `RecordingAdapter`
takes its place and records each reply, refusing one over Discord's limits as Discord would.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.offline.discord_messages import EPHEMERAL, Reply, message_limit_problems

if TYPE_CHECKING:
    from bot.offline.discord_stub import DiscordStub

REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}
"""The reason phrase of each HTTP status the offline Discord answers with."""


@dataclass
class _Response:
    """What discord.py's HTTP errors read of an aiohttp response."""

    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict)


def http_error(
    status: int, data: dict[str, Any], *, retry_after: float | None = None
) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer `status` with body `data`."""
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    response = _Response(status, REASONS.get(status, "Error"), headers)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(
        status, discord.DiscordServerError if status >= 500 else discord.HTTPException
    )
    # Any: discord.py types `response` as aiohttp's or requests' response (requests only when
    # installed, so a `type: ignore` here is unused in a venv without it and mypy fails).
    return kind(cast(Any, response), data)


def refuse_over_limits(body: dict[str, Any]) -> None:
    """Answers as Discord does, with 400 Invalid Form Body, to a message over Discord's limits."""
    problems = message_limit_problems(body)
    if problems:
        message = f"Invalid Form Body: {'; '.join(problems)}"
        raise http_error(400, {"code": 50035, "message": message})


def uploaded_files(multipart: Any) -> dict[str, bytes]:
    """The files of a multipart message call, by file name."""
    found = {}
    for part in multipart or []:
        value, name = part.get("value"), part.get("filename")
        if name is None or value is None:
            continue
        if hasattr(value, "getvalue"):
            found[str(name)] = bytes(value.getvalue())
        elif hasattr(value, "read"):
            position = value.tell()
            found[str(name)] = bytes(value.read())
            value.seek(position)
        else:
            found[str(name)] = bytes(value)
    return found


def message_body(payload: Any, multipart: Any) -> dict[str, Any]:
    """The JSON body of a message call: the payload, or the `payload_json` of a multipart."""
    if payload is not None:
        return dict(payload)
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return dict(json.loads(part["value"]))
    return {}


class RecordingAdapter(AsyncWebhookAdapter):
    """A webhook adapter that records every reply to one interaction instead of calling
    Discord."""

    def __init__(self, stub: DiscordStub, channel_id: int) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py leaves it unannotated
        self.stub = stub
        self.channel_id = channel_id
        self.replies: list[Reply] = []
        self.original_id: int | None = None
        self.original_flags = 0
        self.thinking = False  # a deferred "thinking…" message not yet replaced

    async def create_interaction_response(  # type: ignore[override]
        self, interaction_id: int, token: str, *, session: Any, params: Any, **_: Any
    ) -> dict[str, Any]:
        payload = message_body(params.payload, params.multipart)
        refuse_over_limits(payload.get("data") or {})
        message_id = self.original_id = self.stub.fresh_id()
        self.replies.append(
            Reply(
                "response", payload, message_id, self.channel_id, uploaded_files(params.multipart)
            )
        )
        self.original_flags = (payload.get("data") or {}).get("flags") or 0
        self.thinking = payload.get("type") == 5
        return {
            "interaction": {
                "id": str(interaction_id),
                "type": 2,
                "response_message_id": str(message_id),
                "response_message_ephemeral": bool(
                    ((payload.get("data") or {}).get("flags") or 0) & EPHEMERAL
                ),
            }
        }

    def _message(
        self,
        kind: str,
        payload: dict[str, Any] | None,
        multipart: list[dict[str, Any]] | None,
        message_id: int | None,
    ) -> dict[str, Any]:
        body = message_body(payload, multipart)
        refuse_over_limits(body)
        message_id = message_id or self.stub.fresh_id()
        self.replies.append(
            Reply(kind, body, message_id, self.channel_id, uploaded_files(multipart))
        )
        return self.stub.message_payload(message_id, body, self.channel_id)

    async def execute_webhook(  # type: ignore[override]
        self, webhook_id: int, token: str, *, payload: Any = None, multipart: Any = None, **_: Any
    ) -> dict[str, Any]:
        if self.thinking:
            # As Discord does: the first follow-up after a deferred "thinking…" response
            # replaces that message and keeps the defer's visibility, whatever its own flags.
            self.thinking = False
            body = message_body(payload, multipart)
            body["flags"] = (body.get("flags") or 0) & ~EPHEMERAL | self.original_flags
            return self._message("followup", body, None, self.original_id)
        return self._message("followup", payload, multipart, None)

    async def get_original_interaction_response(  # type: ignore[override]
        self, application_id: int, token: str, **_: Any
    ) -> dict[str, Any]:
        original = next(r for r in self.replies if r.message_id == self.original_id)
        return self.stub.message_payload(
            original.message_id or 0,
            original.data | {"flags": self.original_flags},
            self.channel_id,
        )

    async def edit_original_interaction_response(  # type: ignore[override]
        self,
        application_id: int,
        token: str,
        *,
        payload: Any = None,
        multipart: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        self.thinking = False
        return self._message("edit_original", payload, multipart, self.original_id)

    async def edit_webhook_message(  # type: ignore[override]
        self,
        webhook_id: int,
        token: str,
        message_id: int,
        *,
        payload: Any = None,
        multipart: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        return self._message("edit_message", payload, multipart, message_id)

    async def delete_webhook_message(
        self, webhook_id: int, token: str, message_id: int, **_: Any
    ) -> None:
        self.replies.append(Reply("delete", {}, message_id, self.channel_id))

    async def delete_original_interaction_response(
        self, application_id: int, token: str, **_: Any
    ) -> None:
        self.replies.append(Reply("delete", {}, self.original_id, self.channel_id))
