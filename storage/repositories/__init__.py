"""All SQL lives here. Repositories flush but never commit."""
