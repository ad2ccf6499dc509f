"""Fighter tables (Seed B: Overburn, Overburn Effects Table)."""

# No fighter may overburn by more than 15 Heat Points [A22].
OVERBURN_CAP = 15

# Overburn -> Control and to-hit target modifier from the next turn (0-1, 2-4, 5-7, 8-10, 11-13, 14-15).
MODIFIER_BANDS = ((1, 0), (4, 1), (7, 2), (10, 2), (13, 3), (15, 3))

# Overburn -> 1D6 End Phase check: (results that shut the unit down, results that destroy
# one fighter and shut the rest down, how the check reads); None = no roll in this band.
SHUTDOWN_BANDS = (
    (7, None),
    (10, ((6,), (), "shuts down on 6")),
    (13, ((5, 6), (), "shuts down on 5-6")),
    (15, ((4, 5), (6,), "shuts down on 4-5; on 6 one fighter is destroyed and the rest shut down")),
)
