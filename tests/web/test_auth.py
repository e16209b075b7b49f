"""Login, logout, sessions, CSRF and the login rate limit, through the real app."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from storage.db import Database
from storage.models import LoginAttempt, WebSession, utcnow
from storage.repositories import users, web_sessions
from tests.web.support import Account, csrf_in, log_in, session_csrf


def test_no_session_redirects_to_login_and_back(client: TestClient, account: Account) -> None:
    response = client.get("/app/settings?x=1", follow_redirects=False)
    assert response.status_code == 303
    target = urlsplit(response.headers["location"])
    assert target.path == "/app/login"
    assert parse_qs(target.query) == {"next": ["/app/settings?x=1"]}

    signed_in = log_in(client, account.email, next_path="/app/settings?x=1")
    assert signed_in.status_code == 303
    assert signed_in.headers["location"] == "/app/settings?x=1"


def test_session_cookie_is_http_only_and_lax(client: TestClient, account: Account) -> None:
    response = log_in(client, account.email)
    cookie = response.headers["set-cookie"]
    assert "docintake_session=" in cookie
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/app" in cookie
    assert "Secure" not in cookie  # the test server's base URL is http


def test_only_the_hash_of_the_session_token_is_stored(
    client: TestClient, account: Account, database: Database
) -> None:
    log_in(client, account.email)
    token = client.cookies["docintake_session"]
    with database.read_session() as session:
        stored = session.scalars(select(WebSession.token_hash)).all()
    assert token not in stored
    assert web_sessions.hash_token(token) in stored


def test_wrong_password_is_refused(client: TestClient, account: Account) -> None:
    response = log_in(client, account.email, password="wrong")
    assert response.status_code == 401
    assert "E-mail or password is wrong." in response.text
    assert "docintake_session" not in client.cookies


def test_unknown_email_answers_like_a_wrong_password(client: TestClient) -> None:
    response = log_in(client, "nobody@example.com")
    assert response.status_code == 401
    assert "E-mail or password is wrong." in response.text


def test_email_is_case_insensitive(client: TestClient, account: Account) -> None:
    assert log_in(client, account.email.upper()).status_code == 303


def test_open_redirects_are_refused(client: TestClient, account: Account) -> None:
    response = log_in(client, account.email, next_path="https://evil.example/app/")
    assert response.headers["location"] == "/app/uploads"


def test_login_form_without_its_csrf_cookie_is_refused(
    client: TestClient, account: Account
) -> None:
    form = client.get("/app/login")
    token = csrf_in(form.text)
    client.cookies.clear()
    response = client.post(
        "/app/login",
        data={"email": account.email, "password": account.password, "csrf_token": token},
        follow_redirects=False,
    )
    assert response.status_code == 403
    assert "docintake_session" not in client.cookies


def test_logout_ends_the_session(web_client: TestClient, database: Database) -> None:
    token = web_client.cookies["docintake_session"]
    csrf = session_csrf(web_client, database)
    response = web_client.post("/app/logout", data={"csrf_token": csrf}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/app/login"
    web_client.cookies.set("docintake_session", token)
    again = web_client.get("/app/uploads", follow_redirects=False)
    assert again.status_code == 303


def test_logout_without_csrf_is_forbidden(web_client: TestClient) -> None:
    assert web_client.post("/app/logout", data={}).status_code == 403
    wrong = web_client.post("/app/logout", data={"csrf_token": "x" * 43})
    assert wrong.status_code == 403
    assert web_client.get("/app/login", follow_redirects=False).status_code == 303


def test_five_failures_lock_the_email(client: TestClient, account: Account) -> None:
    for _ in range(5):
        assert log_in(client, account.email, password="wrong").status_code == 401
    locked = log_in(client, account.email)  # even the right password
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.text
    assert 0 < int(locked.headers["retry-after"]) <= 15 * 60


def test_failures_from_one_client_lock_it_for_every_email(client: TestClient) -> None:
    for index in range(20):
        response = log_in(client, f"guess{index}@example.com", password="wrong")
        assert response.status_code == 401
    assert log_in(client, "guess-more@example.com").status_code == 429


def test_success_resets_the_count_for_the_email(client: TestClient, account: Account) -> None:
    for _ in range(4):
        log_in(client, account.email, password="wrong")
    assert log_in(client, account.email).status_code == 303
    client.cookies.clear()
    for _ in range(4):
        assert log_in(client, account.email, password="wrong").status_code == 401
    assert log_in(client, account.email).status_code == 303


def test_failures_outside_the_window_neither_count_nor_stay(
    client: TestClient, account: Account, database: Database
) -> None:
    long_ago = utcnow() - timedelta(hours=1)
    with database.session() as session:
        for _ in range(30):
            session.add(
                LoginAttempt(email=account.email, client="testclient", succeeded=False, at=long_ago)
            )
        session.commit()
    assert log_in(client, account.email).status_code == 303
    with database.read_session() as session:
        left = session.scalar(select(func.count()).select_from(LoginAttempt))
    assert left == 1  # this login's own row


def test_a_login_is_recorded_on_the_user_and_a_wrong_password_is_not(
    client: TestClient, account: Account, database: Database
) -> None:
    assert log_in(client, account.email, password="wrong").status_code == 401
    with database.read_session() as session:
        user = users.find_by_email(session, account.email)
        assert user is not None and user.last_login_at is None
    assert log_in(client, account.email).status_code == 303
    with database.read_session() as session:
        user = users.find_by_email(session, account.email)
        assert user is not None and user.last_login_at is not None
