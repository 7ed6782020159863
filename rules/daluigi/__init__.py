"""daluigi rules (being written)."""
