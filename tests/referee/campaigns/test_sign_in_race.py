"""The sign-in throttle counts atomically: twelve wrong passwords for one account sent at
once over real HTTP to the live server are judged one after another, so at most five are
judged before the pause, whatever the concurrency."""

import http.cookiejar
import re
import threading
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection
from django.test import override_settings

from referee.campaigns import throttle
from referee.campaigns.models import LoginFailure
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PARALLEL = 12


def login_page(base: str) -> tuple[urllib.request.OpenerDirector, str]:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/accounts/login/").read().decode()
    return opener, re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def test_twelve_parallel_wrong_passwords_judge_at_most_five(live_server):
    UserFactory(username="commodore", password="the-right-one")
    ready = [login_page(live_server.url) for _ in range(PARALLEL)]
    start = threading.Barrier(PARALLEL)
    statuses: list[int] = []

    def guess(n: int) -> None:
        opener, token = ready[n]
        body = urlencode({"username": "commodore", "password": f"guess-{n}", "csrfmiddlewaretoken": token})
        start.wait()
        try:
            statuses.append(opener.open(f"{live_server.url}/accounts/login/", body.encode()).status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(PARALLEL)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(statuses) == PARALLEL
    judged = LoginFailure.objects.filter(username="commodore").count()
    assert judged <= throttle.PER_ACCOUNT, f"{judged} wrong passwords judged: {sorted(statuses)}"
    assert statuses.count(200) == judged and statuses.count(429) == PARALLEL - judged


class LockWatchingHasher(MD5PasswordHasher):
    """Django's MD5 hasher (fast, for tests) that notes, as it checks a password, how many
    advisory locks its own database session holds."""

    algorithm = "lock_watching_md5"
    held: list[int] = []

    def verify(self, password, encoded):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
            )
            self.held.append(cursor.fetchone()[0])
        return super().verify(password, encoded)


@override_settings(PASSWORD_HASHERS=[f"{__name__}.LockWatchingHasher"])
def test_the_password_is_hashed_with_no_lock_held(client):
    UserFactory(username="commodore", password="the-right-one")
    LockWatchingHasher.held.clear()
    wrong = client.post("/accounts/login/", {"username": "commodore", "password": "a-guess"})
    assert wrong.status_code == 200 and LoginFailure.objects.filter(username="commodore").count() == 1
    right = client.post("/accounts/login/", {"username": "commodore", "password": "the-right-one"})
    assert right.status_code == 302 and not LoginFailure.objects.filter(username="commodore").exists()
    assert LockWatchingHasher.held == [0, 0]
