"""One way to show user text (issue 20, item 1): text from a user or chess.com shows exactly
as typed in Discord — no markdown, masked or bare link, mention, timestamp, command, emoji or
line-start markup that is not the bot's own — neutralised exactly once, in message content,
embeds (titles, fields), refusals and images. Checked by reading the rendered text with a
Discord-markdown reader written from Discord's documented syntax
(tests/support/discord_markdown.py) over generated hostile strings.

`ARBITER_LONG_PROPERTIES=1` runs many more examples."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app.tree import describe_error
from bot.formats.season_file import load_season
from bot.kernel.errors import UserError
from bot.kernel.inputs import named, shown
from bot.rendering.common.image_text import drawable
from bot.rendering.common.text import countdown, cut, halves, points, score, timestamp
from bot.rendering.common.user_text import Escaped, ours, plain, user_text
from bot.rendering.league import announcements
from bot.rendering.league import embeds as league_embeds
from bot.rendering.league.division_view import DivisionView
from bot.rendering.league.motions import (
    closing_announcement,
    motion_embed,
    motion_label,
    motion_line,
)
from bot.rendering.league.standings_table import division_block
from core.league import league_report
from core.league.standings import division_standings
from storage.league.motions import Motion
from tests.support.discord_markdown import constructs, parse, skeleton
from tests.support.discord_markdown import shown as seen

LONG = bool(os.environ.get("ARBITER_LONG_PROPERTIES"))
EXAMPLES = 1500 if LONG else 60

FRAGMENTS = (
    "[Free Nitro](https://evil.example)",
    "[a](<https://evil.example>)",
    "](https://evil.example)",
    "https://evil.example/x",
    "<https://evil.example>",
    "<t:0:R>",
    "<t:-1>",
    "<#1>",
    "<@1>",
    "<@!1>",
    "<@&1>",
    "</vote open:1>",
    "<:e:1>",
    "<a:e:1>",
    "<id:home>",
    "@everyone",
    "@here",
    "**",
    "*",
    "__",
    "_",
    "~~",
    "||",
    "`",
    "```",
    "\\",
    "# ",
    "## ",
    "-# ",
    "> ",
    ">>> ",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "\n",
    " ",
    "Fans",
    "x",
    "1",
    ".",
    ":",
    "é",
    "½",
)
"""Pieces of Discord syntax (and plain text) that hostile names are made of."""

hostile = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(min_size=1, max_size=3)), min_size=1, max_size=12
).map("".join)
"""Strings mixing Discord constructs, their pieces and any characters."""


def _as_typed(markdown: str, typed: str) -> None:
    nodes = parse(markdown)
    assert not constructs(nodes), (typed, markdown, constructs(nodes))
    assert seen(nodes).replace("\u200b", "") == typed.replace("\u200b", ""), (typed, markdown)


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=hostile)
def test_user_text_shows_any_text_as_typed_and_nothing_else(text: str) -> None:
    """Property: Discord reads `user_text(text)` as exactly `text`, with no construct."""
    _as_typed(user_text(text), text)


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=hostile)
def test_user_text_neutralises_exactly_once(text: str) -> None:
    """Passing rendered text on never escapes it again (no visible backslashes): the
    result is an `Escaped`, returned as it is."""
    once = user_text(text)
    assert isinstance(once, Escaped)
    assert user_text(once) is once
    assert user_text(ours(f"**{once}**")) == f"**{once}**"


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=hostile, limit=st.integers(min_value=2, max_value=60))
def test_cut_text_stays_neutral(text: str, limit: int) -> None:
    """Cut to any limit (a title, a field), the rest still shows as typed: no half escape
    frees a construct."""
    shown_ = cut(user_text(text), limit)
    assert len(shown_) <= limit
    assert not constructs(parse(shown_)), (text, shown_)


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=hostile)
def test_our_markdown_around_user_text_stays_ours(text: str) -> None:
    """The bot's bold around a name stays one bold holding exactly the name."""
    nodes = parse(f"Club **{user_text(text)}** is approved.")
    assert [n.kind for n in constructs(nodes)] == ["strong"], (text, nodes)
    [strong] = [n for n in nodes if n.kind == "strong"]
    assert seen(strong.children).replace("\u200b", "") == text.replace("\u200b", "")


