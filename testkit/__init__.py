"""Test and benchmark helpers that tests/, bench/ and scripts/ share: real servers
(SeaweedFS, Postgres databases, a webhook receiver, hostile HTTP clients), generated
documents and the corpus samples. Imported downward only; nothing here imports tests/."""
