"""Club use cases and reads (CL-2..4)."""
