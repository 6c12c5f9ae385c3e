"""Discord components shared by cogs and the bot: persistent motion buttons, pagination,
Confirm / Cancel, and who acts through them."""