@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(text=hostile)
def test_refusals_quote_user_text_as_typed(text: str) -> None:
    """A refusal echoing a name or a value (`named`, `shown`) shows it as typed in Discord,
    and the same text unchanged on the command line."""
    text = text.replace("\x1e", "").replace("\x1f", "")  # the marks' own (control) characters
    error = UserError(f"Club {named(text)} is pending: it cannot play.")
    message, unexpected = describe_error(error)
    assert not unexpected
    nodes = parse(message)
    assert not constructs(nodes), (text, message)
    assert text.replace("\u200b", "") in seen(nodes).replace("\u200b", "")
    assert error.message == f"Club {text} is pending: it cannot play."
    quoted = parse(UserError(f"No club {shown(text)} on this server.").markdown)
    assert not constructs(quoted), quoted


def _embed_texts(embeds: list[discord.Embed] | discord.Embed | dict[str, Any]) -> list[str]:
    items = embeds if isinstance(embeds, list) else [embeds]
    texts = []
    for embed in items:
        data = embed if isinstance(embed, dict) else embed.to_dict()
        texts += [data.get("title") or "", data.get("description") or ""]
        for field in data.get("fields") or []:
            texts += [field["name"], field["value"]]
    return texts


START = dt.datetime(2026, 3, 7, 18, tzinfo=dt.UTC)


def _line(name: str) -> league_embeds.MatchLine:
    return league_embeds.MatchLine(
        7, name, name, f"{name}-1", 2, name, "Other", START, START, True, (11, 5), "not issued"
    )


def _motion(name: str, outcome: str | None = None) -> Motion:
    subject = {"title": f"match 7 ({name} – B)", "details": f"{name} forfeits the match."}
    return Motion(
        id=7,
        kind="forfeit",
        season_id=1,
        match_id=7,
        club_id=1,
        rule="CL-21",
        subject=subject,
        reason=name,
        opened_by=1,
        opened_at=START,
        deadline=START,
        quorum=2,
        electorate=(1, 2),
        status="passed",
        closed_at=START,
        outcome=outcome or f"{name} forfeits match 7. Standings: P: {name} 1. → 2.",
        channel_id=None,
        outbox_id=None,
        votes={1: True, 2: True},
    )


RENDERINGS: dict[str, Callable[[str], list[str]]] = {
    "club registered": lambda n: [announcements.club_registered(n, "url-id", (5, 6))],
    "club decided": lambda n: [announcements.club_decided(n, "rejected", n)],
    "season scheduled": lambda n: [announcements.season_scheduled(n, 3, START)],
    "rescheduled": lambda n: [announcements.match_rescheduled(n, n, START, START)],
    "result": lambda n: [announcements.result_recorded(n, n, 3, 1, "chess.com")],
    "decision": lambda n: [announcements.decision_recorded("forfeit", n, "CL-21", 4)],
    "reminder": lambda n: [
        announcements.challenge_reminder(n, n, (5,), 7, START, "/match challenge")
    ],
    "forfeits": lambda n: [announcements.deadline_forfeits(n, n, [n], START, True)],
    "disqualified": lambda n: [announcements.disqualified(n, "CL-15", 3, 2)],
    "standings change": lambda n: [announcements.standings_change(n, [(n, "1", "2")])],
    "at start": lambda n: [announcements.at_start_snapshot(n, n, START, [n], START, True, [n])],
    "match list": lambda n: _embed_texts(league_embeds.match_list(n, [_line(n)])),
    "match card": lambda n: _embed_texts(
        league_embeds.match_embed(
            _line(n), [league_embeds.BoardLine(1, "a_b", "c*d", 3, 1, n)], [n]
        )
    ),
    "club card": lambda n: _embed_texts(
        league_embeds.club_embed(
            league_embeds.ClubInfo(n, "url", "approved", (5,), n, None, 3, 1500.0, {})
        )
    ),
    "season card": lambda n: _embed_texts(
        league_embeds.season_embed(
            league_embeds.SeasonInfo(
                n, "finished", (league_embeds.DivisionSize(n, 4, 2),), None, 7, 6, 6, n
            )
        )
    ),
    "calendar": lambda n: _embed_texts(league_embeds.calendar_embeds(n, [_line(n)])),
    "schedule preview": lambda n: _embed_texts(
        league_embeds.schedule_preview(n, [(1, START, [f"{n} – {n}"])], 1)
    ),
    "result card": lambda n: _embed_texts(
        league_embeds.result_embed(_line(n), (3, 1), (1, 3), [], [(n, "1")])
    ),
    "motion": lambda n: _embed_texts(motion_embed(_motion(n))),
    "motion closed": lambda n: [closing_announcement(_motion(n)), motion_line(_motion(n))],
}
"""Every renderer of names, reasons and chess.com text, fed one text for all of them."""


