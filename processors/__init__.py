"""Pure document understanding: bytes in, frozen result out. No DB, no Prefect, no settings."""
