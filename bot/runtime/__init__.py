"""The running program's machinery shared by every competition: the durable scheduler and its clock,
the outbox sender, the wake loop, announcements queued in a unit of work."""
