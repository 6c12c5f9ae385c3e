"""Match use cases and reads (CL-13..15, CL-5/6/20, CL-14, CL-19)."""
