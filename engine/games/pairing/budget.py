"""The node budget a solve shares among its stages.

The search's nodes, the sub-games' positions and the interval solver's entries all count against one
budget (``Solver.budget``); whichever stage spends its last node raises :class:`OutOfBudget`, and the
solver answers "undecided" or hands what is left to its next stage.
"""


class OutOfBudget(Exception):
    """The node budget ran out before the position was decided."""
