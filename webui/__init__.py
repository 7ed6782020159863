"""The Flask dashboard (application factory, blueprints, templates, static files)."""
