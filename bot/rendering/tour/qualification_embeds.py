"""`/tour qualification`: who is qualified for an event and why, by CCT-3, as embeds.

There is one line per qualified player with every reason and what backs it. Then come the places
left and who fills them, and the ties at a cut that need a CCT-6 play-off. Names are shown as
typed, escaped once through `user_text.user_text`. Long lists are paged by `common.embeds.paged`.

API: `qualification_embeds(event, qualification, *, name_of=str, field=None)` returns a list of
embeds from a `core.tour.qualification.QualificationList`. For the Finals, the declines,
wildcards and open places come from a `FinalsField`.
"""

from __future__ import annotations

import discord

from bot.rendering.common.embeds import paged
from bot.rendering.common.user_text import user_text
from bot.rendering.tour.report_json import detail, why
from bot.rendering.tour.views import NameOf
from core.tour.qualification import FinalsField, QualificationList
from core.tour.ranking import EventType

AMBASSADOR_PLACES = (
    "the best-ranked Tour Ambassadors not already qualified, named by the organiser (CCT-3)"
)
"""Who fills a Finals place left: the Ambassadors. The list names them once known."""


def qualification_lines(
    qualification: QualificationList,
    name_of: NameOf = str,
    field: FinalsField | None = None,
) -> list[str]:
    """CCT-3: the list as lines.

    It gives a summary, each qualified player, the places left and the play-offs required. For the
    Finals' `field` it adds who declined and whom their place went to, the wildcards and the places
    still open.
    """
    q = qualification
    summary = f"**{q.size} places** ({q.event_type.value}) · {len(q.qualified)} qualified · "
    if field is not None:
        summary += f"{len(field.wildcards)} wildcards · {field.open_places} open"
    else:
        summary += f"{q.places_left} left"
    lines = [summary]
    group_of = {p: group for group in q.playoffs_required for p in group}
    for number, entry in enumerate(q.qualified, start=1):
        others = [name_of(p) for p in group_of.get(entry.player, ()) if p != entry.player]
        line = f"{number}. **{user_text(name_of(entry.player))}** — {why(entry)}"
        line += f" ({user_text(detail(entry))})"
        if others:
            line += f" — play-off with {', '.join(user_text(n) for n in others)}"
        lines.append(line)
    if field is not None:
        lines += field_lines(field, name_of)
    elif q.places_left:
        who = AMBASSADOR_PLACES if q.event_type is EventType.FINALS else q.organiser_places
        lines.append(f"**Places left: {q.places_left}** — {who}")
    for group in q.playoffs_required:
        names = ", ".join(user_text(name_of(p)) for p in group)
        lines.append(
            f"**Play-off required** (organiser may forgo): {names} — their tie decides a "
            "place (CCT-6)"
        )
    return lines


def field_lines(field: FinalsField, name_of: NameOf = str) -> list[str]:
    """CCT-3: the Finals' declines with whom each place went to, the wildcards and the open
    places.
    """
    lines = []
    for d in field.declines:
        went = ", ".join(user_text(name_of(p)) for p in d.replaced_by)
        place = f"place offered to {went}" if went else "no one next in line: place open"
        lines.append(f"**Declined:** {user_text(name_of(d.player))} — {place}")
    for number, player in enumerate(field.wildcards, start=1):
        lines.append(f"W{number}. **{user_text(name_of(player))}** — wildcard (organiser)")
    lines.append(
        f"**Places open: {field.open_places}** — the organiser's wildcards, into the places "
        "the lists cannot fill"
    )
    return lines


def qualification_embeds(
    event: str,
    qualification: QualificationList,
    *,
    name_of: NameOf = str,
    field: FinalsField | None = None,
) -> list[discord.Embed]:
    """`/tour qualification`: the CCT-3 list for `event`, paged."""
    title = f"{event} · qualification (CCT-3)"  # paged shows it as typed
    lines = qualification_lines(qualification, name_of, field)
    return paged(title, lines, "No one is qualified yet.")
