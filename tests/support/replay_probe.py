"""A cog for the replay's own tests: every kind of step the league commands will need —
buttons, autocomplete, an attachment, a chess.com fetch, a paired game looked up on chess.com
or lichess, an announcement, a scheduled job that posts, an unexpected error, a button that
opens a form, a direct message with buttons. Loaded only by tests/stories/test_replay_steps.py
and tests/stories/test_replay_dms.py."""

from __future__ import annotations

from datetime import datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.arbiter import ArbiterBot
from bot.kernel.notifications import Kind
from bot.lichess.client import LichessClient
from bot.runtime.notify import notify
from bot.runtime.polite_http import ApiError
from bot.sites.fetch_plan import Watch
from bot.sites.poll import poll
from core.tour.game_search import GameQuery, Site
from core.tour.timecontrols import RAPID
from storage.guild import UnitOfWork
from storage.shared.jobs import Job


def _button(label: str, custom_id: str) -> dict[str, object]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


class ProbeForm(discord.ui.Modal, title="Probe form"):
    """A form of two fields, one of them optional, that says what it was given."""

    match: discord.ui.TextInput[ProbeForm] = discord.ui.TextInput(
        label="Match", custom_id="probe:form:match"
    )
    note: discord.ui.TextInput[ProbeForm] = discord.ui.TextInput(
        label="Note", custom_id="probe:form:note", required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        where = "a direct message" if interaction.guild_id is None else "the server"
        text = f"{interaction.user.name} submitted match {self.match.value}"
        text += f", note {self.note.value or '-'}, from {where}"
        await interaction.response.send_message(text, ephemeral=True)


class ProbeButtons(discord.ui.View):
    """The persistent buttons of the probe's messages: one answers, one opens the form."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Answer", custom_id="probe:dm:answer")
    async def answer(
        self, interaction: discord.Interaction, button: discord.ui.Button[ProbeButtons]
    ) -> None:
        where = "a direct message" if interaction.guild_id is None else "the server"
        await interaction.response.send_message(f"{interaction.user.name} answered from {where}")

    @discord.ui.button(label="Fill in", custom_id="probe:dm:form")
    async def fill_in(
        self, interaction: discord.Interaction, button: discord.ui.Button[ProbeButtons]
    ) -> None:
        await interaction.response.send_modal(ProbeForm())


class ReplayProbe(commands.Cog):
    """Commands that exercise the replay's steps."""

    probe = app_commands.Group(name="probe", description="Replay probe.", guild_only=True)

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot

    @probe.command(name="vote", description="Ask with Yes/No buttons.")
    async def vote(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        for label in ("Yes", "No"):
            button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
                label=label, custom_id=f"probe:{label.lower()}"
            )
            button.callback = self._clicked(label)  # type: ignore[method-assign]
            view.add_item(button)
        await interaction.response.send_message("Vote?", view=view)

    @staticmethod
    def _clicked(label: str):  # type: ignore[no-untyped-def]
        async def clicked(click: discord.Interaction) -> None:
            await click.response.edit_message(content=f"{click.user.name} voted {label}", view=None)

        return clicked

    @probe.command(name="club", description="Pick a club.")
    async def club(self, interaction: discord.Interaction, club: str) -> None:
        await interaction.response.send_message(f"club {club}", ephemeral=True)

    @club.autocomplete("club")
    async def clubs(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["arsenal-fans", "barca-fans", "bayern-fans"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @probe.command(name="upload", description="Read a file.")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        await interaction.response.send_message(f"{file.filename}: {len(data)} bytes")

    @probe.command(name="fetch", description="Fetch from chess.com.")
    async def fetch(self, interaction: discord.Interaction, path: str) -> None:
        try:
            data = await self.bot.chesscom_client().get_json(path)  # the bot's one client
        except ApiError as error:
            await interaction.response.send_message(f"chess.com said {error.status}")
            return
        await interaction.response.send_message(f"name: {data['name']}")

    @probe.command(name="game", description="Look a rapid game up where it was played.")
    async def game(
        self,
        interaction: discord.Interaction,
        site: str,
        white: str,
        black: str,
        start: str,
        hours: int,
    ) -> None:
        begin = datetime.fromisoformat(start)
        query = GameQuery(
            Site(site), white, black, white, begin, begin + timedelta(hours=hours), RAPID
        )
        config = self.bot.config
        async with LichessClient(config.lichess_settings()) as lichess:
            found = await poll(
                [Watch("probe", query)],
                self.bot.database.clock(),
                chesscom=self.bot.chesscom_client(),
                lichess=lichess,
            )
        if 0 in found.failures:
            text = f"not read: {found.failures[0]}"
        else:
            search = found.searches[0]
            text = f"{search.status.value}: {search.game.url if search.game else '-'}"
        await interaction.response.send_message(text)

    @probe.command(name="remind", description="Post a reminder in an hour.")
    async def remind(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        store = self.bot.guild_store(interaction.guild_id or 0)
        async with store.change(interaction.user.id, "probe.remind", "probe") as uow:
            due = uow.now + timedelta(hours=1)
            await uow.jobs.schedule("probe-remind", "probe", due, {"channel": channel.id})
            await uow.outbox.post(channel.id, content=f"Reminder set by <@{interaction.user.id}>")
        await interaction.response.send_message("scheduled", ephemeral=True)

    async def remind_now(self, job: Job, uow: UnitOfWork) -> None:
        await uow.outbox.post(job.payload["channel"], content=f"Reminder at {uow.now:%H:%M}")

    @probe.command(name="form", description="A message whose button opens a form.")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Fill me in", view=ProbeButtons())

    @probe.command(name="dm", description="Send a member a direct message with buttons.")
    async def dm(self, interaction: discord.Interaction, member: discord.Member) -> None:
        store = self.bot.guild_store(interaction.guild_id or 0)
        buttons = [_button("Answer", "probe:dm:answer"), _button("Fill in", "probe:dm:form")]
        row = [{"type": 1, "components": buttons}]
        async with store.change(interaction.user.id, "probe.dm", "probe") as uow:
            chosen = await notify(
                uow,
                Kind.CHALLENGE,
                [member.id],
                channel_id=interaction.channel_id or 0,
                content=f"Probe DM for {member.name}",
                components=row,
            )
        await interaction.response.send_message(f"notified {len(chosen)}", ephemeral=True)

    @probe.command(name="boom", description="Fail unexpectedly.")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise ZeroDivisionError("deliberate")


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    cog = ReplayProbe(bot)
    bot.jobs.register("probe-remind", cog.remind_now)
    bot.add_view(ProbeButtons())
    await bot.add_cog(cog)
