"""Season use cases and reads, by CL-1, CL-7, CL-8, CL-12 and CL-13."""
