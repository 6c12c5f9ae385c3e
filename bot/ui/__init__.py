"""Discord components shared by cogs and the bot: persistent buttons and who acts through them."""
