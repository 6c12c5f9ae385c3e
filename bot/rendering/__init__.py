"""How Arbiter shows things on Discord: embeds and text built from services' results."""
