"""Directors' motions and decisions, by CL-23."""
