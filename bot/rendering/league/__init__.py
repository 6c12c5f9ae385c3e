"""The league's renderers: embeds, images, CSV, text and JSON."""
