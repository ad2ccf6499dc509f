"""A new record's free name: the name wanted, or it numbered from 2 as its page numbers its
kind (Door 2, Atlas #2, Ridge (2)), letter case aside, never longer than a name field."""

from referee.campaigns.names import NAME_LENGTH, free_name


def test_the_name_wanted_when_it_is_free():
    assert free_name("Door", ["Hatch", "Door 2"]) == "Door"


def test_the_first_free_number_from_two_letter_case_aside():
    assert free_name("Door", ["door", "Door 2", "DOOR 3"]) == "Door 4"
    assert free_name("Ridge", ["Ridge"], suffix=" ({})") == "Ridge (2)"
    assert free_name("Atlas", ["Atlas #2"], suffix=" #{}", bare=False) == "Atlas #3"


def test_a_long_name_is_cut_so_that_its_number_stays_whole():
    long = "x" * 200
    assert free_name(long, []) == long[:NAME_LENGTH]
    numbered = free_name(long, [long[:NAME_LENGTH]], suffix=" ({})")
    assert len(numbered) == NAME_LENGTH and numbered.endswith(" (2)")
    taken = [long[:NAME_LENGTH], *(f"{long[: NAME_LENGTH - len(f' ({n})')]} ({n})" for n in range(2, 12))]
    assert free_name(long, taken, suffix=" ({})").endswith(" (12)")