@pytest.mark.parametrize("name", sorted(RENDERINGS))
@settings(max_examples=max(8, EXAMPLES // 6), deadline=None)
@given(text=hostile)
def test_every_renderer_shows_the_bots_formatting_and_no_other(name: str, text: str) -> None:
    """Property: a renderer shows a hostile text with the same formatting, links and
    mentions as a plain name (the bot's own), only the text differs — and the text shows as
    typed (exactly once: no visible backslash)."""
    text = text.replace("\n", " ")  # a name is one line (the gate refuses line breaks)
    render = RENDERINGS[name]
    plain_texts = render("Plain")
    hostile_texts = render(text)
    for benign, rendered in zip(plain_texts, hostile_texts, strict=True):
        assert skeleton(parse(rendered)) == skeleton(parse(benign)), (name, text, rendered)
    typed = text.replace("\u200b", "")
    everything = "\n".join(seen(parse(t)) for t in hostile_texts).replace("\u200b", "")
    assert typed.strip() in everything or len(typed) > 40, (name, text)


def test_a_motion_outcome_is_neutralised_once_not_twice() -> None:
    """Issue 20: the motion's "Standings: …" line was escaped when made and again when shown,
    so names with `_ * \\ | ~` showed literal backslashes. Stored as typed, shown once."""
    from bot.rendering.league.motions import standings_change

    season: dict[str, Any] = {
        "name": "S",
        "divisions": [{"name": "P_1", "min_players": 1, "clubs": ["a_b", "c*d"]}],
    }

    before = league_report(load_season(season | {"matches": []}))
    after = league_report(
        load_season(
            season
            | {
                "matches": [
                    {
                        "id": "1", "division": "P_1", "round": 1, "home": "a_b", "away": "c*d",
                        "start": "2017-09-01T18:00:00Z", "finished": "2017-09-08T18:00:00Z",
                        "challenge": {"issued_by": "a_b", "issued": "2017-08-20T00:00:00Z",
                                      "accepted": "2017-08-21T00:00:00Z"},
                        "boards": [{"home_player": "x", "away_player": "y",
                                    "home_points": 0, "away_points": 2}],
                    }
                ]
            }
        )
    )  # fmt: skip
    change = standings_change(before, after)
    assert "\\" not in change and "c*d" in change  # stored as typed
    nodes = parse(closing_announcement(_motion("m", change)))
    text = seen(nodes)
    assert "P_1: c*d" in text and "\\" not in text


@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(text=hostile)
def test_where_discord_shows_no_markdown_text_is_plain(text: str) -> None:
    """Autocomplete choices, footers and images show no markdown: text goes there as typed
    (no backslash), a line break as a space; an image draws the letters, not escapes."""
    assert "\\" not in plain(text).replace(text, "") or "\\" in text
    label = motion_label(_motion(text))
    assert len(label) <= 100 and "\n" not in label
    if "\\" not in text:
        assert "\\" not in label and "\\" not in drawable(text)


def test_the_standings_table_keeps_names_in_code_and_the_legend_as_typed() -> None:
    rows = division_standings(["[x](https://evil.example) <t:0:R>", "Plain"], [])

    [block] = division_block(DivisionView("S", "**D**", None, tuple(rows), ()))
    kinds = {n.kind for n in constructs(parse(block))}
    assert kinds <= {"strong", "codeblock", "code"}, kinds


def test_scores_and_instants_are_written_one_way() -> None:
    """½ (and ¼ ¾ for a team SB) everywhere a person reads a score; Discord timestamps."""
    assert [halves(n) for n in (0, 1, 3, 27)] == ["0", "½", "1½", "13½"]
    assert points(Fraction(141, 4)) == "35¼" and score(Fraction(5, 2), Fraction(3, 2)) == "2½–1½"
    assert timestamp(START) == f"<t:{int(START.timestamp())}:F>"
    assert countdown(START) == f"{timestamp(START)} ({timestamp(START, 'R')})"
    with pytest.raises(ValueError):
        timestamp(dt.datetime(2026, 1, 1))  # naive: no zone, no instant


def test_cut_never_exceeds_its_limit() -> None:
    """Issue 21: two of the eight hand-written cuts allowed limit + 1 characters."""
    for limit in range(1, 30):
        for text in ("x" * 40, "\\" * 40, "ab" * 20):
            assert len(cut(text, limit)) <= limit
    assert cut("short", 10) == "short"
