"""The tour's renderers: cards, tables, images, CSV, text and JSON."""
