"""dolcevita rules (being written)."""
