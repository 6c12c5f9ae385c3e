"""Interactive message parts: pagination buttons and Confirm / Cancel."""
