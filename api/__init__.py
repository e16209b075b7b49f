"""HTTP API, web application and CLI. The outermost layer: imports flows and storage."""
