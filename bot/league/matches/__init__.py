"""Match use cases and reads, by CL-13..15, CL-5, CL-6, CL-20, CL-14 and CL-19."""
