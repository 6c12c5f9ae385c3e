"""What every use case imports: errors, the actor, input checks, configuration."""
