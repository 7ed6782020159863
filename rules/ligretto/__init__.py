"""ligretto rules (being written)."""
