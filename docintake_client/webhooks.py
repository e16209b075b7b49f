"""Webhook signature verification: the place for it, not yet written.

When the server sends webhooks, the function that checks a delivery's signature
(the shared secret, the signature and timestamp headers, the raw body) belongs here,
beside the client, re-exported from `docintake_client`, and tested in
tests/client/test_webhooks.py. Like the rest of this package it may use only what the
public API documents: nothing from the server's packages.
"""
