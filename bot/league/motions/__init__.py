"""Directors' motions and decisions (CL-23)."""
