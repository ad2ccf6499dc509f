"""A player's roll that waited for the GM reads, once ruled on, "accepted by #2" or
"rejected by #2" wherever it is shown: the GM's and the player's log, the entry page and
the exports; never "waiting for the GM" again."""

import pytest
from django.urls import reverse

from referee.play.models import LogEntry
from tests.referee.conftest import htmx
from tests.referee.play.test_players import landing_post, landing_setup, roll_url

pytestmark = pytest.mark.django_db


def pages(cast, who: str) -> dict[str, str]:
    client, code = cast.client(who), cast.campaign.code
    entry = LogEntry.objects.get(procedure="boarding.landing")
    found = {
        "log": client.get(reverse("play:log", args=[code])),
        "campaign page": client.get(reverse("campaigns:detail", args=[code])),
        "entry page": client.get(reverse("play:entry", args=[code, entry.seq])),
        "csv": client.get(reverse("play:export", args=[code, "csv"])),
        "markdown": client.get(reverse("play:export", args=[code, "md"])),
    }
    for name, response in found.items():
        assert response.status_code == 200, name
    return {
        name: b"".join(r.streaming_content).decode() if r.streaming else r.text for name, r in found.items()
    }


@pytest.mark.parametrize(("decision", "words"), [("accept", "accepted by #2"), ("reject", "rejected by #2")])
def test_a_ruled_roll_reads_who_ruled_everywhere(cast, decision, words):
    mech, ship = landing_setup(cast)
    cast.client("player").post(roll_url(cast), landing_post(mech, ship), **htmx())
    for who in ("gm", "player"):
        for name, text in pages(cast, who).items():
            assert "waiting for the GM" in text.replace("Waiting", "waiting"), (who, name)
    entry = LogEntry.objects.get(procedure="boarding.landing")
    cast.client("gm").post(reverse(f"play:{decision}", args=[cast.campaign.code, entry.seq]), **htmx())
    for who in ("gm", "player"):
        for name, text in pages(cast, who).items():
            assert "waiting for the gm" not in text.lower(), (who, name)
            assert words in text or words.capitalize() in text, (who, name)


def test_a_blind_rolls_ruling_stays_the_gms(cast):
    mech, ship = landing_setup(cast)
    cast.client("player").post(
        roll_url(cast), landing_post(mech, ship, visibility="blind", blind="on"), **htmx()
    )
    entry = LogEntry.objects.get(procedure="boarding.landing")
    cast.client("gm").post(reverse("play:accept", args=[cast.campaign.code, entry.seq]), **htmx())
    ruling = LogEntry.objects.get(procedure="roll.accept")
    assert ruling.visibility == "gm"
    text = cast.client("player").get(reverse("play:export", args=[cast.campaign.code, "md"]))
    assert "accepted by" not in b"".join(text.streaming_content).decode()
