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


def test_three_hundred_copies_are_read_in_one_pass():
    copies = ["Atlas", *(f"Atlas #{n}" for n in range(2, 301))]
    # An iterator can be read only once: a second look at the names would find none.
    assert free_name("Atlas", iter(copies), suffix=" #{}") == "Atlas #301"
    assert free_name("atlas", iter(reversed(copies)), suffix=" #{}") == "atlas #301"


def test_the_least_free_number_fills_a_gap():
    copies = ["Atlas", *(f"Atlas #{n}" for n in range(2, 301) if n != 150)]
    assert free_name("Atlas", iter(copies), suffix=" #{}") == "Atlas #150"


def test_a_number_written_otherwise_is_not_a_copy():
    # "Door 02" and "Door 1 2" are names of their own, not Door's second copy.
    assert free_name("Door", ["Door", "Door 02", "Door 1 2"]) == "Door 2"
