"""The security headers of every answer under /app.

The pages have no script and no inline style (tests/web/test_page_audit.py checks), so
the policy allows only our own style sheets and images and nothing else: no script,
no frames, no plugins, forms only to ourselves, and no site may frame a page."""

from __future__ import annotations

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "style-src 'self'",
        "img-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    )
)
HSTS_SECONDS = 365 * 24 * 3600


def security_headers(https: bool) -> dict[str, str]:
    headers = {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Frame-Options": "DENY",  # frame-ancestors for browsers without CSP level 2
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
    }
    if https:
        headers["Strict-Transport-Security"] = f"max-age={HSTS_SECONDS}"
    return headers
