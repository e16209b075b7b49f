"""Prefect flows and thin tasks: the pipeline from queued to a terminal state."""
