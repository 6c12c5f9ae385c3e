"""Season use cases and reads (CL-1, CL-7, CL-8, CL-12, CL-13)."""
