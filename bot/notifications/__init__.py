"""Members' choices of the direct messages Arbiter sends them, made with `/notify`."""
