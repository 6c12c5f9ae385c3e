"""Club use cases and reads, by CL-2..4."""
