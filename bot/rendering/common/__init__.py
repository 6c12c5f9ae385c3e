"""What both competitions' renderers share: text, limits, pages, images."""
