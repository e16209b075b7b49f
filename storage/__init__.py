"""Settings, database, repositories, object store and tables.

Imports processors, never flows or api."""
